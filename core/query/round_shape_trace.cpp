#include "query/round_shape_trace.h"

#include "query/round_shape_overlap.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// Quadratic leading coefficients below this (shape-space units squared) are a ray
// parallel to the cylinder's axis: the cylinder's own ends (spheres, faces) cover it.
constexpr double kParallelRay = 1e-20;

struct Best {
    std::optional<RoundEntry> entry;
    void offer(double t, const Vec3& normal) {
        if (std::isfinite(t) && (!entry || t < entry->t)) entry = RoundEntry{t, normal};
    }
};

// Smaller root of a t^2 + b t + c = 0, or nothing.
std::optional<double> firstRoot(double a, double b, double c) {
    if (a <= kParallelRay) return std::nullopt;
    const double disc = b * b - 4.0 * a * c;
    if (disc < 0.0) return std::nullopt;
    return (-b - std::sqrt(disc)) / (2.0 * a);
}

// The sphere of radius R centred at o + t d against the brush: faces moved out, edges as
// cylinders, vertices as spheres.
void sphereEntry(const RoundBrush& brush, double R, const Vec3& o, const Vec3& d, Best& best) {
    for (const RoundFace& f : brush.faces) {
        const double rate = f.plane.normal.dot(d);
        if (rate >= 0.0) continue;
        const double t = (f.plane.dist + R - f.plane.normal.dot(o)) / rate;
        if (brush.inFace(f, o + t * d - R * f.plane.normal, kRoundPatchTolerance)) best.offer(t, f.plane.normal);
    }
    for (const auto& [p, q] : brush.edges) {
        const Vec3 axis = q - p;
        const double length = axis.norm();
        if (length == 0.0) continue;
        const Vec3 u = axis / length;
        const Vec3 w = o - p;
        const Vec3 dp = d - d.dot(u) * u, wp = w - w.dot(u) * u;
        const auto t = firstRoot(dp.squaredNorm(), 2.0 * wp.dot(dp), wp.squaredNorm() - R * R);
        if (!t) continue;
        const double along = (w + *t * d).dot(u);
        if (along < -kRoundPatchTolerance || along > length + kRoundPatchTolerance) continue;
        const Vec3 out = wp + *t * dp;
        best.offer(*t, out / out.norm());
    }
    for (const Vec3& v : brush.vertices) {
        const Vec3 w = o - v;
        const auto t = firstRoot(d.squaredNorm(), 2.0 * w.dot(d), w.squaredNorm() - R * R);
        if (t) best.offer(*t, (w + *t * d) / R);
    }
}

// The side of the vertical core c + [-L, L] z against edges and vertices.
void coreSideEntry(const RoundBrush& brush, double R, double L, const Vec3& o, const Vec3& d, Best& best) {
    const Vec3 up = Vec3::UnitZ();
    for (const auto& [p, q] : brush.edges) {
        const Vec3 e = q - p;
        const Vec3 across = e.cross(up);
        const double acrossLength = across.norm();
        if (acrossLength <= kRoundPatchTolerance * e.norm()) continue; // vertical: the vertices' cylinders
        for (double sign : {1.0, -1.0}) {
            const Vec3 n = sign * across / acrossLength;
            const double rate = n.dot(d);
            if (rate >= 0.0) continue;
            const double t = (n.dot(p) + R - n.dot(o)) / rate;
            // c - R n - p = s e - w up: the edge point s and the core point w that touch.
            const Vec3 g = o + t * d - R * n - p;
            const double ee = e.squaredNorm(), ez = e.z();
            const double det = ee - ez * ez; // |e x up|^2 > 0
            const double s = (g.dot(e) - ez * g.z()) / det;
            const double w = -(ee * g.z() - ez * g.dot(e)) / det;
            if (s < -kRoundPatchTolerance || s > 1.0 + kRoundPatchTolerance) continue;
            if (std::abs(w) > L + kRoundPatchTolerance) continue;
            best.offer(t, n);
        }
    }
    const Vec3 flatD(d.x(), d.y(), 0.0);
    for (const Vec3& v : brush.vertices) {
        const Vec3 w(o.x() - v.x(), o.y() - v.y(), 0.0);
        const auto t = firstRoot(flatD.squaredNorm(), 2.0 * w.dot(flatD), w.squaredNorm() - R * R);
        if (!t) continue;
        if (std::abs(o.z() + *t * d.z() - v.z()) > L + kRoundPatchTolerance) continue;
        best.offer(*t, (w + *t * flatD) / R);
    }
}

} // namespace

std::optional<RoundEntry> lineEntry(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& origin,
                                    const Vec3& dir) {
    Best best;
    if (dir.squaredNorm() == 0.0) return std::nullopt;
    sphereEntry(brush, frame.radius, frame.coreLow(origin), dir, best);
    if (frame.halfCore > 0.0) {
        sphereEntry(brush, frame.radius, frame.coreHigh(origin), dir, best);
        coreSideEntry(brush, frame.radius, frame.halfCore, origin, dir, best);
    }
    return best.entry;
}

RoundSweep sweepRoundShape(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from, const Vec3& delta,
                           double band) {
    RoundSweep r;
    // A face plane with the whole swept shape beyond it (by more than the band) separates
    // them: the cheap answer for most brushes near a sweep.
    for (const RoundFace& f : brush.faces) {
        const double lowest = std::min(f.plane.signedDistance(from), f.plane.signedDistance(from + delta)) -
                              frame.halfCore * std::abs(f.plane.normal.z());
        if (lowest > frame.radius + band) return r;
    }
    const CoreDistance start = coreToBrush(brush, frame.coreLow(from), frame.coreHigh(from));
    const double clearance = start.distance - frame.radius;
    if (clearance < -band || start.distance == 0.0) { // (the core inside: no normal)
        r.startSolid = true;
        r.t = 0.0;
        return r;
    }
    if (band > 0.0 && clearance <= band) {
        // Touching: the distance grows along delta iff delta leaves along the normal there
        // (the distance to a convex set is convex along a line), else it hits at once.
        const Vec3 normal = (start.onCore - start.onBrush) / start.distance;
        if (normal.dot(delta) < 0.0) {
            r.hit = true;
            r.t = 0.0;
            r.normal = normal;
        }
        return r;
    }
    const std::optional<RoundEntry> entry = lineEntry(frame, brush, from, delta);
    // From outside M, an entry behind the start means the line runs away from M (without
    // a band, one a rounding error behind is a contact at the start).
    const double earliest = band > 0.0 ? 0.0 : -kRoundPatchTolerance;
    if (entry && entry->t >= earliest && entry->t < 1.0) {
        r.hit = true;
        r.t = std::max(0.0, entry->t);
        r.normal = entry->normal;
    }
    return r;
}

} // namespace shallot

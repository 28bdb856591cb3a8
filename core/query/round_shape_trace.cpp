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
    // Sweeps want entries from the start on: patches the line only meets behind the start
    // (outside them and moving away) are not solved.
    bool forwardOnly = false;
    bool behind(double b, double c) const { return forwardOnly && c > 0.0 && b > 0.0; }
    // Faces the motion goes into (normal . dir < 0). An edge's or vertex's patch normals
    // are non-negative mixes of its faces' normals, so it has an entry only if one of its
    // faces is among them.
    uint64_t front = 0;
    bool faces(uint64_t mask) const { return (mask & front) != 0; }
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
    for (const RoundEdge& e : brush.edges) {
        if (!best.faces(e.faces)) continue;
        const Vec3& u = e.dir;
        const double length = e.length;
        const Vec3 w = o - e.from;
        const Vec3 dp = d - d.dot(u) * u, wp = w - w.dot(u) * u;
        const double b = 2.0 * wp.dot(dp), c = wp.squaredNorm() - R * R;
        if (best.behind(b, c)) continue;
        const auto t = firstRoot(dp.squaredNorm(), b, c);
        if (!t) continue;
        const double along = (w + *t * d).dot(u);
        if (along < -kRoundPatchTolerance || along > length + kRoundPatchTolerance) continue;
        const Vec3 out = wp + *t * dp;
        best.offer(*t, out / out.norm());
    }
    for (size_t i = 0; i < brush.vertices.size(); ++i) {
        if (!best.faces(brush.vertexFaces[i])) continue;
        const Vec3& v = brush.vertices[i];
        const Vec3 w = o - v;
        const double b = 2.0 * w.dot(d), c = w.squaredNorm() - R * R;
        if (best.behind(b, c)) continue;
        const auto t = firstRoot(d.squaredNorm(), b, c);
        if (t) best.offer(*t, (w + *t * d) / R);
    }
}

// The side of the vertical core c + [-L, L] z against edges and vertices.
void coreSideEntry(const RoundBrush& brush, double R, double L, const Vec3& o, const Vec3& d, Best& best) {
    for (const RoundEdge& edge : brush.edges) {
        if (edge.across == Vec3::Zero() || !best.faces(edge.faces)) continue; // vertical: the vertices' cylinders
        const Vec3& p = edge.from;
        const Vec3 e = edge.to - edge.from;
        for (double sign : {1.0, -1.0}) {
            const Vec3 n = sign * edge.across;
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
    for (size_t i = 0; i < brush.vertices.size(); ++i) {
        if (!best.faces(brush.vertexFaces[i])) continue;
        const Vec3& v = brush.vertices[i];
        const Vec3 w(o.x() - v.x(), o.y() - v.y(), 0.0);
        const double b = 2.0 * w.dot(flatD), c = w.squaredNorm() - R * R;
        if (best.behind(b, c)) continue;
        const auto t = firstRoot(flatD.squaredNorm(), b, c);
        if (!t) continue;
        if (std::abs(o.z() + *t * d.z() - v.z()) > L + kRoundPatchTolerance) continue;
        best.offer(*t, (w + *t * flatD) / R);
    }
}

// The sweep from a start clear of the brush by more than the band.
RoundSweep entryAfterClearStart(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from,
                                const Vec3& delta, double band, RoundSweep r) {
    const std::optional<RoundEntry> entry = lineEntry(frame, brush, from, delta, true);
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

} // namespace

std::optional<RoundEntry> lineEntry(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& origin,
                                    const Vec3& dir, bool forwardOnly) {
    Best best;
    best.forwardOnly = forwardOnly;
    for (size_t f = 0; f < brush.faces.size(); ++f)
        if (brush.faces[f].plane.normal.dot(dir) < 0.0) best.front |= RoundBrush::faceMask(f);
    if (dir.squaredNorm() == 0.0) return std::nullopt;
    sphereEntry(brush, frame.radius, frame.coreLow(origin), dir, best);
    if (frame.halfCore > 0.0) {
        sphereEntry(brush, frame.radius, frame.coreHigh(origin), dir, best);
        coreSideEntry(brush, frame.radius, frame.halfCore, origin, dir, best);
    }
    return best.entry;
}

RoundSweepBound boundRoundSweep(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from,
                                const Vec3& delta, double band) {
    RoundSweepBound r;
    const double slack = std::max(band, kRoundPatchTolerance);
    double hi = 1.0;
    for (const RoundFace& f : brush.faces) {
        const double reach = frame.radius + frame.halfCore * std::abs(f.plane.normal.z());
        const double s0 = f.plane.signedDistance(from) - reach - slack;
        const double rate = f.plane.normal.dot(delta);
        r.startClear |= s0 > 0.0;
        if (rate == 0.0) {
            if (s0 > 0.0) return {true, true, 1.0};
            continue;
        }
        const double t = -s0 / rate;
        if (rate > 0.0) hi = std::min(hi, t);
        else r.earliest = std::max(r.earliest, t);
        if (r.earliest > hi) return {true, true, 1.0};
    }
    return r;
}

RoundSweep finishRoundSweep(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from, const Vec3& delta,
                            double band, const RoundSweepBound& bound) {
    RoundSweep r;
    if (bound.missed) return r;
    if (bound.startClear) return entryAfterClearStart(frame, brush, from, delta, band, r);
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
    return entryAfterClearStart(frame, brush, from, delta, band, r);
}

RoundSweep sweepRoundShape(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from, const Vec3& delta,
                           double band) {
    return finishRoundSweep(frame, brush, from, delta, band, boundRoundSweep(frame, brush, from, delta, band));
}

} // namespace shallot

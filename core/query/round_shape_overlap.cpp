#include "query/round_shape_overlap.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shallot {

namespace {

// Squared segment lengths below this count as a point (shape-space units squared).
constexpr double kDegenerateSegment = 1e-24;

// The part of [a, b] inside every face plane, as parameters; empty when lo > hi.
bool clipSegment(const RoundBrush& brush, const Vec3& a, const Vec3& b, double& lo, double& hi) {
    lo = 0.0;
    hi = 1.0;
    const Vec3 d = b - a;
    for (const RoundFace& f : brush.faces) {
        const double start = f.plane.signedDistance(a);
        const double rate = f.plane.normal.dot(d);
        if (rate == 0.0) {
            if (start > 0.0) return false;
            continue;
        }
        const double t = -start / rate;
        if (rate > 0.0) hi = std::min(hi, t);
        else lo = std::max(lo, t);
        if (lo > hi) return false;
    }
    return true;
}

void consider(CoreDistance& best, const Vec3& onCore, const Vec3& onBrush) {
    const double d = (onCore - onBrush).norm();
    if (d < best.distance) best = {d, onCore, onBrush};
}

// x outside the brush: its closest point on a face's inside or on an edge.
void pointToBrush(const RoundBrush& brush, const Vec3& x, CoreDistance& best) {
    for (const RoundFace& f : brush.faces) {
        const double s = f.plane.signedDistance(x);
        if (s <= 0.0 || s >= best.distance) continue;
        const Vec3 foot = x - s * f.plane.normal;
        if (brush.inFace(f, foot, 0.0)) best = {s, x, foot};
    }
    for (const RoundEdge& e : brush.edges) {
        Vec3 onCore, onEdge;
        closestSegmentPoints(x, x, e.from, e.to, onCore, onEdge);
        consider(best, x, onEdge);
    }
}

} // namespace

void closestSegmentPoints(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec3& onP, Vec3& onQ) {
    const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
    double s = 0.0, t = 0.0;
    if (a <= kDegenerateSegment && e <= kDegenerateSegment) {
        onP = p0;
        onQ = q0;
        return;
    }
    if (a <= kDegenerateSegment) {
        t = std::clamp(f / e, 0.0, 1.0);
    } else {
        const double c = d1.dot(r);
        if (e <= kDegenerateSegment) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = d1.dot(d2), denom = a * e - b * b;
            s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = std::clamp(-c / a, 0.0, 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = std::clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    onP = p0 + s * d1;
    onQ = q0 + t * d2;
}

CoreDistance coreToBrush(const RoundBrush& brush, const Vec3& a, const Vec3& b) {
    double lo = 0.0, hi = 0.0;
    if (clipSegment(brush, a, b, lo, hi)) {
        const Vec3 meet = a + 0.5 * (lo + hi) * (b - a);
        return {0.0, meet, meet};
    }
    CoreDistance best{std::numeric_limits<double>::infinity(), a, a};
    pointToBrush(brush, a, best);
    if ((b - a).squaredNorm() <= kDegenerateSegment) return best;
    pointToBrush(brush, b, best);
    for (const RoundEdge& e : brush.edges) {
        Vec3 onCore, onEdge;
        closestSegmentPoints(a, b, e.from, e.to, onCore, onEdge);
        consider(best, onCore, onEdge);
    }
    return best;
}

double roundShapeClearance(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& centre) {
    return coreToBrush(brush, frame.coreLow(centre), frame.coreHigh(centre)).distance - frame.radius;
}

} // namespace shallot

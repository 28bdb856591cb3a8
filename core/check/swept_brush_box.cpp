#include "check/swept_brush_box.h"

#include <algorithm>
#include <limits>

namespace shallot {
namespace {

// An axis shorter than this is the cross product of (nearly) parallel directions: it
// separates nothing the other axes do not.
constexpr double kShortestAxis = 1e-12;

} // namespace

bool sweptBrushOverlapsBox(const BrushGeometry& brush, const Vec3& from, const Vec3& to, const Aabb& box,
                           double depth) {
    const Vec3 boxHalf = 0.5 * (box.maxs - box.mins) - Vec3::Constant(depth);
    if (brush.vertices.empty() || box.empty() || !(boxHalf.array() > 0.0).all()) return false;
    const Vec3 motion = to - from;
    const Vec3 boxCentre = 0.5 * (box.mins + box.maxs);
    // Separated along `axis` when the projections at most touch.
    auto separates = [&](const Vec3& axis) {
        const double length = axis.norm();
        if (length < kShortestAxis) return false;
        const Vec3 n = axis / length;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const Vec3& v : brush.vertices) {
            const double p = n.dot(v);
            lo = std::min(lo, p);
            hi = std::max(hi, p);
        }
        // The swept hull's projection: the brush's at both ends.
        const double a = n.dot(from), b = n.dot(to);
        lo += std::min(a, b);
        hi += std::max(a, b);
        const double c = n.dot(boxCentre), e = n.cwiseAbs().dot(boxHalf);
        return hi <= c - e || lo >= c + e;
    };
    for (int k = 0; k < 3; ++k)
        if (separates(Vec3::Unit(k))) return false;
    for (const ConvexFace& f : brush.hull.faces)
        if (separates(f.plane.normal)) return false;
    // The swept hull's edges are the brush's and the motion; its other faces are brush
    // edges swept along the motion.
    for (int k = 0; k < 3; ++k)
        if (separates(motion.cross(Vec3::Unit(k)))) return false;
    for (const auto& [p, q] : brush.edges) {
        const Vec3 edge = q - p;
        for (int k = 0; k < 3; ++k)
            if (separates(edge.cross(Vec3::Unit(k)))) return false;
        if (separates(edge.cross(motion))) return false;
    }
    return true;
}

} // namespace shallot

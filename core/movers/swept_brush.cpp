#include "movers/swept_brush.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// Edges closer than this to parallel with the motion (the sine of the angle, times the
// edge's and the motion's lengths) make no side plane: the faces beside them already bound
// the hull there.
constexpr double kParallelEdge = 1e-9;
// A side plane supports the hull when no vertex is farther out than this (units; brush
// coordinates are within +-65536 and planes carry rounding of about 1e-10 of that).
constexpr double kSupportTolerance = 1e-6;
// Planes closer than these are one (normal components, distance in units).
constexpr double kSameNormal = 1e-9;
constexpr double kSameDist = 1e-6;

void addPlane(std::vector<Plane>& planes, const Plane& p) {
    for (const Plane& q : planes)
        if ((q.normal - p.normal).cwiseAbs().maxCoeff() < kSameNormal && std::abs(q.dist - p.dist) < kSameDist) return;
    planes.push_back(p);
}

} // namespace

Brush sweptBrush(const BrushGeometry& brush, const Vec3& from, const Vec3& to) {
    std::vector<Plane> planes;
    for (const ConvexFace& face : brush.hull.faces) {
        const Vec3& n = face.plane.normal;
        addPlane(planes, {n, face.plane.dist + std::max(n.dot(from), n.dot(to))});
    }
    const Vec3 motion = to - from;
    for (const auto& [a, b] : brush.edges) {
        const Vec3 cross = (b - a).cross(motion);
        const double length = cross.norm();
        if (length <= kParallelEdge * std::max(1.0, (b - a).norm() * motion.norm())) continue;
        for (const double sign : {1.0, -1.0}) {
            const Vec3 n = sign * cross / length;
            const double dist = n.dot(a + from); // the motion lies in the plane
            const bool supports = std::all_of(brush.vertices.begin(), brush.vertices.end(),
                                              [&](const Vec3& v) { return n.dot(v + from) <= dist + kSupportTolerance; });
            if (supports) addPlane(planes, {n, dist});
        }
    }
    return Brush::fromPlanes(planes);
}

} // namespace shallot

#include "query/shifted_plane_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shallot {

namespace {

// Two unit normals this close (each component) are one plane's.
constexpr double kSameNormal = 1e-9;
// An edge whose direction is within this sine of an axis adds no bevel along that axis
// (the plane through it would be ill-defined; the axial bevels cover it).
constexpr double kParallelSine = 1e-9;

bool hasPlane(const std::vector<Plane>& planes, const Vec3& normal, double dist) {
    return std::any_of(planes.begin(), planes.end(), [&](const Plane& p) {
        return (p.normal - normal).cwiseAbs().maxCoeff() < kSameNormal && std::abs(p.dist - dist) < kBevelVertexTolerance;
    });
}

bool allVerticesBehind(const std::vector<Vec3>& vertices, const Vec3& normal, double dist) {
    return std::all_of(vertices.begin(), vertices.end(),
                       [&](const Vec3& v) { return normal.dot(v) - dist <= kBevelVertexTolerance; });
}

} // namespace

double roundShapeReach(const PoseShape& shape, const Vec3& n) {
    if (shape.kind == PoseShapeKind::Capsule)
        return shape.radius + (0.5 * shape.height - shape.radius) * std::abs(n.z());
    if (shape.kind == PoseShapeKind::Ellipsoid)
        return std::sqrt(shape.radius * shape.radius * (n.x() * n.x() + n.y() * n.y()) +
                         shape.height * shape.height * n.z() * n.z());
    return 0.0;
}

ShiftedPlaneBrush shiftPlanes(const BrushGeometry& brush, const PoseShape& shape) {
    std::vector<Plane> planes;
    for (const ConvexFace& face : brush.hull.faces)
        if (!hasPlane(planes, face.plane.normal, face.plane.dist)) planes.push_back(face.plane);
    const int faceCount = int(planes.size());
    // The axial bevels: the brush's box.
    for (int axis = 0; axis < 3; ++axis)
        for (int sign : {-1, 1}) {
            const Vec3 normal = double(sign) * Vec3::Unit(axis);
            const double dist = sign > 0 ? brush.bounds.maxs[axis] : -brush.bounds.mins[axis];
            if (!hasPlane(planes, normal, dist)) planes.push_back({normal, dist});
        }
    // The edge bevels: through an edge along an axis, when the whole brush is behind.
    for (const auto& [a, b] : brush.edges) {
        const Vec3 dir = (b - a).normalized();
        for (int axis = 0; axis < 3; ++axis) {
            const Vec3 cross = dir.cross(Vec3::Unit(axis));
            if (cross.norm() < kParallelSine) continue;
            for (int sign : {-1, 1}) {
                const Vec3 normal = double(sign) * cross.normalized();
                const double dist = normal.dot(a);
                if (allVerticesBehind(brush.vertices, normal, dist) && !hasPlane(planes, normal, dist))
                    planes.push_back({normal, dist});
            }
        }
    }
    ShiftedPlaneBrush shifted;
    shifted.faceCount = faceCount;
    for (Plane& plane : planes) plane.dist += roundShapeReach(shape, plane.normal);
    shifted.planes = std::move(planes);
    const Vec3 grow = boundingHalfExtents(shape);
    shifted.bounds = {brush.bounds.mins - grow, brush.bounds.maxs + grow};
    return shifted;
}

double shiftedPlaneDepth(const ShiftedPlaneBrush& brush, const Vec3& p) {
    double depth = std::numeric_limits<double>::infinity();
    for (const Plane& plane : brush.planes) depth = std::min(depth, -plane.signedDistance(p));
    return depth;
}

} // namespace shallot

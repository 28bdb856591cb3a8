#include "compile/brush_expansion.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// Edge directions shorter than this (relative) are too short to orient a bevel.
constexpr double kMinBevelNormalLength = 1e-9;

// Candidate normals closer than this (component-wise) are the same bevel.
constexpr double kSameNormal = 1e-9;

double brushSupport(const BrushGeometry& brush, const Vec3& n) {
    double best = -std::numeric_limits<double>::infinity();
    for (const Vec3& v : brush.vertices) best = std::max(best, n.dot(v));
    return best;
}

} // namespace

double poseSupport(const Pose& pose, const Vec3& n) {
    double h = 0.0;
    for (int i = 0; i < 3; ++i) h += std::max(-n[i] * pose.maxs[i], -n[i] * pose.mins[i]);
    return h;
}

std::vector<Plane> expandedPlanes(const BrushGeometry& brush, const Pose& pose) {
    std::vector<Plane> planes;
    std::vector<Vec3> bevels; // normals used so far
    // Face planes keep their own distance (exact), pushed out by the box.
    for (const ConvexFace& f : brush.hull.faces) {
        planes.push_back({f.plane.normal, f.plane.dist + poseSupport(pose, f.plane.normal)});
        bevels.push_back(f.plane.normal);
    }
    auto addBevel = [&](const Vec3& n) {
        for (const Vec3& m : bevels)
            if ((m - n).cwiseAbs().maxCoeff() < kSameNormal) return;
        bevels.push_back(n);
        planes.push_back({n, brushSupport(brush, n) + poseSupport(pose, n)});
    };
    for (int axis = 0; axis < 3; ++axis) {
        for (double sign : {1.0, -1.0}) {
            Vec3 n = Vec3::Zero();
            n[axis] = sign;
            addBevel(n);
        }
    }
    for (const auto& [a, b] : brush.edges) {
        const Vec3 e = b - a;
        for (int axis = 0; axis < 3; ++axis) {
            Vec3 n = e.cross(Vec3::Unit(axis));
            const double len = n.norm();
            if (len < kMinBevelNormalLength * e.norm()) continue; // edge parallel to the axis
            n /= len;
            // The bevel is a facet only where the edge is extreme along +-n.
            const double edgeDist = n.dot(a);
            const double maxDist = brushSupport(brush, n);
            const double minDist = -brushSupport(brush, -n);
            if (maxDist <= edgeDist + kOnPlaneEpsilon) addBevel(n);
            else if (minDist >= edgeDist - kOnPlaneEpsilon) addBevel(-n);
        }
    }
    return planes;
}

ConvexPolyhedron expandBrush(const BrushGeometry& brush, const Pose& pose, double worldExtent) {
    const Vec3 grow = (pose.maxs - pose.mins).cwiseAbs();
    return intersectHalfSpaces(expandedPlanes(brush, pose), worldExtent + grow.maxCoeff()).polyhedron;
}

} // namespace shallot

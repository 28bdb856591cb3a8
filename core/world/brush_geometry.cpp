#include "world/brush_geometry.h"

#include "compile/leaf_interior_point.h"
#include "geometry/tolerances.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shallot {

namespace {

// Vertices this close are the same vertex of a hull.
constexpr double kWeldDistance = 1e-6;

// A brush thinner than this in every direction is not worth keeping (cubic units).
constexpr double kMinBrushVolume = 1e-6;

// Half the thickness of the thinnest brush accepted: its largest inscribed ball must have
// at least this radius, so its opposite faces are further apart than kOnPlaneEpsilon.
constexpr double kMinBrushHalfThickness = kOnPlaneEpsilon;

int findOrAdd(std::vector<Vec3>& points, const Vec3& p) {
    for (size_t i = 0; i < points.size(); ++i)
        if ((points[i] - p).cwiseAbs().maxCoeff() < kWeldDistance) return int(i);
    points.push_back(p);
    return int(points.size() - 1);
}

} // namespace

void collectVerticesAndEdges(const ConvexPolyhedron& hull, std::vector<Vec3>& vertices,
                             std::vector<std::pair<Vec3, Vec3>>& edges) {
    std::vector<std::pair<int, int>> edgeIds;
    for (const ConvexFace& f : hull.faces) {
        const auto& vs = f.polygon.vertices;
        for (size_t i = 0; i < vs.size(); ++i) {
            const int a = findOrAdd(vertices, vs[i]);
            const int b = findOrAdd(vertices, vs[(i + 1) % vs.size()]);
            if (a == b) continue;
            const std::pair<int, int> e{std::min(a, b), std::max(a, b)};
            if (std::find(edgeIds.begin(), edgeIds.end(), e) == edgeIds.end()) edgeIds.push_back(e);
        }
    }
    for (const auto& [a, b] : edgeIds) edges.emplace_back(vertices[size_t(a)], vertices[size_t(b)]);
}

BrushGeometryResult buildBrushGeometry(const Brush& brush, const Aabb& worldBounds) {
    BrushGeometryResult out;
    std::vector<Plane> planes;
    std::vector<int32_t> tags;
    for (size_t i = 0; i < brush.sides.size(); ++i) {
        const Plane& p = brush.sides[i].plane;
        if (!p.isFinite() || std::abs(p.normal.norm() - 1.0) > 1e-6) {
            out.error = "side " + std::to_string(i) + " has an invalid plane (NaN, infinite or zero normal)";
            return out;
        }
        // The same plane twice adds nothing; keep the first.
        const bool duplicate = std::any_of(planes.begin(), planes.end(), [&](const Plane& q) {
            return (q.normal - p.normal).cwiseAbs().maxCoeff() < kPlaneNormalEpsilon &&
                   std::abs(q.dist - p.dist) < kPlaneDistEpsilon;
        });
        if (duplicate) continue;
        planes.push_back(p);
        tags.push_back(int32_t(i));
    }
    const double worldExtent = std::max(worldBounds.mins.cwiseAbs().maxCoeff(), worldBounds.maxs.cwiseAbs().maxCoeff());
    // Build inside a box twice the world so that "beyond the world" and "unbounded" differ.
    HalfSpaceIntersection hs = intersectHalfSpaces(planes, 2.0 * worldExtent, tags);
    if (hs.touchesExtent) {
        out.error = "is unbounded (its planes do not enclose a finite volume)";
        return out;
    }
    BrushGeometry g;
    g.hull = std::move(hs.polyhedron);
    if (g.hull.faces.empty()) {
        out.error = "is empty (its half-spaces do not intersect)";
        return out;
    }
    if (g.hull.faces.size() < 4) {
        out.error = "has fewer than 4 useful planes (" + std::to_string(g.hull.faces.size()) + ")";
        return out;
    }
    if (g.hull.volume() < kMinBrushVolume) {
        out.error = "has no volume (its faces are degenerate)";
        return out;
    }
    // Thinner than the trees' on-plane tolerance, a brush's opposite faces read as one
    // plane and the trees come out wrong: such a brush is refused instead.
    if (chebyshevCentre(planes, g.hull.vertexCentroid()).clearance < kMinBrushHalfThickness) {
        out.error = "is thinner than " + std::to_string(2 * kMinBrushHalfThickness) +
                    " units somewhere (below the compiler's precision)";
        return out;
    }
    g.bounds = g.hull.bounds();
    if (!worldBounds.contains(g.bounds.mins) || !worldBounds.contains(g.bounds.maxs)) {
        // %.17g, not an integer cast: a world box from a hostile file may be 1e26 across.
        char extent[32];
        std::snprintf(extent, sizeof extent, "%.17g", worldExtent);
        out.error = std::string("has coordinates beyond the world bounds (+-") + extent + ")";
        return out;
    }
    collectVerticesAndEdges(g.hull, g.vertices, g.edges);
    out.geometry = std::move(g);
    return out;
}

} // namespace shallot

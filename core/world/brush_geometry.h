#pragma once
#include "geometry/convex_polyhedron.h"
#include "world/brush.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shallot {

// The B-rep of a valid brush: faces (tagged with the side index they come from),
// vertices and edges, derived from its planes.
struct BrushGeometry {
    ConvexPolyhedron hull;
    std::vector<Vec3> vertices;
    std::vector<std::pair<Vec3, Vec3>> edges;
    Aabb bounds;
};

struct BrushGeometryResult {
    std::optional<BrushGeometry> geometry;
    std::string error; // why the brush is invalid, when geometry is empty
};

// Builds the brush's faces from its planes and checks it: finite planes, at least four
// sides that contribute a face, bounded, non-empty, inside `worldBounds`.
BrushGeometryResult buildBrushGeometry(const Brush& brush, const Aabb& worldBounds);

// Vertices and edges of a polyhedron, each listed once (edges are shared by two faces).
void collectVerticesAndEdges(const ConvexPolyhedron& hull, std::vector<Vec3>& vertices,
                             std::vector<std::pair<Vec3, Vec3>>& edges);

} // namespace shallot

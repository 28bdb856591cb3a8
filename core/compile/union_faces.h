#pragma once
#include "geometry/convex_polyhedron.h"
#include "geometry/plane_pool.h"

#include <cstdint>
#include <vector>

namespace shallot {

// A brush expanded for one pose, its face planes entered in the shared plane pool.
struct ExpandedBrush {
    int32_t brush = -1;          // index of the world brush
    ConvexPolyhedron hull;
    std::vector<PlaneId> planes; // pool id of each hull face
    Aabb bounds;
};

ExpandedBrush makeExpandedBrush(int32_t brush, ConvexPolyhedron hull, PlanePool& pool);

// A polygon on the boundary of a pose's expanded world.
struct UnionFace {
    Polygon polygon;
    PlaneId plane;
    int32_t brush;
};

// The faces of the union of `brushes` (CSG union): each face, minus the parts inside
// another brush. Coincident faces: where two brushes share a face facing the same way,
// the brush listed first keeps it; faces where two brushes touch back to back are
// interior and removed.
std::vector<UnionFace> unionFaces(const std::vector<ExpandedBrush>& brushes, const PlanePool& pool);

} // namespace shallot

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
    int32_t hullFace = -1; // the face of the brush's hull it is part of
};

// Do two expanded brushes' boxes overlap closely enough for one to clip the other's faces?
bool brushesMayTouch(const ExpandedBrush& a, const ExpandedBrush& b);

// For every brush, the indices of the brushes that may touch it (brushesMayTouch), sorted.
std::vector<std::vector<int32_t>> overlappingBrushes(const std::vector<ExpandedBrush>& brushes);

// One brush's share of the faces of the union of the expanded brushes (CSG union): its
// faces minus the parts inside `neighbours` (the brushes that may touch it, in world
// order), appended to `out`. Coincident faces: where two brushes share a face facing the
// same way, the brush with the lower world index keeps it; faces where two brushes touch
// back to back are interior and removed.
void unionFacesOf(const ExpandedBrush& brush, const std::vector<const ExpandedBrush*>& neighbours,
                  const PlanePool& pool, std::vector<UnionFace>& out);

} // namespace shallot

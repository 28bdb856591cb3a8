#pragma once
// Does a brush moving in a straight line pass through a box? The exact test the blocked
// check (check/mover_checks.h) makes once the boxes' bounds say it may.
#include "geometry/aabb.h"
#include "world/brush_geometry.h"

namespace shallot {

// Whether `brush` moved from offset `from` to offset `to` (every place between) overlaps
// the interior of `box` shrunk by `depth` (>= 0) on every side: the separating axis test
// between that box and the convex hull of the brush at both ends (the volume it sweeps).
// Touching, or reaching less than `depth` into the box, is apart.
bool sweptBrushOverlapsBox(const BrushGeometry& brush, const Vec3& from, const Vec3& to, const Aabb& box,
                           double depth);

} // namespace shallot

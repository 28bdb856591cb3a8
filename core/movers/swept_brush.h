#pragma once
// The volume a brush sweeps moving in a straight line (a mover between two of its stops),
// as a brush: the convex hull of the brush at both ends, which is the set of places it
// passes through. The editor draws it ghosted (issue 40).
#include "world/brush_geometry.h"

namespace shallot {

// The brush `brush` (its B-rep) swept from offset `from` to offset `to`: its faces moved to
// whichever end is farther along their normal, plus a side plane through every edge
// parallel to the motion that supports the hull. Planes only (no textures); the same
// brush moved by `from` when `to` equals it.
Brush sweptBrush(const BrushGeometry& brush, const Vec3& from, const Vec3& to);

} // namespace shallot

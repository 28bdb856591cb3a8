#pragma once
// Cutting a navigation mesh's polygons along the sides of boxes (seen from above), so that
// each polygon is wholly inside or wholly outside each box: a closed door's volume (typed
// travel, movers/travel.h) then closes whole polygons, where a corridor's floor was one
// polygon running through the door.
#include "nav/nav_mesh.h"

#include <vector>

namespace shallot {

// Polygons closer to a cut line than this are not cut there (a sliver).
inline constexpr double kNavCutSliver = 1e-3;

// The mesh with every polygon whose bounds meet a box cut along the box's four vertical
// sides that cross it. Pieces keep their polygon's plane, leaf, surface and component;
// links are carried over to the pieces (a walk's shared edge split where it crosses a
// cut), and pieces of one polygon are joined by walks along the cuts.
NavMesh cutAtBoxes(const NavMesh& mesh, const std::vector<Aabb>& boxes);

} // namespace shallot

#pragma once
// Merging a navigation mesh's walkable polygons (nav_mesh.h). The onion tree cuts the floor
// wherever a splitting plane passes, so one room's floor is many leaf polygons; paths
// search and pull strings over every one of them. Coplanar polygons joined by a walk link
// are merged, greedily, into larger convex polygons (as Hertel and Mehlhorn merge the
// triangles of a polygon): two merge when their union, seen from above, is convex.
#include "nav/nav_mesh.h"

namespace shallot {

// Two polygons merge when each one's vertices lie at most this far outside the other's
// edges (seen from above; but the edges along which they touch): the rounding of vertices
// that come from plane intersections, never a real notch.
inline constexpr double kNavMergeSlack = 1e-4;

// Merges the mesh's polygons as above, after its links are found and before they are
// grouped (NavPolygon::firstLink is not read): walk links inside a merged polygon go,
// collinear walk links that meet end to end between the same two polygons become one, and
// every other link is renumbered. Free edges that meet end to end along one line are
// joined. The polygons are visited in an order given by their vertices alone, so the
// result does not depend on how the tree numbered them (an updated mesh equals a rebuilt
// one). The xy grid is rebuilt.
void mergeCoplanarPolygons(NavMesh& mesh);

} // namespace shallot

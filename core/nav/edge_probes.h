#pragma once
// Step and drop links of a navigation mesh (nav_mesh.h), found by moving the pose's
// reference point in the tree as Quake moves a box: off each free edge of a walkable
// polygon (a part no other walkable polygon shares), straight out; if that is blocked, up
// by the step height, out, and down again; then down onto what lies below.
#include "nav/nav_mesh.h"

#include <utility>
#include <vector>

namespace shallot {

// Parts of one polygon edge shared with other polygons, as intervals along the edge.
using EdgeIntervals = std::vector<std::pair<double, double>>;

// Adds the links found from the free parts of every polygon's edges (covered[p][e]: the
// shared parts of edge e of polygon p) to mesh.links and records those parts in each
// polygon's freeEdges; mesh.grid must be filled.
void addProbeLinks(const BspTree& tree, NavMesh& mesh, const std::vector<std::vector<EdgeIntervals>>& covered);

// Jump links (NavSettings::jump), from the free edges addProbeLinks recorded, once the
// polygons' components (walks and steps) are known. The flight, in configuration space,
// from a point of a free edge (the same samples as the steps and drops):
//   1. straight up by the jump height (the box must have that much headroom above the
//      edge: Quake's jump always rises its full height, a lower ceiling cuts it short);
//   2. straight out along the edge's outward normal, level at that height, up to the jump
//      length (and no farther than that trace gets);
//   3. straight down, from every kNavJumpSpacing units along 2, onto the first ground below.
// Each of the three is a swept trace of the pose's box that must be clear. A landing is a
// jump when it is walkable ground of another component than the takeoff's (a jump within
// one component would be a shortcut only), at most the jump height above the takeoff and
// at most maxDrop below it; per edge point, only the nearest landing in each component.
// The flight is the upper envelope of any real jump with that apex: obstacles below it in
// the gap (which a flatter real arc might meet) are not looked for.
void addJumpLinks(const BspTree& tree, NavMesh& mesh);

// The length of a jump link's flight as above: up, across, down.
double navJumpFlightLength(const NavMesh& mesh, const NavLink& link);

} // namespace shallot

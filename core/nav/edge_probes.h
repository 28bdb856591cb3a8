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
// shared parts of edge e of polygon p) to mesh.links; mesh.grid must be filled.
void addProbeLinks(const BspTree& tree, NavMesh& mesh, const std::vector<std::vector<EdgeIntervals>>& covered);

} // namespace shallot

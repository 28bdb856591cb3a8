#pragma once
#include "compile/bsp_tree.h"

#include <iosfwd>

namespace shallot {

// A readable dump of a tree for debugging. Numbers are printed with %.17g so they read
// back exactly. Layout:
//   tree: 3 poses, 8 planes, 3 nodes, 4 leaves, 5 polygons
//   bounds (-64 -64 -64) (64 64 64)
//   pose 0 point box (0 0 0) (0 0 0) colour ff8040ff
//   planes used by nodes:
//     plane 0 (1 0 0 0)
//   tree:
//   node 0 plane 0 (1 0 0 0)                  children indented by depth, front first
//     leaf 1 solid {player,large} empty {point} polys 2 point (8 0 0) clearance 8 volume 512 depth 1
//       poly 0 plane 1 pose player brush 3 (x y z) (x y z) ...
// A malformed tree (bad references, cycles) is printed as far as possible, never followed
// out of range or around a cycle.
void dumpTreeText(const BspTree& tree, std::ostream& out);

} // namespace shallot

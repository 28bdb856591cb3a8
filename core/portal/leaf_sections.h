#pragma once
// What a 2D view at a working depth shows of a tree's leaves: the plane x[axis] = at cut
// into the leaves' regions the way the tree's descent cuts space, so that the regions
// tile the plane and each point of it is drawn in the colour of the leaf a query there
// finds.
#include "compile/bsp_tree.h"
#include "geometry/polygon.h"

#include <vector>

namespace shallot {

struct LeafSection {
    int32_t leaf = 0;
    Polygon polygon; // on the plane, counter-clockwise seen from its +axis side
};

// The regions of the leaves on the plane x[axis] = at within the tree's box (treeBox).
// They tile the box's section: a point of it lies in the region of the leaf solidityAt
// (and classifyPoints) gives it and in no other, up to rounding on the regions' shared
// edges. A point on a split plane reads that node's front side, so where the plane lies on
// a split plane (a cell face in the plane) each point has one owner: never both cells
// beside the face, never neither. Empty when the plane misses the box.
std::vector<LeafSection> leafSections(const BspTree& tree, int axis, double at);

} // namespace shallot

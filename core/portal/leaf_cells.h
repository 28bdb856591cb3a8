#pragma once
#include "compile/bsp_tree.h"
#include "compile/leaf_cell_list.h"
#include "geometry/convex_polyhedron.h"

#include <functional>
#include <vector>

namespace shallot {

// Tag of a cell face lying on the world box. Every other face is tagged with the id, in
// BspTree::planes, of its outward plane (the split plane of an ancestor, or its flip).
inline constexpr int32_t kWorldBoxFace = -1;

// The box a tree partitions: its bounds, or the default world box when they are unset.
Aabb treeBox(const BspTree& tree);

// What visitCells reports. A node's section is its cell's cross-section on the node's
// split plane (a polygon on planes[node.plane], counter-clockwise seen from its front;
// empty when the plane misses the cell).
struct CellVisitor {
    std::function<void(int32_t node, const ConvexPolyhedron& cell, const Polygon& section)> node;
    std::function<void(int32_t leaf, ConvexPolyhedron&& cell)> leaf;
};

// Visits the nodes and leaves reachable from the root in pre-order, each with its convex
// cell: the tree's box cut by the planes of its ancestors. A child's cell is one half of
// its parent's split by the parent's plane, so the whole descent costs one polyhedron
// split per node. A plane that misses its cell passes the whole cell to one child and an
// empty cell to the other. Iterative, and a node shared by two parents (a malformed tree)
// is visited once, so any tree that passes the .obsp checks is safe.
void visitCells(const BspTree& tree, const CellVisitor& visitor);

// Every leaf's cell, indexed like BspTree::leaves (for the editor and the tests). Leaves
// not reachable from the root, or cut down to nothing, get an empty cell.
LeafCellList leafCells(const BspTree& tree);

} // namespace shallot

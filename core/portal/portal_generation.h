#pragma once
#include "compile/bsp_tree.h"

#include <functional>
#include <string>
#include <vector>

namespace shallot {

// The portals of a tree: for every pair of leaves whose cells share a face (with area at
// least kMinPolygonArea), the polygon they share, tagged with the poses in which both
// leaves are empty; pairs that are solid on one side in every pose get no portal.
//
// Two leaves meet only on the plane of the node that separates them, so each node's
// section on its split plane (see visitCells) is pushed down the node's front subtree,
// split by every plane below that crosses it, and each piece reaching a front leaf is
// pushed down the back subtree the same way: each piece reaching a back leaf is one
// portal. Portals come out grouped by node, in pre-order.
Portals generatePortals(const BspTree& tree);

// Why generatePortals would not give meaningful portals for a tree read from a file (its
// references in range): a node or leaf with two parents (its cell would not be defined),
// or a tree deeper than the compiler ever builds. Empty when fine.
std::string portalGenerationProblem(const BspTree& tree);

// Pushes a polygon lying on a boundary down the tree from `start`, splitting it by every
// node plane that crosses it (within kOnPlaneEpsilon), and calls visit(leaf, piece) for
// each piece reaching a leaf. The leaves wanted are those on the side of the polygon that
// `towards` points to: a piece lying on a node's plane goes to that side's child. Pieces
// below kMinPolygonArea are dropped.
void pushPolygon(const BspTree& tree, ChildRef start, Polygon polygon, const Vec3& towards,
                 const std::function<void(int32_t leaf, Polygon&& piece)>& visit);

// The poses in which both leaves are empty.
uint64_t bothEmptyPoses(const BspTree& tree, int32_t a, int32_t b);

// The portals on `node`'s split plane: its cell section pushed down the front subtree, and
// each piece reaching a front leaf pushed down the back subtree. Appended to `out`.
void appendNodePortals(const BspTree& tree, int32_t node, const Polygon& section, Portals& out);

} // namespace shallot

#pragma once
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "compile/splitter_choice.h"
#include "geometry/convex_polyhedron.h"

#include <functional>
#include <stdexcept>

namespace shallot {

// Trees deeper than this are refused (an error, not a stack overflow).
inline constexpr int kMaxTreeDepth = 2048;

struct TreeTooDeep : std::runtime_error {
    TreeTooDeep() : std::runtime_error("BSP tree exceeds the depth limit of " + std::to_string(kMaxTreeDepth)) {}
};

// What a leaf's solidity is decided from.
struct LeafContext {
    const ConvexPolyhedron* cell; // the leaf's convex cell (only when cells are carried)
    bool reachedFromBack;         // the leaf is on the back side of its parent's splitter
    int depth;
};
// Returns the leaf's solidity bits and may fill the leaf's info (interior point...).
using LeafSolidity = std::function<uint64_t(const LeafContext&, LeafInfo&)>;

struct BuildStats {
    size_t splits = 0;
};

// The recursive BSP compile of Listings 1-2: choose a splitter among the candidate
// polygons, partition, recurse front then back; no candidates left makes a leaf.
// Nodes are numbered in pre-order (children after their parent). With carryCells each
// node's convex cell (the world box cut by the ancestors' planes) is split along, so
// leaves know their exact cell.
BspTree buildBspTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, std::vector<Pose> poses,
                     const Aabb& bounds, bool carryCells, const LeafSolidity& leafSolidity,
                     const SplitterParams& params, const CancelToken* cancel, BuildStats* stats);

} // namespace shallot

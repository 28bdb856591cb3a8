#pragma once
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "compile/leaf_cell_list.h"
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
// Returns the leaf's solidity bits and may fill the leaf's info (interior point...). Called
// from several threads at once when the build has more than one.
using LeafSolidity = std::function<uint64_t(const LeafContext&, LeafInfo&)>;

struct BuildStats {
    size_t splits = 0;
};

// What an incremental rebuild needs to know about a built tree beyond the tree itself.
struct TreeRecord {
    // Node i's support, support[supportFirst[i], supportFirst[i + 1] or the end): the
    // sources of the polygons that lay on its splitter facing its way when it was built.
    std::vector<uint32_t> supportFirst;
    std::vector<PolygonSource> support;
    std::vector<uint16_t> retiredDepth;       // per BspTree::polygons entry
    LeafCellList leafCells;                   // per leaf, when keepCells (cells carried)
    bool keepCells = false;
    std::vector<uint32_t> portalFirst;        // per node: its first portal (node_portals.h)

    size_t supportBegin(size_t node) const { return supportFirst[node]; }
    size_t supportEnd(size_t node) const {
        return node + 1 < supportFirst.size() ? supportFirst[node + 1] : support.size();
    }
};

// The fixed inputs of a build.
struct BuildContext {
    const std::vector<Plane>& planes;
    const LeafSolidity& leafSolidity;
    const SplitterParams& params;
    const CancelToken* cancel;
    bool carryCells;
};


// The recursive BSP compile of Listings 1-2: choose a splitter among the candidate
// polygons, partition, recurse front then back; no candidates left makes a leaf.
// Appends the subtree for `polygons` (inside `cell` when cells are carried) to `tree` in
// pre-order, and to `record` when given; returns its root.
ChildRef buildSubtree(const BuildContext& context, BspTree& tree, TreeRecord* record,
                      std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth,
                      BuildStats* stats);

// A whole tree: buildSubtree from the world box. Nodes are numbered in pre-order, front
// subtree first; leaves come in the order that walk meets them and their polygons in leaf
// order (the incremental update copies subtrees as runs of the arrays and relies on it).
// With carryCells each node's convex cell (the world box cut by the ancestors' planes) is
// split along, so leaves know their exact cell. With threads > 1 the tree is built in
// pieces on a pool of threads (its top nodes one by one, the subtrees below them whole);
// the tree is the same for any thread count.
BspTree buildBspTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, std::vector<Pose> poses,
                     const Aabb& bounds, bool carryCells, const LeafSolidity& leafSolidity,
                     const SplitterParams& params, const CancelToken* cancel, BuildStats* stats, int threads = 1,
                     TreeRecord* record = nullptr);

// One of several trees built together by buildBspTrees.
struct TreeBuildInput {
    std::vector<BuildPolygon> polygons;
    std::vector<Pose> poses;
    bool carryCells = false;
    const LeafSolidity* leafSolidity = nullptr;
    BuildStats* stats = nullptr;  // optional
    TreeRecord* record = nullptr; // optional
};

// Trees over the same planes and world box built at once, as buildBspTree builds each: with
// threads > 1 their pieces share one pool of threads, so one tree's top splits (which
// cannot be shared out) overlap other trees' subtrees.
std::vector<BspTree> buildBspTrees(std::vector<TreeBuildInput> inputs, const std::vector<Plane>& planes,
                                   const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel,
                                   int threads);

} // namespace shallot

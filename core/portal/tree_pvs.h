#pragma once
// The potentially visible set of a compiled tree's own leaves, in the form an .obsp stores
// and the runtime answers from (issue #39, part 4): the sight pose's map-tree leaves are
// clusters (cluster_visibility.h), each leaf of the tree lists the clusters its cell
// overlaps, and the clusters' PVS (potentially_visible_set.h) says which see which. Leaf B
// is visible from leaf A when a cluster of B is in the PVS of a cluster of A.
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "portal/potentially_visible_set.h"
#include "world/brush.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shallot {

// What the computation found, kept with the sets (shallot-cli info shows it).
struct TreePvsFigures {
    bool fullFlow = true;        // false: the base flow only (--fast)
    bool leaks = false;          // no inside: every empty cluster is in reach of the void
    double averageVisible = 0.0; // clusters in the PVS of a cluster inside, on average
    uint32_t largestVisible = 0; // and at most
    double ms = 0.0;             // the whole computation, map tree and clusters included
    bool operator==(const TreePvsFigures&) const = default;
};

struct TreePvs {
    int pose = 0; // the tree's pose the sets are for (the sight pose)
    TreePvsFigures figures;
    std::vector<uint32_t> firstCluster; // per leaf of the tree, its first entry in `clusters`; one more at the end
    std::vector<int32_t> clusters;
    PotentiallyVisibleSet clusterPvs;

    size_t leafCount() const { return firstCluster.empty() ? 0 : firstCluster.size() - 1; }
    size_t clusterCount() const { return clusterPvs.leafCount(); }
    std::span<const int32_t> clustersOf(int32_t leaf) const {
        return {clusters.data() + firstCluster[size_t(leaf)], firstCluster[size_t(leaf) + 1] - firstCluster[size_t(leaf)]};
    }
    // Leaf `to` of the tree may be seen from leaf `from` (both in range).
    bool visible(int32_t from, int32_t to) const;
    bool operator==(const TreePvs&) const = default;
};

// Why `pvs` does not fit `tree` (leaf count, pose, cluster indices), or empty.
std::string treePvsProblem(const TreePvs& pvs, const BspTree& tree);

struct TreePvsSettings {
    bool fullFlow = true;
    int threads = 1;
    const CancelToken* cancel = nullptr;
};

struct TreePvsResult {
    std::optional<TreePvs> pvs; // set on success
    std::string error;          // no sight pose, or the map tree did not compile
    PvsStats stats;             // of the clusters' PVS
    size_t clusterLeaves = 0;   // leaves of the sight pose's map tree
    double compileMs = 0.0, clusterMs = 0.0;
};

// The PVS of `tree`'s leaves for its sight pose (sightPose: the point pose at the
// reference point): the sight pose's map tree is compiled from `brushes` (the world `tree`
// was compiled from, or the brushes an .obsp keeps), its portals generated, its PVS
// computed and the tree's leaves given their clusters. A leaking level gets the PVS
// computePvs gives it: every leaf in reach of the void sees every other (figures.leaks).
// Throws CompileCancelled.
TreePvsResult computeTreePvs(const BspTree& tree, const std::vector<Brush>& brushes, const TreePvsSettings& settings);

} // namespace shallot

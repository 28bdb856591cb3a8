#pragma once
// The PVS narrowing the bounce's receivers (the seeds' radiosity: "the PVS choosing who
// receives"). A patch pair is left out, neither looked at nor tested, when no leaf around
// the sender's centre sees a leaf around the receiver's: in the PVS's own form (tree_pvs.h,
// cluster_visibility.h), when no cluster of those leaves sees another. The PVS is
// conservative: a segment clear for its pose joins leaves in each other's PVS
// (potentially_visible_set.h), so a pair left out is one whose segment test would have found
// it blocked, and the bounce's light is exactly what it is without the PVS; only work drops.
//
// "Around" a patch centre: the leaves of the tree the occluder traces whose cells meet the
// box of half-size kBounceLeafReach about it and that are empty for the PVS's pose. A
// centre lies on its face, between the solid leaf behind and the empty leaf (or leaves, where
// split planes pass through it) in front; the first stretch of any clear segment from it
// runs through one of those empty leaves. A centre with no empty leaf around it (inside solid,
// or not inside the tree's box by kBounceLeafReach) is never skipped.
#include "compile/bsp_tree.h"
#include "portal/potentially_visible_set.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace shallot {

struct TreePvs;
class SightPvs;

// Half the side of the box about a patch centre whose leaves are the patch's (world units):
// fifty times the trace's start-solid nudge (kStartSolidNudge, within which a start in solid
// counts as on the surface) and the PVS's clip margin (kPvsClipMargin), far below a luxel's
// 16 units: every leaf a clear segment from the centre may start in, and a few more.
inline constexpr double kBounceLeafReach = 0.05;

class BouncePvs {
public:
    using ClustersOf = std::function<std::span<const int32_t>(int32_t)>;
    // `tree` is the tree the bounce's occluder traces and `pose` the occluder's pose (the PVS
    // is for that pose's solid); `clustersOf(leaf)`: the clusters leaf `leaf` of `tree`
    // overlaps; `clusterPvs`: which clusters see which. Kept by reference (and copied).
    BouncePvs(const BspTree& tree, int pose, ClustersOf clustersOf, const PotentiallyVisibleSet& clusterPvs)
        : tree_(tree), pose_(pose), clustersOf_(std::move(clustersOf)), clusterPvs_(clusterPvs) {}
    // The PVS an .obsp stores or computeTreePvs gives (`pvs` is for `tree`, kept by reference).
    static BouncePvs of(const BspTree& tree, const TreePvs& pvs);
    // The editor's sight PVS (`pvs` computed on `tree`, the onion tree; kept by reference).
    static BouncePvs of(const BspTree& tree, const SightPvs& pvs);

    // The leaves around `centre` (see above): empty for the pose, in index order.
    std::vector<int32_t> leavesAround(const Vec3& centre) const;
    // The clusters of those leaves, in index order (empty: nothing known).
    std::vector<int32_t> clustersAround(const Vec3& centre) const;
    // One bit per cluster: those `clusters` may see (empty when `clusters` is).
    std::vector<uint64_t> seenFrom(const std::vector<int32_t>& clusters) const;
    // May a segment join a point around `clusters` to one around the clusters `seen` was
    // made from? True when either is empty (nothing known: never skipped).
    static bool mayReach(const std::vector<uint64_t>& seen, const std::vector<int32_t>& clusters) {
        if (seen.empty() || clusters.empty()) return true;
        for (const int32_t c : clusters)
            if ((seen[size_t(c) / 64] >> (size_t(c) % 64)) & 1u) return true;
        return false;
    }

private:
    const BspTree& tree_;
    int pose_;
    ClustersOf clustersOf_;
    const PotentiallyVisibleSet& clusterPvs_;
};

} // namespace shallot

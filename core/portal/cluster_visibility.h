#pragma once
// What a leaf of the onion tree sees, from the PVS of the sight pose's map tree
// (potentially_visible_set.h): the map tree's leaves are the onion's clusters, as Quake 2
// clusters leaves split only by detail. An onion leaf belongs to every cluster its cell
// overlaps (usually one; two or more where the onion cuts across a map-tree boundary), and
// onion leaf B is visible from A when a cluster of B is in the PVS of a cluster of A:
// conservative whenever the clusters' PVS is.
#include "compile/bsp_tree.h"
#include "portal/potentially_visible_set.h"

#include <cstdint>
#include <span>
#include <vector>

namespace shallot {

// A cell crosses a map-tree plane only when it reaches more than this past it on both
// sides; a cell lying within this of the plane on one side goes on through the other
// (touching a cluster along a face, it is not in it), one thinner than this across the
// plane goes down both. Far above the rounding of cell vertices (kHullClipEpsilon); a point
// of an onion leaf within this of a cluster boundary is seen as from the leaf's side.
inline constexpr double kClusterOverlap = 1e-3;

// Per leaf of the onion (`leaves`), the clusters (leaves of `clusters`) its cell overlaps.
class LeafClusters {
public:
    LeafClusters(const BspTree& leaves, const BspTree& clusters);

    size_t leafCount() const { return first_.size() - 1; }
    std::span<const int32_t> clustersOf(int32_t leaf) const {
        return {clusters_.data() + first_[size_t(leaf)], first_[size_t(leaf) + 1] - first_[size_t(leaf)]};
    }

private:
    std::vector<uint32_t> first_;   // per onion leaf, its first entry in clusters_ (one more at the end)
    std::vector<int32_t> clusters_;
};

// The clusters of `leaves` whose whole cell is solid for `pose` of `leaves`: no leaf empty for
// it overlaps them. Only a tree of fewer brushes than `leaves` (the structural ones) has them:
// a structural cluster filled with detail. No segment clear for the pose passes through one,
// so the flow may treat them as solid, as ericw-tools' vis does (a cluster is solid when all
// of its leaves are).
std::vector<bool> filledClusters(const BspTree& leaves, int pose, const LeafClusters& map, size_t clusterCount);

class ClusterVisibility {
public:
    // `clusterPvs` is the PVS of the clusters `map` names (it outlives this object).
    ClusterVisibility(LeafClusters map, const PotentiallyVisibleSet& clusterPvs);
    ClusterVisibility(const BspTree& leaves, const BspTree& clusters, const PotentiallyVisibleSet& clusterPvs)
        : ClusterVisibility(LeafClusters(leaves, clusters), clusterPvs) {}

    size_t leafCount() const { return map_.leafCount(); }
    // The clusters (leaves of the map tree) leaf `leaf` of the onion overlaps.
    std::span<const int32_t> clustersOf(int32_t leaf) const { return map_.clustersOf(leaf); }
    bool visible(int32_t from, int32_t to) const;
    // Per onion leaf, whether it is visible from `from`.
    std::vector<bool> visibleFrom(int32_t from) const;

private:
    const PotentiallyVisibleSet& pvs_;
    LeafClusters map_;
};

} // namespace shallot

#pragma once
// What each leaf of a compiled world's onion tree may see: the PVS of its sight pose
// (leaf_visibility.h: the first point pose, the eye), computed on that pose's own map tree
// (potentially_visible_set.h) whose leaves are the onion's clusters (cluster_visibility.h),
// with each leaf's view weight: how many brush faces the eye may see from it (Quake's
// "wpoly", which mappers chase with r_speeds).
#include "compile/compiler.h"
#include "portal/cluster_visibility.h"
#include "portal/potentially_visible_set.h"
#include "portal/pvs_update.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shallot {

struct SightPvsSettings {
    // false: the base flow only (fast, looser); with a full flow in `previous`, the
    // provisional PVS (pvs_update.h: that flow's sets where the edit left their walks alone,
    // narrowed base sets through it) to show while the full flow is updated.
    bool fullFlow = true;
    // Per brush of the world: a detail brush (func_detail, Quake 2's detail contents). The
    // clusters are then the leaves of the sight pose's tree of the other brushes alone, as
    // Quake 2's vis flows through structural brushes: detail splits no cluster and adds no
    // portal, and since fewer brushes block less the PVS stays conservative. Empty: none.
    std::vector<bool> detail;
    int threads = 1;
    const CancelToken* cancel = nullptr;
    // The PVS of an earlier compile of the same world (before an edit): its flows are kept
    // where the edit cannot change them (updatePvs, pvs_update.h), with the same answer.
    std::shared_ptr<const class SightPvs> previous;
};

class SightPvs {
public:
    // The PVS of `compiled`'s sight pose, for the onion leaves of compiled.onion, and the
    // view weights of the brushes of `world` (the world compiled). Throws CompileCancelled;
    // nothing (and `error` says why) when the world has no sight pose.
    static std::shared_ptr<const SightPvs> compute(const CompileResult& compiled, const World& world,
                                                   const SightPvsSettings& settings, std::string* error = nullptr);

    SightPvs(const SightPvs&) = delete;
    SightPvs& operator=(const SightPvs&) = delete;

    int pose() const { return pose_; }
    bool fullFlow() const { return fullFlow_; }
    // Not a full flow, but the previous full flow's sets wherever the edit left their walks
    // alone and narrowed base sets elsewhere (provisionalPvs): nearly the full flow, conservative.
    bool provisional() const { return provisional_; }
    const PvsStats& stats() const { return stats_; }
    // Whether detail brushes were left out of the clusters (settings.detail named some).
    bool detailClustered() const { return detailClustered_; }
    // Of those clusters, how many detail fills (filledClusters in cluster_visibility.h): solid
    // for the flow, as in ericw-tools' vis.
    size_t filledClusters() const { return filledClusters_; }
    // Milliseconds to compute it all (portals, flow, clusters, weights).
    double milliseconds() const { return milliseconds_; }
    // Whether it was updated from settings.previous, and what the update kept.
    bool updated() const { return updated_; }
    const PvsUpdateStats& updateStats() const { return updateStats_; }
    const BspTree& clusterTree() const { return clusters_; }
    const PotentiallyVisibleSet& clusterPvs() const { return pvs_; }
    const ClusterVisibility& onion() const { return *onion_; }
    // Per onion leaf, whether it is in the PVS of onion leaf `from` (all false for a leaf
    // solid for the sight pose).
    std::vector<bool> visibleFrom(int32_t from) const { return onion_->visibleFrom(from); }
    // Per onion leaf: the faces of the brushes near the clusters it may see (0 for leaves
    // solid for the sight pose and for those only in clusters in reach of the void).
    const std::vector<uint32_t>& viewWeight() const { return viewWeight_; }
    // Over the clusters empty for the sight pose and out of reach of the void (where an
    // eye goes): their count, their average and largest PVS in clusters and view weight.
    struct Figures {
        size_t leaves = 0;
        double averageLeaves = 0, averageWeight = 0;
        size_t largestLeaves = 0, largestWeight = 0;
    };
    const Figures& figures() const { return figures_; }
    // Per cluster: its view weight (0 for solid ones and those in reach of the void) and
    // its cell's bounds.
    const std::vector<uint32_t>& clusterWeight() const { return clusterWeight_; }
    const std::vector<Aabb>& clusterBounds() const { return clusterBounds_; }
    // The clusters whose view weight exceeds `limit`, heaviest first, at most `count`.
    std::vector<int32_t> heaviestClusters(uint32_t limit, size_t count) const;

private:
    SightPvs() = default;

    int pose_ = -1;
    bool fullFlow_ = true;
    bool provisional_ = false;
    bool detailClustered_ = false;
    size_t filledClusters_ = 0;
    PvsStats stats_;
    double milliseconds_ = 0;
    bool updated_ = false;
    PvsUpdateStats updateStats_;
    // What the flow found, for the update after the next edit (waves by key: localWaves).
    PvsFlowRecord flow_;
    BspTree clusters_;
    PotentiallyVisibleSet pvs_;
    std::optional<ClusterVisibility> onion_; // refers to pvs_: the object never moves
    std::vector<uint32_t> viewWeight_;
    std::vector<uint32_t> clusterWeight_;
    std::vector<Aabb> clusterBounds_;
    Figures figures_;
};

} // namespace shallot

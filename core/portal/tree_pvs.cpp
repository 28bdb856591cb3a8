#include "portal/tree_pvs.h"

#include "compile/stopwatch.h"
#include "portal/cluster_visibility.h"
#include "portal/leaf_visibility.h"
#include "portal/sight_map_tree.h"

namespace shallot {

bool TreePvs::visible(int32_t from, int32_t to) const {
    for (const int32_t a : clustersOf(from))
        for (const int32_t b : clustersOf(to))
            if (clusterPvs.visible(a, b)) return true;
    return false;
}

std::string treePvsProblem(const TreePvs& pvs, const BspTree& tree) {
    if (pvs.pose < 0 || size_t(pvs.pose) >= tree.poses.size()) return "PVS pose out of range";
    if (!tree.poses[size_t(pvs.pose)].isPoint()) return "PVS pose is not a point";
    if (pvs.firstCluster.empty() || pvs.leafCount() != tree.leafCount()) return "PVS leaf count differs from the tree's";
    if (pvs.firstCluster.front() != 0 || pvs.firstCluster.back() != pvs.clusters.size())
        return "PVS cluster lists do not cover their entries";
    for (size_t leaf = 0; leaf + 1 < pvs.firstCluster.size(); ++leaf)
        if (pvs.firstCluster[leaf] > pvs.firstCluster[leaf + 1]) return "PVS cluster lists out of order";
    for (const int32_t c : pvs.clusters)
        if (c < 0 || size_t(c) >= pvs.clusterCount()) return "PVS cluster index out of range";
    return {};
}

TreePvsResult computeTreePvs(const BspTree& tree, const std::vector<Brush>& brushes, const TreePvsSettings& settings) {
    TreePvsResult out;
    const int sight = sightPose(tree);
    if (sight < 0) {
        out.error = "no pose is a point at the reference point (what the eye sees)";
        return out;
    }
    Stopwatch total, clock;
    // The sight pose alone: its map tree is what the PVS is computed on (docs/visibility.md).
    std::optional<BspTree> compiled =
        compileSightMapTree(brushes, tree.poses[size_t(sight)], tree.bounds, settings.threads, settings.cancel, &out.error);
    if (!compiled) return out;
    const BspTree& map = *compiled;
    out.compileMs = clock.lapMs();

    PvsSettings pvsSettings;
    pvsSettings.fullFlow = settings.fullFlow;
    pvsSettings.threads = settings.threads;
    pvsSettings.cancel = settings.cancel;
    TreePvs pvs;
    pvs.pose = sight;
    pvs.clusterPvs = computePvs(map, pvsSettings, &out.stats);
    clock.lapMs();

    const ClusterVisibility clusters(tree, map, pvs.clusterPvs);
    pvs.firstCluster.reserve(tree.leafCount() + 1);
    pvs.firstCluster.push_back(0);
    for (size_t leaf = 0; leaf < tree.leafCount(); ++leaf) {
        const std::span<const int32_t> of = clusters.clustersOf(int32_t(leaf));
        pvs.clusters.insert(pvs.clusters.end(), of.begin(), of.end());
        pvs.firstCluster.push_back(uint32_t(pvs.clusters.size()));
    }
    out.clusterMs = clock.lapMs();
    out.clusterLeaves = map.leafCount();
    pvs.figures = {settings.fullFlow, out.stats.emptyLeaves == out.stats.outsideLeaves, out.stats.averageVisible,
                   uint32_t(out.stats.largestVisible),
                   total.lapMs()};
    out.pvs = std::move(pvs);
    return out;
}

} // namespace shallot

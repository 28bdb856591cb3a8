#include "compile/map_tree.h"

namespace shallot {

uint64_t mapTreeLeafSolidity(const LeafContext& context, LeafInfo&) { return context.reachedFromBack ? 1u : 0u; }

std::vector<BspTree> buildMapTrees(std::vector<std::vector<BuildPolygon>> polygonsPerPose,
                                   const std::vector<Plane>& planes, const std::vector<Pose>& poses,
                                   const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel,
                                   int threads, std::vector<TreeRecord*> records) {
    const LeafSolidity lastSide = mapTreeLeafSolidity;
    std::vector<TreeBuildInput> inputs(polygonsPerPose.size());
    for (size_t p = 0; p < inputs.size(); ++p) {
        inputs[p].polygons = std::move(polygonsPerPose[p]);
        inputs[p].poses = {poses[p]};
        inputs[p].leafSolidity = &lastSide;
        inputs[p].record = p < records.size() ? records[p] : nullptr;
    }
    return buildBspTrees(std::move(inputs), planes, bounds, params, cancel, threads);
}

} // namespace shallot

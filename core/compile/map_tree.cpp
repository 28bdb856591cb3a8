#include "compile/map_tree.h"

namespace shallot {

uint64_t mapTreeLeafSolidity(const LeafContext& context, LeafInfo&) { return context.reachedFromBack ? 1u : 0u; }

BspTree buildMapTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, const Pose& pose,
                     const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel, BuildStats* stats,
                     int threads, TreeRecord* record) {
    const LeafSolidity lastSide = mapTreeLeafSolidity;
    return buildBspTree(std::move(polygons), planes, {pose}, bounds, false, lastSide, params, cancel, stats, threads,
                        record);
}

} // namespace shallot

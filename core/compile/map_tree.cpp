#include "compile/map_tree.h"

namespace shallot {

BspTree buildMapTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, const Pose& pose,
                     const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel, BuildStats* stats) {
    const LeafSolidity lastSide = [](const LeafContext& ctx, LeafInfo&) -> uint64_t {
        return ctx.reachedFromBack ? 1u : 0u;
    };
    return buildBspTree(std::move(polygons), planes, {pose}, bounds, false, lastSide, params, cancel, stats);
}

} // namespace shallot

#include "compile/onion_tree.h"

#include "compile/leaf_interior_point.h"
#include "geometry/tolerances.h"

#include <chrono>

namespace shallot {

uint64_t mapTreeSolidity(const std::vector<BspTree>& mapTrees, const Vec3& point) {
    uint64_t bits = 0;
    for (size_t k = 0; k < mapTrees.size(); ++k)
        if (mapTrees[k].isSolid(point, 0)) bits |= uint64_t(1) << k;
    return bits;
}

uint64_t OnionLeafSolidity::operator()(const LeafContext& context, LeafInfo& info) {
    const auto start = std::chrono::steady_clock::now();
    const ConvexPolyhedron& cell = *context.cell;
    if (cell.empty()) {
        // Only an empty world box gets here: no volume, nothing can be inside.
        info.degenerate = true;
        return 0;
    }
    const InteriorPoint p = leafInteriorPoint(cell);
    info.interiorPoint = p.point;
    info.clearance = p.clearance;
    info.volume = cell.volume();
    info.degenerate = p.clearance < kDegenerateCellRadius;
    const uint64_t bits = mapTreeSolidity(mapTrees_, p.point);
    nanoseconds_ += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    return bits;
}

BspTree buildOnionTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes,
                       const std::vector<Pose>& poses, const std::vector<BspTree>& mapTrees, const Aabb& bounds,
                       const SplitterParams& params, const CancelToken* cancel, BuildStats* stats,
                       double* solidityMs, int threads, TreeRecord* record) {
    OnionLeafSolidity solidity(mapTrees);
    const LeafSolidity classify = [&](const LeafContext& c, LeafInfo& info) { return solidity(c, info); };
    BspTree tree =
        buildBspTree(std::move(polygons), planes, poses, bounds, true, classify, params, cancel, stats, threads, record);
    if (solidityMs) *solidityMs = solidity.milliseconds();
    return tree;
}

} // namespace shallot

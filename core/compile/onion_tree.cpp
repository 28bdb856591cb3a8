#include "compile/onion_tree.h"

#include "compile/leaf_interior_point.h"
#include "geometry/tolerances.h"

#include <chrono>

namespace shallot {

BspTree buildOnionTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes,
                       const std::vector<Pose>& poses, const std::vector<BspTree>& mapTrees, const Aabb& bounds,
                       const SplitterParams& params, const CancelToken* cancel, BuildStats* stats,
                       double* solidityMs) {
    double classifyMs = 0.0;
    const LeafSolidity classify = [&](const LeafContext& ctx, LeafInfo& info) -> uint64_t {
        const auto start = std::chrono::steady_clock::now();
        const ConvexPolyhedron& cell = *ctx.cell;
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
        uint64_t bits = 0;
        for (size_t k = 0; k < mapTrees.size(); ++k)
            if (mapTrees[k].isSolid(p.point, 0)) bits |= uint64_t(1) << k;
        classifyMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return bits;
    };
    BspTree tree = buildBspTree(std::move(polygons), planes, poses, bounds, true, classify, params, cancel, stats);
    if (solidityMs) *solidityMs = classifyMs;
    return tree;
}

} // namespace shallot

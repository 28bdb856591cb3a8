#pragma once
#include "compile/bsp_builder.h"

#include <atomic>

namespace shallot {

// The solidity bits of a point: bit k set when mapTrees[k] says it is solid.
uint64_t mapTreeSolidity(const std::vector<BspTree>& mapTrees, const Vec3& point);

// The onion tree's leaf rule: a point well inside the leaf's cell (leafInteriorPoint) is
// classified in every pose's map tree. Also fills the leaf's interior point, clearance,
// volume and degenerate flag. Safe to call from several threads; counts its time.
class OnionLeafSolidity {
public:
    explicit OnionLeafSolidity(const std::vector<BspTree>& mapTrees) : mapTrees_(mapTrees) {}
    uint64_t operator()(const LeafContext& context, LeafInfo& info);
    double milliseconds() const { return double(nanoseconds_.load()) * 1e-6; }

private:
    const std::vector<BspTree>& mapTrees_;
    std::atomic<int64_t> nanoseconds_{0};
};

// The onion tree (the article's Listings 1-4): one BSP over the expanded-world faces of
// every pose (BuildPolygon::pose says which), with a solidity bit per pose in each leaf
// (OnionLeafSolidity). Each leaf's cell is carried down the build. `solidityMs` receives
// the time spent classifying leaves (summed over threads).
BspTree buildOnionTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes,
                       const std::vector<Pose>& poses, const std::vector<BspTree>& mapTrees, const Aabb& bounds,
                       const SplitterParams& params, const CancelToken* cancel, BuildStats* stats,
                       double* solidityMs, int threads = 1, TreeRecord* record = nullptr);

} // namespace shallot

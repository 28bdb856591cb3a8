#pragma once
#include "compile/bsp_builder.h"

namespace shallot {

// The onion tree (the article's Listings 1-4): one BSP over the expanded-world faces of
// every pose (BuildPolygon::pose says which), with a solidity bit per pose in each leaf.
// Each leaf's cell is carried down the build; a point well inside it (leafInteriorPoint)
// is classified in every pose's map tree to give the leaf's bits. Also fills each leaf's
// interior point, clearance, volume and degenerate flag. `solidityMs` receives the time
// spent classifying leaves.
BspTree buildOnionTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes,
                       const std::vector<Pose>& poses, const std::vector<BspTree>& mapTrees, const Aabb& bounds,
                       const SplitterParams& params, const CancelToken* cancel, BuildStats* stats,
                       double* solidityMs);

} // namespace shallot

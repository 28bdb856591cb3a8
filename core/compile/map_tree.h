#pragma once
#include "compile/bsp_builder.h"

namespace shallot {

// A pose's map tree: an ordinary solid/empty BSP over the faces of its expanded world.
// Every face is used as a splitter, so a leaf's solidity is the side of its parent's
// splitter it lies on: behind (inside the union) is solid.
// Every pose's map tree, built together (see buildBspTrees): polygonsPerPose[p] (pose 0 in
// each) gives poses[p]'s tree, with records[p] filled when records is given.
std::vector<BspTree> buildMapTrees(std::vector<std::vector<BuildPolygon>> polygonsPerPose,
                                   const std::vector<Plane>& planes, const std::vector<Pose>& poses,
                                   const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel,
                                   int threads, std::vector<TreeRecord*> records = {});

// The leaf solidity rule of map trees.
uint64_t mapTreeLeafSolidity(const LeafContext& context, LeafInfo& info);

} // namespace shallot

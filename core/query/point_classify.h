#pragma once
#include "compile/bsp_tree.h"

#include <cstdint>
#include <span>

namespace shallot {

// Points walked down the tree together by classifyPoints.
inline constexpr int kClassifyLanes = 16;

// out[i] = tree.solidityAt(points[i]) for every i (out.size() == points.size()), the same
// answers as one by one. A lone descent waits on a cache miss at almost every node; here
// kClassifyLanes points descend in lockstep, so each lane's loads overlap the others' and a
// lane that reaches its leaf takes the next point at once.
void classifyPoints(const BspTree& tree, std::span<const Vec3> points, std::span<uint64_t> out);

} // namespace shallot

#pragma once
#include "compile/bsp_tree.h"
#include "query/point_locator.h"

#include <cstdint>
#include <span>

namespace shallot {

// Points walked down the tree together by classifyPoints. More lanes keep more descents'
// loads in flight: on id_e1m1 8 lanes gave 18.6 M/s, 16 gave 20.9 M, 32 gave 24.3 M and
// 64 gave 25.5 M (scratch harness, 2026-11-24).
inline constexpr int kClassifyLanes = 64;

// out[i] = tree.solidityAt(points[i]) for every i (out.size() == points.size()), the same
// answers as one by one. A lone descent waits on a cache miss at almost every node; here
// kClassifyLanes points descend in rounds, one level per lane per round, so the lanes'
// loads overlap, and a lane that reaches its leaf takes the next point.
void classifyPoints(const BspTree& tree, std::span<const Vec3> points, std::span<uint64_t> out);
// The same, each point's descent started in its cell of the locator (query/point_locator.h).
void classifyPoints(const PointLocator& locator, std::span<const Vec3> points, std::span<uint64_t> out);

} // namespace shallot

#pragma once
// Where a leak leaves the level: the opening a designer must close.
#include "compile/bsp_tree.h"

#include <optional>
#include <span>
#include <vector>

namespace shallot {

struct LeakHole {
    std::vector<uint32_t> portals; // the open portals that make up the opening
    Aabb box;                      // their bounds
};

// The opening through which a leak path (Flood::leakPortals) leaves the level. The level's
// inside is given by points in it (the starts and the level's point entities); the
// openings are the open portals of least total area whose closing would seal every inside
// point from the world box (a minimum cut over the pose's open portals, with their areas
// as capacities). Doorways between rooms that hold points are never cut, and the void
// around a level, which wraps all of it, is far larger than a hole, so the cut lies in the
// level's shell. The hole is the connected group of cut portals (touching within
// kHoleTouchDistance) holding the first portal where the path crosses the cut. Inside
// points in solid, or in a leaf touching the world box, are left out. Nothing when the
// path crosses no cut (no path, or no usable inside point).
std::optional<LeakHole> leakHole(const BspTree& tree, int pose, std::span<const Vec3> inside,
                                 std::span<const uint32_t> pathPortals);

// Cut portals whose bounds come this close are one opening (portals of one hole are split
// by the tree's planes and share edges up to rounding).
inline constexpr double kHoleTouchDistance = 1e-3;

} // namespace shallot

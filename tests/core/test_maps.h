#pragma once
// Levels the core tests read (sample maps, the shared Quake maps) and where an eye can
// stand in a compiled one.
#include "compile/bsp_tree.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "portal/reachability.h"
#include "random_world.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace shallot::test {

// The world of a .map file; a file that does not read fails the test and gives no world.
inline World loadMap(const std::string& path) {
    const MapReadResult r = readMapFile(path);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? worldFromMap(*r.map) : World{};
}

enum class EyesIn { Rooms, Void };

// Leaves empty for the point pose (pose 0) with room for an eye (clearance above a unit):
// in the level's rooms, or in the void around the level (reached from the world box).
inline std::vector<int32_t> eyeLeaves(const BspTree& t, EyesIn where) {
    const std::vector<bool> outside = reachableFromOutside(t, 0);
    std::vector<int32_t> leaves;
    for (size_t leaf = 0; leaf < t.leafCount(); ++leaf)
        if (!(t.leafSolid[leaf] & 1u) && outside[leaf] == (where == EyesIn::Void) && t.leaves[leaf].clearance > 1.0)
            leaves.push_back(int32_t(leaf));
    return leaves;
}

// A random point in the cube of half-edge `halfExtent` around the origin, empty for the
// point pose (pose 0): an eye in a random world. The cube must hold some empty space.
inline Vec3 randomEmptyPoint(Rng& rng, const BspTree& t, double halfExtent) {
    for (;;) {
        const Vec3 p(uniform(rng, -halfExtent, halfExtent), uniform(rng, -halfExtent, halfExtent),
                     uniform(rng, -halfExtent, halfExtent));
        if (!t.isSolid(p, 0)) return p;
    }
}

} // namespace shallot::test

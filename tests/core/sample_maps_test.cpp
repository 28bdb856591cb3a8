// The sample worlds shipped in maps/ and the real Quake levels in ../shared/maps.
#include "brute_force.h"
#include "test_maps.h"
#include "test_scale.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

uint64_t bitsAt(const BspTree& tree, const Vec3& p) { return tree.solidityAt(p); }

// Poses nested inside each other: a leaf solid for a smaller box is solid for the bigger
// one (true when no clip brush blocks only some of them).
void expectNestedPosesMonotonic(const BspTree& tree, int smaller, int bigger) {
    for (size_t leaf = 0; leaf < tree.leafCount(); ++leaf) {
        const uint64_t bits = tree.leafSolid[leaf];
        if ((bits >> smaller) & 1u) {
            EXPECT_TRUE((bits >> bigger) & 1u) << "leaf " << leaf;
        }
    }
}

Aabb brushBounds(const World& w) {
    Aabb box;
    for (const Brush& b : w.brushes)
        if (const auto g = buildBrushGeometry(b, w.bounds).geometry) box.add(g->bounds);
    return box;
}

} // namespace

TEST(SampleMaps, Figure1RoomsAndCorridor) {
    const World w = loadMap(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
    ASSERT_EQ(w.brushes.size(), 14u);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.problems.empty());
    const BspTree& t = r.onion;
    EXPECT_EQ(bitsAt(t, Vec3(400, 300, 100)), 0u);  // lower room: empty for every pose
    EXPECT_EQ(bitsAt(t, Vec3(400, 500, 100)), 0u);  // corridor (200 wide)
    EXPECT_EQ(bitsAt(t, Vec3(400, 700, 100)), 0u);  // upper room
    EXPECT_EQ(bitsAt(t, Vec3(192, 300, 100)), 0b111u); // inside the west wall
    EXPECT_EQ(bitsAt(t, Vec3(210, 300, 100)), 0b110u); // 10 from the wall: player and large touch it
    EXPECT_EQ(bitsAt(t, Vec3(225, 300, 100)), 0b100u); // 25 from the wall: only large reaches it
    EXPECT_EQ(bitsAt(t, Vec3(240, 300, 100)), 0u);     // 40 from the wall: none
    EXPECT_EQ(bitsAt(t, Vec3(400, 300, 20)), 0b110u);  // 20 above the floor: boxes reach 24 down
    EXPECT_EQ(bitsAt(t, Vec3(5000, 5000, 5000)), 0u);  // the void outside is empty
    expectNestedPosesMonotonic(t, 0, 1);
    expectNestedPosesMonotonic(t, 1, 2);
    Rng rng(1);
    expectTreesMatchBruteForce(w, r, rng, 3000, Vec3(150, 150, -50), Vec3(650, 850, 300));
}

TEST(SampleMaps, LowTunnelLetsCrouchThroughButNotStand) {
    const World w = loadMap(SHALLOT_SAMPLE_MAPS "/low_tunnel.map");
    ASSERT_EQ(w.poses.size(), 3u);
    EXPECT_EQ(w.poses[1].name, "stand");
    EXPECT_EQ(w.poses[2].name, "crouch");
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.problems.empty());
    const BspTree& t = r.onion;
    // Standing on the tunnel floor (reference point 24 above it): crouch's box reaches
    // z = 33 < 48, stand's z = 57 > 48.
    for (double x : {270.0, 320.0, 370.0}) EXPECT_EQ(bitsAt(t, Vec3(x, 128, 25)), 0b010u) << x;
    EXPECT_EQ(bitsAt(t, Vec3(128, 128, 100)), 0u);  // room A
    EXPECT_EQ(bitsAt(t, Vec3(512, 128, 100)), 0u);  // room B
    EXPECT_EQ(bitsAt(t, Vec3(320, 50, 25)), 0b111u); // inside the block beside the tunnel
    // Some leaves differ between crouch and stand (the tunnel) and none is solid for
    // crouch but empty for stand (crouch's box is inside stand's).
    size_t crouchOnly = 0;
    for (uint64_t bits : t.leafSolid) crouchOnly += (bits & 0b110u) == 0b010u;
    EXPECT_GT(crouchOnly, 0u);
    expectNestedPosesMonotonic(t, 2, 1);
    expectNestedPosesMonotonic(t, 0, 2);
    Rng rng(2);
    expectTreesMatchBruteForce(w, r, rng, 3000, Vec3(-50, -50, -50), Vec3(700, 300, 250));
}

// Every shared Quake level (games/ holds other games': game_levels_test; of ericw-tools'
// test levels in ericw_testmaps/, the Quake 2 and Half-Life ones are skipped here) compiles
// with the three hulls, no brush rejected, and point answers match Quake's hull semantics
// (brute force over every brush).
TEST(SharedMaps, CompileAndMatchQuakeHullSemantics) {
    const std::filesystem::path dir(SHALLOT_SHARED_MAPS);
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
    std::vector<std::filesystem::path> maps;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.path().extension() == ".map" && e.path().parent_path().filename() != "games") maps.push_back(e.path());
    std::sort(maps.begin(), maps.end());
    ASSERT_GE(maps.size(), 9u);
    test::keepScaledShare(maps);
    Rng rng(3);
    for (const auto& path : maps) {
        SCOPED_TRACE(path.string());
        const MapReadResult read = readMapFile(path.string());
        ASSERT_TRUE(read.ok()) << read.error.format();
        if (read.map->game != Game::Quake) continue;
        const World w = worldFromMap(*read.map);
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(w, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        for (const BrushProblem& p : r.problems) ADD_FAILURE() << p.message;
        EXPECT_EQ(r.onion.poses.size(), 3u);
        expectNestedPosesMonotonic(r.onion, 1, 2);
        const Aabb box = brushBounds(w);
        expectTreesMatchBruteForce(w, r, rng, 400, box.mins, box.maxs);
    }
}

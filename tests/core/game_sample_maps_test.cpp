// The sample levels of other games in maps/ (scripts/make_sample_maps.py) and their known
// answers: which pose each clip wall stops, classified and traced per pose.
#include "brute_force.h"
#include "io/patch_mesh.h"
#include "query/trace.h"
#include "test_maps.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

int poseNamed(const BspTree& t, const std::string& name) {
    const int index = t.poseIndex(name);
    EXPECT_GE(index, 0) << name;
    return index;
}

// Where pose `name`'s box, swept along +x at (y, z) from x 64 to x 496, first stops.
double stopX(const BspTree& t, const std::string& name, double y, double z) {
    const TraceResult r = traceSegment(t, poseNamed(t, name), Vec3(64, y, z), Vec3(496, y, z));
    EXPECT_FALSE(r.startSolid) << name;
    return r.hit ? 64 + r.t * 432 : 496;
}

} // namespace

TEST(GameSampleMaps, Quake2PlayerClipStopsPlayersMonsterClipStopsMonstersShotsPassBoth) {
    const MapReadResult read = readMapFile(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    EXPECT_EQ(read.map->game, Game::Quake2);
    const World w = worldFromMap(*read.map);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.problems.empty());
    const BspTree& t = r.onion;
    ASSERT_EQ(t.poses.size(), 4u); // point, player, crouch, monster
    // Inside the player clip wall, then inside the monster clip wall (bits in pose order).
    EXPECT_EQ(t.solidityAt(Vec3(168, 256, 100)), 0b0110u);
    EXPECT_EQ(t.solidityAt(Vec3(344, 256, 100)), 0b1000u);
    EXPECT_EQ(t.solidityAt(Vec3(250, 256, 100)), 0u);
    // Boxes stop 16 before the wall that blocks them (z 40: clear of floor and ceiling).
    EXPECT_NEAR(stopX(t, "player", 256, 40), 144, 1e-6);
    EXPECT_NEAR(stopX(t, "crouch", 256, 40), 144, 1e-6);
    EXPECT_NEAR(stopX(t, "monster", 256, 40), 320, 1e-6);
    EXPECT_NEAR(stopX(t, "point", 256, 40), 496, 1e-6); // shots pass both, to the end
    Rng rng(32);
    expectTreesMatchBruteForce(w, r, rng, 2000, Vec3(-32, -32, -32), Vec3(544, 544, 288));
}

TEST(GameSampleMaps, HalfLifeClipStopsHullsNotPointsCrawlspaceLetsTheHeadHullThrough) {
    const MapReadResult read = readMapFile(SHALLOT_SAMPLE_MAPS "/hl_clip_room.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    EXPECT_EQ(read.map->game, Game::HalfLife);
    const World w = worldFromMap(*read.map);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.problems.empty());
    const BspTree& t = r.onion;
    ASSERT_EQ(t.poses.size(), 4u); // point, human, large, head
    EXPECT_EQ(t.solidityAt(Vec3(168, 256, 100)), 0b1110u);           // in CLIP: the hulls, not the point
    EXPECT_EQ(t.solidityAt(Vec3(296, 256, 100)), 0u);                // func_illusionary: nobody
    EXPECT_EQ(t.solidityAt(Vec3(416, 256, 19)) & 0b1010u, 0b0010u);  // crawlspace: human stuck, head free
    EXPECT_NEAR(stopX(t, "human", 256, 36), 144, 1e-6);
    EXPECT_NEAR(stopX(t, "point", 256, 36), 496, 1e-6); // through the clip wall and the crawlspace
    EXPECT_NEAR(stopX(t, "point", 256, 100), 400, 1e-6); // above the crawlspace: its wall
    // The head hull, a unit above the floor, crawls through to the east wall.
    const TraceResult head = traceSegment(t, poseNamed(t, "head"), Vec3(200, 256, 19), Vec3(480, 256, 19));
    EXPECT_FALSE(head.startSolid);
    EXPECT_FALSE(head.hit);
    Rng rng(33);
    expectTreesMatchBruteForce(w, r, rng, 2000, Vec3(-32, -32, -32), Vec3(544, 544, 288));
}

TEST(GameSampleMaps, Quake3PlayerClipStopsPlayersBotClipNobodyThePatchIsDrawnNotCollided) {
    const MapReadResult read = readMapFile(SHALLOT_SAMPLE_MAPS "/q3_patch_room.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    EXPECT_EQ(read.map->game, Game::Quake3);
    EXPECT_TRUE(read.map->quake3Brushes);
    // One warning for the file: its patch is left out of collision.
    ASSERT_EQ(read.map->warnings.size(), 1u);
    EXPECT_NE(read.map->warnings[0].message.find("1 patches (patchDef) kept and written back, but left out of collision"),
              std::string::npos);
    // The patch: a 3 x 5 arch whose top (y 256) is at z 192, its feet on the floor.
    ASSERT_EQ(read.map->entities[0].patches.size(), 1u);
    const PatchParseResult arch = parsePatchDef(read.map->entities[0].patches[0]);
    ASSERT_TRUE(arch.ok()) << arch.error.message;
    EXPECT_EQ(arch.patch->width, 3);
    EXPECT_EQ(arch.patch->height, 5);
    const PatchMesh mesh = tessellatePatch(*arch.patch);
    EXPECT_EQ(mesh.bounds.mins, Vec3(208, 64, 0));
    EXPECT_EQ(mesh.bounds.maxs, Vec3(288, 448, 192));
    EXPECT_EQ(mesh.at(8, 8), Vec3(288, 256, 192));

    const World w = worldFromMap(*read.map);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.problems.empty());
    const BspTree& t = r.onion;
    ASSERT_EQ(t.poses.size(), 3u); // point, player, crouch
    EXPECT_EQ(t.solidityAt(Vec3(168, 256, 100)), 0b110u); // common/playerclip: player and crouch
    EXPECT_EQ(t.solidityAt(Vec3(344, 256, 100)), 0u);     // common/botclip: no pose of Quake 3's
    EXPECT_EQ(t.solidityAt(Vec3(432, 256, 32)), 0u);      // the trigger: an entity's, not the world's
    for (const Vec3& p : mesh.vertices) {                 // on the patch: nothing is solid
        if (p.z() > 8 && p.z() < 192) {
            EXPECT_EQ(t.solidityAt(p), 0u) << p.transpose();
        }
    }
    EXPECT_NEAR(stopX(t, "player", 256, 40), 145, 1e-6); // Quake 3's player is 30 wide
    EXPECT_NEAR(stopX(t, "crouch", 256, 40), 145, 1e-6);
    EXPECT_NEAR(stopX(t, "point", 256, 40), 496, 1e-6);
    // Up through the arch's top: nothing stops a shot at z 192.
    const TraceResult up = traceSegment(t, poseNamed(t, "point"), Vec3(248, 256, 100), Vec3(248, 256, 250));
    EXPECT_FALSE(up.hit);
    Rng rng(34);
    expectTreesMatchBruteForce(w, r, rng, 2000, Vec3(-32, -32, -32), Vec3(544, 544, 288));
}

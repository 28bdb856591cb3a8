// The bounce narrowed by the PVS (light/bounce_pvs.h): on random lit rooms split by walls
// (with or without doorways, pillars and a slanted block), the bounce with the PVS (base flow
// and full flow, the .obsp's form and the editor's sight PVS) is the bounce without it, luxel
// for luxel; the PVS only drops segment tests (no more than the pairs it skips), and walls that
// close a room off drop some.
#include "light_level.h"

#include "light/bounce.h"
#include "portal/sight_pvs.h"
#include "portal/tree_pvs.h"

#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

double snap8(double v) { return std::round(v / 8) * 8; }

struct SplitRoom {
    std::string text;
    int closedWalls = 0; // dividing walls without a doorway
};

// A room [0, W] x [0, D] x [0, H] with 16-unit walls, cut across x by 1-3 walls (each with a
// doorway or closed), a pillar or two, a slanted block, and lights in random places.
SplitRoom randomSplitRoom(Rng& rng, bool allClosed) {
    const double w = snap8(uniform(rng, 480, 768)), d = snap8(uniform(rng, 192, 384)), h = snap8(uniform(rng, 128, 224));
    const std::vector<std::string> p{"0 0 0 1 1", "7 3 0 1 1", "0 5 45 0.5 1"};
    SplitRoom out;
    std::ostringstream m;
    m << "{\n\"classname\" \"worldspawn\"\n";
    m << boxBrushText({-16, -16, -16}, {w + 16, d + 16, 0}, "floor", p);
    m << boxBrushText({-16, -16, h}, {w + 16, d + 16, h + 16}, "ceiling", p);
    m << boxBrushText({-16, -16, 0}, {0, d + 16, h}, "wall", p);
    m << boxBrushText({w, -16, 0}, {w + 16, d + 16, h}, "wall", p);
    m << boxBrushText({0, -16, 0}, {w, 0, h}, "wall", p);
    m << boxBrushText({0, d, 0}, {w, d + 16, h}, "wall", p);
    const int walls = 1 + int(rng() % 3);
    for (int i = 0; i < walls; ++i) {
        // Wall i in the i-th of `walls` equal slices of the room, away from its ends.
        const double slice = w / walls;
        const double x = snap8(uniform(rng, i * slice + 48, (i + 1) * slice - 64));
        if (allClosed || rng() % 2) {
            m << boxBrushText({x, 0, 0}, {x + 16, d, h}, "divider", p);
            ++out.closedWalls;
            continue;
        }
        const double y0 = snap8(uniform(rng, 16, d - 80)), gap = snap8(uniform(rng, 32, 64)), top = snap8(uniform(rng, 48, h - 16));
        m << boxBrushText({x, 0, 0}, {x + 16, y0, h}, "divider", p);
        m << boxBrushText({x, y0 + gap, 0}, {x + 16, d, h}, "divider", p);
        m << boxBrushText({x, y0, top}, {x + 16, y0 + gap, h}, "divider", p);
    }
    for (int i = 0, n = 1 + int(rng() % 2); i < n; ++i) {
        const Vec3 lo(snap8(uniform(rng, 16, w - 64)), snap8(uniform(rng, 16, d - 64)), 0);
        const Vec3 size(snap8(uniform(rng, 16, 48)), snap8(uniform(rng, 16, 48)), snap8(uniform(rng, 32, h)));
        m << boxBrushText(lo, lo + size, "pillar", p);
    }
    // A wedge with a sloped top: faces off the axes, centres off the split planes' grid.
    const double rx = snap8(uniform(rng, 16, w - 112)), ry = snap8(uniform(rng, 16, d - 64));
    m << "{\n( " << rx << " " << ry << " 0 ) ( " << rx << " " << ry + 48 << " 0 ) ( " << rx << " " << ry << " 1 ) ramp 0 0 0 1 1\n";
    m << "( " << rx << " " << ry << " 0 ) ( " << rx << " " << ry << " 1 ) ( " << rx + 1 << " " << ry << " 0 ) ramp 0 0 0 1 1\n";
    m << "( " << rx << " " << ry + 48 << " 0 ) ( " << rx + 1 << " " << ry + 48 << " 0 ) ( " << rx << " " << ry + 48
      << " 1 ) ramp 0 0 0 1 1\n";
    m << "( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) ramp 0 0 0 1 1\n";
    m << "( " << rx << " " << ry << " 56 ) ( " << rx << " " << ry + 1 << " 56 ) ( " << rx + 96 << " " << ry
      << " 0 ) ramp 0 0 0 1 1\n}\n";
    m << "}\n";
    for (int i = 0, n = 2 + int(rng() % 4); i < n; ++i) {
        const Vec3 o(uniform(rng, 4, w - 4), uniform(rng, 4, d - 4), uniform(rng, 8, h - 8));
        m << "{\n\"classname\" \"light\"\n\"origin\" \"" << o.x() << " " << o.y() << " " << o.z() << "\"\n\"light\" \""
          << int(uniform(rng, 200, 600)) << "\"\n";
        if (rng() % 3 == 0) m << "\"_color\" \"" << int(rng() % 256) << " " << int(rng() % 256) << " " << int(rng() % 256) << "\"\n";
        m << "}\n";
    }
    out.text = m.str();
    return out;
}

struct Bounced {
    LevelLighting lit;
    BounceStats stats;
};

void expectSameLight(const LevelLighting& a, const LevelLighting& b, const std::string& what) {
    ASSERT_EQ(a.lightmaps.size(), b.lightmaps.size());
    size_t differ = 0;
    for (size_t f = 0; f < a.lightmaps.size(); ++f) {
        ASSERT_EQ(a.lightmaps[f].styles.size(), b.lightmaps[f].styles.size());
        for (size_t s = 0; s < a.lightmaps[f].styles.size(); ++s) {
            differ += a.lightmaps[f].styles[s].light != b.lightmaps[f].styles[s].light;
            differ += a.lightmaps[f].styles[s].rgb != b.lightmaps[f].styles[s].rgb;
        }
    }
    EXPECT_EQ(differ, 0u) << what;
}

TEST(LightBouncePvs, SameLightFewerRays) {
    Rng rng(4102);
    size_t savedOnClosed = 0, closedLevels = 0;
    for (int level = 0; level < 16; ++level) {
        const bool allClosed = level % 4 == 3;
        const SplitRoom room = randomSplitRoom(rng, allClosed);
        const LitLevel lit = readLevel(room.text);
        World shadow = lit.world;
        shadow.poses = {lit.world.poses[size_t(pointPoseIndex(lit.world.poses))]};
        const CompileResult compiled = compileWorld(shadow);
        ASSERT_TRUE(compiled.error.empty()) << compiled.error;
        const LevelLighting direct = lightLevelInTree(lightInput(lit), compiled.onion, 0, 2);
        const SkyFaces sky(lit.world.brushes, lit.world.bounds);
        const TreeOccluder occluder(compiled.onion, 0, sky);
        const int bounces = 1 + level % 2;

        LevelLighting plain = direct;
        const BounceStats without = addBounce(plain, occluder, bounces, 2);
        ASSERT_GT(without.rays, 100u) << room.text;
        EXPECT_EQ(without.pairsSkippedByPvs, 0u);

        TreePvsSettings settings;
        settings.fullFlow = level % 2 == 0;
        const TreePvsResult pvs = computeTreePvs(compiled.onion, shadow.brushes, settings);
        ASSERT_TRUE(pvs.pvs) << pvs.error;
        ASSERT_EQ(pvs.pvs->pose, 0);
        const BouncePvs narrowing = BouncePvs::of(compiled.onion, *pvs.pvs);
        LevelLighting narrowed = direct;
        const BounceStats with = addBounce(narrowed, occluder, bounces, 2, &narrowing);
        expectSameLight(plain, narrowed, "level " + std::to_string(level) + "\n" + room.text);
        EXPECT_LE(with.rays, without.rays) << "level " << level;
        EXPECT_LE(without.rays - with.rays, with.pairsSkippedByPvs) << "level " << level;
        if (room.closedWalls > 0) {
            ++closedLevels;
            savedOnClosed += with.pairsSkippedByPvs > 0;
            EXPECT_LT(with.rays, without.rays) << "level " << level << ": a closed wall saves nothing\n" << room.text;
        }

        if (level < 2) { // the editor's form: the sight PVS of the compiled world
            const std::shared_ptr<const SightPvs> sight = SightPvs::compute(compiled, shadow, SightPvsSettings{});
            ASSERT_TRUE(sight);
            const BouncePvs editorNarrowing = BouncePvs::of(compiled.onion, *sight);
            LevelLighting viaSight = direct;
            const BounceStats s = addBounce(viaSight, occluder, bounces, 2, &editorNarrowing);
            expectSameLight(plain, viaSight, "sight PVS, level " + std::to_string(level));
            EXPECT_LE(s.rays, without.rays);
            EXPECT_LE(without.rays - s.rays, s.pairsSkippedByPvs);
        }
    }
    EXPECT_GE(closedLevels, 2u);
    EXPECT_EQ(savedOnClosed, closedLevels);
}

// Two rooms that share only a wall: no pair across it is tested; the light of a room with
// no light of its own stays dark, with or without the PVS.
TEST(LightBouncePvs, ClosedWallSkipsEveryPairAcrossIt) {
    const std::vector<std::string> p{"0 0 0 1 1"};
    std::string m = "{\n\"classname\" \"worldspawn\"\n";
    m += boxBrushText({-16, -16, -16}, {528, 272, 0}, "floor", p);
    m += boxBrushText({-16, -16, 160}, {528, 272, 176}, "ceiling", p);
    m += boxBrushText({-16, -16, 0}, {0, 272, 160}, "wall", p);
    m += boxBrushText({512, -16, 0}, {528, 272, 160}, "wall", p);
    m += boxBrushText({0, -16, 0}, {512, 0, 160}, "wall", p);
    m += boxBrushText({0, 256, 0}, {512, 272, 160}, "wall", p);
    m += boxBrushText({248, 0, 0}, {264, 256, 160}, "divider", p);
    m += "}\n{\n\"classname\" \"light\"\n\"origin\" \"100 128 120\"\n\"light\" \"500\"\n}\n";
    m += "{\n\"classname\" \"light\"\n\"origin\" \"400 128 120\"\n\"light\" \"300\"\n}\n";
    const LitLevel lit = readLevel(m);
    World shadow = lit.world;
    shadow.poses = {lit.world.poses[size_t(pointPoseIndex(lit.world.poses))]};
    const CompileResult compiled = compileWorld(shadow);
    const LevelLighting direct = lightLevelInTree(lightInput(lit), compiled.onion, 0, 2);
    const SkyFaces sky(lit.world.brushes, lit.world.bounds);
    const TreeOccluder occluder(compiled.onion, 0, sky);
    LevelLighting plain = direct, narrowed = direct;
    const BounceStats without = addBounce(plain, occluder, 1, 2);
    const TreePvsResult pvs = computeTreePvs(compiled.onion, shadow.brushes, TreePvsSettings{});
    ASSERT_TRUE(pvs.pvs) << pvs.error;
    const BouncePvs narrowing = BouncePvs::of(compiled.onion, *pvs.pvs);
    const BounceStats with = addBounce(narrowed, occluder, 1, 2, &narrowing);
    expectSameLight(plain, narrowed, "two rooms");
    EXPECT_LE(without.rays - with.rays, with.pairsSkippedByPvs);
    // The pairs across the divider (floor of one room, ceiling of the other) are skipped.
    EXPECT_GT(with.pairsSkippedByPvs, 0u);
    EXPECT_LT(with.rays, without.rays);
    // A patch centre in solid (behind the floor) or outside the tree has no clusters: never skipped.
    EXPECT_TRUE(narrowing.clustersAround(Vec3(100, 100, -8)).empty());
    EXPECT_TRUE(narrowing.clustersAround(Vec3(1e6, 0, 0)).empty());
    const std::vector<int32_t> left = narrowing.clustersAround(Vec3(100, 100, 0)), right = narrowing.clustersAround(Vec3(400, 100, 0));
    ASSERT_FALSE(left.empty());
    ASSERT_FALSE(right.empty());
    EXPECT_TRUE(BouncePvs::mayReach({}, right));
    EXPECT_TRUE(BouncePvs::mayReach(narrowing.seenFrom(left), {}));
    EXPECT_FALSE(BouncePvs::mayReach(narrowing.seenFrom(left), right));
    EXPECT_FALSE(BouncePvs::mayReach(narrowing.seenFrom(right), left));
    EXPECT_TRUE(BouncePvs::mayReach(narrowing.seenFrom(left), narrowing.clustersAround(Vec3(200, 200, 160))));
}

} // namespace

#include "compile/compiler.h"
#include "brute_force.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

TEST(OnionTree, SingleBoxAllPoses) {
    World w;
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    w.poses = quakePoses();
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty());
    EXPECT_TRUE(r.problems.empty());
    EXPECT_TRUE(r.onion.isSolid(Vec3(32, 32, 32), 0));
    EXPECT_FALSE(r.onion.isSolid(Vec3(-1, 32, 32), 0));
    EXPECT_TRUE(r.onion.isSolid(Vec3(-15, 32, 32), 1));   // player box reaches 16 units
    EXPECT_FALSE(r.onion.isSolid(Vec3(-17, 32, 32), 1));
    EXPECT_TRUE(r.onion.isSolid(Vec3(32, 32, 87), 2));    // large box: mins z -24
    EXPECT_FALSE(r.onion.isSolid(Vec3(32, 32, 89), 2));
    EXPECT_TRUE(r.onion.isSolid(Vec3(32, 32, -63), 2));   // maxs z 64
    EXPECT_FALSE(r.onion.isSolid(Vec3(32, 32, -65), 2));
}

TEST(OnionTree, EmptyWorldIsEmptyEverywhere) {
    World w;
    w.poses = quakePoses();
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty());
    EXPECT_EQ(r.onion.leafCount(), 1u);
    EXPECT_EQ(r.onion.solidityAt(Vec3(1, 2, 3)), 0u);
}

TEST(OnionTree, InvalidBrushesAreReportedAndSkipped) {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    w.brushes.push_back(Brush::fromPlanes({{Vec3::UnitX(), 1}, {Vec3::UnitY(), 1}, {Vec3::UnitZ(), 1}}));
    w.brushes.back().source = {"test.map", 42, 0, 1};
    const CompileResult r = compileWorld(w);
    ASSERT_EQ(r.problems.size(), 1u);
    EXPECT_EQ(r.problems[0].brush, 1);
    EXPECT_NE(r.problems[0].message.find("test.map:42: brush 1 of entity 0"), std::string::npos) << r.problems[0].message;
    EXPECT_TRUE(r.onion.isSolid(Vec3(32, 32, 32), 0));
}

TEST(OnionTree, RandomWorldsMatchBruteForce) {
    Rng rng(2024);
    for (int world = 0; world < 6; ++world) {
        SCOPED_TRACE(world);
        const World w = randomWorld(rng, 60 + 40 * world, 300, 3);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_TRUE(r.problems.empty()) << r.problems[0].message;
        expectTreesMatchBruteForce(w, r, rng, 1500, 380);
    }
}

TEST(OnionTree, DenseOverlappingWorldMatchesBruteForce) {
    Rng rng(99);
    const World w = randomWorld(rng, 300, 120, 4);
    CompileOptions options;
    options.threads = 2;
    const CompileResult r = compileWorld(w, options);
    ASSERT_TRUE(r.error.empty()) << r.error;
    expectTreesMatchBruteForce(w, r, rng, 3000, 160);
}

TEST(OnionTree, CompileIsDeterministicAcrossThreadCounts) {
    Rng rng(5);
    const World w = randomWorld(rng, 120, 200, 3);
    CompileOptions one, two;
    two.threads = 2;
    const CompileResult a = compileWorld(w, one), b = compileWorld(w, two);
    ASSERT_EQ(a.onion.nodes.size(), b.onion.nodes.size());
    EXPECT_EQ(a.onion.leafSolid, b.onion.leafSolid);
}

TEST(OnionTree, CancelTokenStopsTheCompile) {
    Rng rng(3);
    const World w = randomWorld(rng, 50, 200, 2);
    CancelToken token;
    token.cancelled = true;
    CompileOptions options;
    options.cancel = &token;
    EXPECT_THROW(compileWorld(w, options), CompileCancelled);
}

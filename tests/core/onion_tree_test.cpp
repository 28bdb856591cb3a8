#include "compile/compile_state.h"
#include "compile/compiler.h"
#include "brute_force.h"
#include "same_tree.h"
#include "test_scale.h"

#include <gtest/gtest.h>

#include <atomic>

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
    for (int world = 0; world < test::scaledCount(6); ++world) {
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

// The pooled build (pieces taken largest first, map trees sharing the threads) gives the
// one-thread trees node for node, with 2 and 3 threads.
TEST(OnionTree, CompileIsDeterministicAcrossThreadCounts) {
    Rng rng(5);
    const World w = randomWorld(rng, 120, 200, 3);
    const CompileResult one = compileWorld(w);
    for (int threads : {2, 3}) {
        SCOPED_TRACE(threads);
        CompileOptions options;
        options.threads = threads;
        const CompileResult many = compileWorld(w, options);
        expectSameTree(one.onion, many.onion);
        ASSERT_EQ(one.mapTrees.size(), many.mapTrees.size());
        for (size_t p = 0; p < one.mapTrees.size(); ++p) expectSameTree(one.mapTrees[p], many.mapTrees[p]);
        EXPECT_EQ(one.onion.portals.size(), many.onion.portals.size());
    }
}

// With the lookahead on, the trees answer like brute force and the pooled build still gives
// the one-thread tree. The last world looks ahead from the root: there the pooled build's
// pieces start without the counts an ancestor's lookahead passed down in one thread, so the
// counts passed down must be the ones a node would count itself.
TEST(OnionTree, LookaheadTreesMatchBruteForceWithAnyThreadCount) {
    Rng rng(606);
    for (int world = 0; world < 3; ++world) {
        SCOPED_TRACE(world);
        const bool fromRoot = world == 2;
        const World w = randomWorld(rng, fromRoot ? 14 : 60 + 20 * world, 300, 3);
        CompileOptions options;
        options.splitter.lookaheadBelow = fromRoot ? 1'000'000 : 16 + 24 * size_t(world);
        options.splitter.lookaheadCandidates = 2 + size_t(world);
        const CompileResult one = compileWorld(w, options);
        ASSERT_TRUE(one.error.empty()) << one.error;
        expectTreesMatchBruteForce(w, one, rng, 1500, 380);
        options.threads = 2;
        expectSameTree(one.onion, compileWorld(w, options).onion);
    }
}

// An error in one piece of a pooled build (here a leaf's solidity, on whichever thread
// meets it) stops the build and reaches the caller; the other threads do not hang.
TEST(OnionTree, PooledBuildPassesOnAnErrorFromAnyThread) {
    Rng rng(11);
    const World w = randomWorld(rng, 120, 200, 3);
    CompileState state;
    CompileResult result;
    compileFromScratch(w, {}, KeptState::ForUpdates, state, result);
    std::atomic<int> leaves{0};
    const LeafSolidity failing = [&](const LeafContext&, LeafInfo&) -> uint64_t {
        if (++leaves == 200) throw std::runtime_error("leaf 200");
        return 0;
    };
    std::vector<TreeBuildInput> inputs(w.poses.size());
    for (size_t p = 0; p < inputs.size(); ++p) {
        appendBuildPolygons(state.perPose[p], 0, inputs[p].polygons);
        inputs[p].poses = {w.poses[p]};
        inputs[p].leafSolidity = &failing;
    }
    EXPECT_THROW(buildBspTrees(std::move(inputs), state.pool.planes(), w.bounds, {}, nullptr, 2), std::runtime_error);
    EXPECT_GE(leaves.load(), 200);
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

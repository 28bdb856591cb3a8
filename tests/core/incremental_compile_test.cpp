// IncrementalCompiler: after random edits its result answers like a compile from scratch
// of the edited world, and its portals are exactly those of its own tree.
#include "brute_force.h"
#include "incremental/incremental_compiler.h"
#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"
#include "same_tree.h"
#include "test_maps.h"
#include "test_scale.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

Brush translated(Brush b, const Vec3& t) {
    for (BrushSide& s : b.sides) {
        s.plane.dist += s.plane.normal.dot(t);
        for (Vec3& p : s.points) p += t;
    }
    return b;
}

// Moves one side of the brush out (or in) by `amount`.
Brush resized(Brush b, size_t side, double amount) {
    b.sides[side % b.sides.size()].plane.dist += amount;
    return b;
}

// A random single-brush edit: a move (most of the time), a resize, a deletion or a new brush.
void randomEdit(World& w, Rng& rng, double spread) {
    const size_t i = size_t(rng() % w.brushes.size());
    switch (rng() % 8) {
    case 0: w.brushes[i] = resized(w.brushes[i], size_t(rng()), uniform(rng, -8, 8)); break;
    case 1: w.brushes.erase(w.brushes.begin() + std::ptrdiff_t(i)); break;
    case 2: {
        const Vec3 c(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread));
        w.brushes.insert(w.brushes.begin() + std::ptrdiff_t(i), randomBrush(rng, c, uniform(rng, 8, 48), BrushShape(rng() % 5)));
        break;
    }
    default: w.brushes[i] = translated(w.brushes[i], Vec3(uniform(rng, -24, 24), uniform(rng, -24, 24), uniform(rng, -8, 8)));
    }
}

// Both trees of both results agree at `points` random points in [lo, hi] away from every
// boundary (brute force says where those are), and with the brute force itself.
void expectSameAnswers(const World& w, const CompileResult& incremental, const CompileResult& fresh, Rng& rng,
                       int points, const Vec3& lo, const Vec3& hi) {
    const BruteForce brute(w);
    int compared = 0;
    for (int i = 0; i < points; ++i) {
        const Vec3 p(uniform(rng, lo.x(), hi.x()), uniform(rng, lo.y(), hi.y()), uniform(rng, lo.z(), hi.z()));
        for (size_t pose = 0; pose < w.poses.size(); ++pose) {
            const std::optional<bool> expected = brute.solid(p, pose);
            if (!expected) continue;
            ++compared;
            ASSERT_EQ(incremental.onion.isSolid(p, int(pose)), *expected) << "onion, pose " << pose << " at " << p.transpose();
            ASSERT_EQ(incremental.mapTrees[pose].isSolid(p, 0), *expected) << "map tree " << pose << " at " << p.transpose();
            ASSERT_EQ(fresh.onion.isSolid(p, int(pose)), *expected) << "fresh onion at " << p.transpose();
        }
    }
    EXPECT_GT(compared, points * int(w.poses.size()) / 2);
}

void expectPortalsOfItsTree(const BspTree& tree) {
    const Portals expected = generatePortals(tree);
    ASSERT_EQ(tree.portals.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        const Portal &a = tree.portals[i], &b = expected[i];
        ASSERT_EQ(a.front, b.front) << "portal " << i;
        ASSERT_EQ(a.back, b.back) << "portal " << i;
        ASSERT_EQ(a.plane, b.plane) << "portal " << i;
        ASSERT_EQ(a.poses, b.poses) << "portal " << i;
        ASSERT_TRUE(std::ranges::equal(tree.portals.vertices(a), expected.vertices(b))) << "portal " << i;
    }
}

void expectConsistentTree(const CompileResult& r) {
    const BspTree& t = r.onion;
    ASSERT_EQ(t.leafSolid.size(), t.leaves.size());
    size_t polygons = 0;
    for (const LeafInfo& l : t.leaves) {
        ASSERT_EQ(l.firstPolygon, polygons);
        polygons += l.polygonCount;
    }
    ASSERT_EQ(polygons, t.polygons.size());
    for (size_t n = 0; n < t.nodes.size(); ++n)
        for (ChildRef c : {t.nodes[n].front, t.nodes[n].back})
            if (!isLeaf(c)) {
                ASSERT_GT(size_t(c), n) << "children come after their parent";
            }
}

} // namespace

// compileWorld keeps no state for updates (it frees the union faces early and records no
// supports); its trees are the same, bit for bit, as those of a compile that keeps it all.
TEST(IncrementalCompile, FirstCompileIsTheCompileFromScratch) {
    Rng rng(11);
    const World w = randomWorld(rng, 120, 250, 3);
    const CompileResult fresh = compileWorld(w);
    for (bool keepCells : {false, true}) {
        SCOPED_TRACE(keepCells);
        IncrementalCompiler compiler(keepCells);
        const std::shared_ptr<const CompileResult> first = compiler.compile(w);
        EXPECT_FALSE(first->stats.incremental);
        expectSameTree(first->onion, fresh.onion);
        expectSamePortals(first->onion, fresh.onion);
        ASSERT_EQ(first->mapTrees.size(), fresh.mapTrees.size());
        for (size_t p = 0; p < fresh.mapTrees.size(); ++p) expectSameTree(first->mapTrees[p], fresh.mapTrees[p]);
        EXPECT_EQ(first->stats.polygonsPerPose, fresh.stats.polygonsPerPose);
    }
}

TEST(IncrementalCompile, RandomEditsOnRandomWorldsAnswerLikeAFreshCompile) {
    Rng rng(2025);
    for (int world = 0; world < 3; ++world) {
        SCOPED_TRACE("world " + std::to_string(world));
        const double spread = 200 + 50 * world;
        World w = randomWorld(rng, 80 + 30 * world, spread, 2);
        IncrementalCompiler compiler;
        compiler.compile(w);
        for (int edit = 0; edit < test::scaledCount(8); ++edit) {
            SCOPED_TRACE("edit " + std::to_string(edit));
            randomEdit(w, rng, spread);
            const CompileResult r = *compiler.compile(w);
            ASSERT_TRUE(r.error.empty()) << r.error;
            EXPECT_TRUE(r.stats.incremental);
            const CompileResult fresh = compileWorld(w);
            EXPECT_EQ(r.problems.size(), fresh.problems.size());
            expectConsistentTree(r);
            expectSameAnswers(w, r, fresh, rng, 400, Vec3::Constant(-spread - 60), Vec3::Constant(spread + 60));
            expectPortalsOfItsTree(r.onion);
        }
    }
}

// Subtrees rebuilt by an update look ahead as a compile from scratch does.
TEST(IncrementalCompile, EditsWithLookaheadAnswerLikeAFreshCompile) {
    Rng rng(2026);
    const double spread = 220;
    World w = randomWorld(rng, 70, spread, 2);
    CompileOptions options;
    options.splitter.lookaheadBelow = 32;
    options.splitter.lookaheadCandidates = 3;
    IncrementalCompiler compiler;
    compiler.compile(w, options);
    for (int edit = 0; edit < test::scaledCount(4); ++edit) {
        SCOPED_TRACE("edit " + std::to_string(edit));
        randomEdit(w, rng, spread);
        const CompileResult r = *compiler.compile(w, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_TRUE(r.stats.incremental);
        expectConsistentTree(r);
        expectSameAnswers(w, r, compileWorld(w, options), rng, 400, Vec3::Constant(-spread - 60),
                          Vec3::Constant(spread + 60));
        expectPortalsOfItsTree(r.onion);
    }
}

TEST(IncrementalCompile, SeveralBrushesMovedTogetherAndUndone) {
    Rng rng(77);
    World w = randomWorld(rng, 150, 250, 3);
    const World original = w;
    IncrementalCompiler compiler;
    CompileOptions twoThreads;
    twoThreads.threads = 2;
    const CompileResult first = *compiler.compile(w, twoThreads);
    for (size_t i = 10; i < 20; i += 3) w.brushes[i] = translated(w.brushes[i], Vec3(16, -8, 4));
    CompileResult r = *compiler.compile(w, twoThreads);
    EXPECT_TRUE(r.stats.incremental);
    expectSameAnswers(w, r, compileWorld(w), rng, 1500, Vec3::Constant(-300), Vec3::Constant(300));
    r = *compiler.compile(original, twoThreads);
    EXPECT_TRUE(r.stats.incremental);
    expectSameAnswers(original, r, first, rng, 1500, Vec3::Constant(-300), Vec3::Constant(300));
    expectPortalsOfItsTree(r.onion);
}

TEST(IncrementalCompile, LargeEditsAndNewPosesCompileFromScratch) {
    Rng rng(8);
    World w = randomWorld(rng, 60, 200, 2);
    IncrementalCompiler compiler;
    compiler.compile(w);
    for (size_t i = 0; i < w.brushes.size(); i += 2) w.brushes[i] = translated(w.brushes[i], Vec3(4, 0, 0));
    EXPECT_FALSE(compiler.compile(w)->stats.incremental);
    w.poses.push_back(randomPose(rng, "extra"));
    const CompileResult r = *compiler.compile(w);
    EXPECT_FALSE(r.stats.incremental);
    EXPECT_EQ(r.onion.poses.size(), w.poses.size());
    expectTreesMatchBruteForce(w, r, rng, 500, 260);
}

// Kept splitters were chosen with the old constants: a change of any of them means a tree
// from scratch, which is the one a fresh compile with the new constants gives.
TEST(IncrementalCompile, ChangedSplitterConstantsCompileFromScratch) {
    Rng rng(9);
    const World w = randomWorld(rng, 40, 200, 2);
    const std::vector<void (*)(SplitterParams&)> changes = {
        [](SplitterParams& p) { p.splitWeight *= 2; },       [](SplitterParams& p) { p.balanceWeight *= 2; },
        [](SplitterParams& p) { p.coplanarWeight += 1; },    [](SplitterParams& p) { p.nonAxialFactor += 1; },
        [](SplitterParams& p) { p.maxCandidates += 1; },     [](SplitterParams& p) { p.maxScored += 1; },
        [](SplitterParams& p) { p.axialOnlyAbove += 1; },    [](SplitterParams& p) { p.lookaheadBelow = 32; },
        [](SplitterParams& p) { p.lookaheadCandidates += 1; }, [](SplitterParams& p) { p.balanceFreeDepth += 1; },
        [](SplitterParams& p) { p.balanceDepthStep += 1; },
    };
    for (size_t i = 0; i < changes.size(); ++i) {
        IncrementalCompiler compiler;
        compiler.compile(w);
        CompileOptions changed;
        changes[i](changed.splitter);
        const CompileResult r = *compiler.compile(w, changed);
        EXPECT_FALSE(r.stats.incremental) << "change " << i;
        EXPECT_EQ(r.onion.nodes.size(), compileWorld(w, changed).onion.nodes.size()) << "change " << i;
    }
}

TEST(IncrementalCompile, KeptLeafCellsAreTheTreeCells) {
    Rng rng(5);
    World w = randomWorld(rng, 80, 200, 2);
    IncrementalCompiler compiler(true);
    compiler.compile(w);
    for (int edit = 0; edit < 4; ++edit) {
        randomEdit(w, rng, 200);
        const CompileResult r = *compiler.compile(w);
        const LeafCellList expected = leafCells(r.onion);
        const LeafCellList& cells = compiler.leafCells();
        ASSERT_EQ(cells.size(), expected.size());
        for (size_t i = 0; i < cells.size(); ++i) {
            ASSERT_EQ(cells[i].faces.size(), expected[i].faces.size()) << "leaf " << i;
            EXPECT_NEAR(cells[i].volume(), expected[i].volume(), 1e-6 * (1 + expected[i].volume())) << "leaf " << i;
        }
    }
}

TEST(IncrementalCompile, BrushMovesInIdE1m1AnswerLikeAFreshCompile) {
    const std::string path = std::string(SHALLOT_SHARED_MAPS) + "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
    World w = loadMap(path);
    ASSERT_FALSE(w.brushes.empty());
    Aabb box;
    for (const Brush& b : w.brushes)
        if (const auto g = buildBrushGeometry(b, w.bounds).geometry) box.add(g->bounds);
    Rng rng(42);
    IncrementalCompiler compiler;
    compiler.compile(w);
    for (int edit = 0; edit < 4; ++edit) {
        SCOPED_TRACE("edit " + std::to_string(edit));
        const size_t i = size_t(rng() % w.brushes.size());
        w.brushes[i] = edit % 2 ? resized(w.brushes[i], size_t(rng()), 16)
                                : translated(w.brushes[i], Vec3(uniform(rng, -32, 32), uniform(rng, -32, 32), 0));
        const CompileResult r = *compiler.compile(w);
        ASSERT_TRUE(r.stats.incremental);
        const CompileResult fresh = compileWorld(w);
        expectConsistentTree(r);
        expectSameAnswers(w, r, fresh, rng, 2000, box.mins, box.maxs);
        expectPortalsOfItsTree(r.onion);
    }
}

// The editor keeps showing and querying a result while the next edit is compiled from it:
// an update makes a new result and leaves the one it started from, and any older one still
// held, exactly as they were.
TEST(IncrementalCompile, UpdatesLeaveTheResultsTheyStartedFromAsTheyWere) {
    Rng rng(31);
    World w = randomWorld(rng, 80, 200, 3);
    IncrementalCompiler compiler(true);
    std::vector<std::shared_ptr<const CompileResult>> held{compiler.compile(w)};
    std::vector<CompileResult> copies{*held.back()};
    int updates = 0;
    for (int edit = 0; edit < 6; ++edit) {
        randomEdit(w, rng, 200);
        held.push_back(compiler.compile(w));
        copies.push_back(*held.back());
        updates += held.back()->stats.incremental;
        EXPECT_NE(held.back(), held[held.size() - 2]);
    }
    EXPECT_GT(updates, 3);
    for (size_t i = 0; i < held.size(); ++i) {
        SCOPED_TRACE("result " + std::to_string(i));
        expectSameTree(held[i]->onion, copies[i].onion);
        expectSamePortals(held[i]->onion, copies[i].onion);
        ASSERT_EQ(held[i]->mapTrees.size(), copies[i].mapTrees.size());
        for (size_t p = 0; p < copies[i].mapTrees.size(); ++p) expectSameTree(held[i]->mapTrees[p], copies[i].mapTrees[p]);
    }
}

// onionLeafOfPrevious: a kept leaf is its previous self (same cell, same polygons), kept
// leaves keep their order, and the compile from scratch keeps none.
TEST(IncrementalCompile, KeptLeavesAreThePreviousLeavesInTheirOrder) {
    Rng rng(11);
    World w = randomWorld(rng, 80, 200, 2);
    IncrementalCompiler compiler(true);
    CompileResult previous = *compiler.compile(w);
    EXPECT_TRUE(compiler.onionLeafOfPrevious().empty());
    LeafCellList previousCells = compiler.leafCells();
    int kept = 0, updates = 0;
    for (int edit = 0; edit < 8; ++edit) {
        randomEdit(w, rng, 200);
        CompileResult r = *compiler.compile(w);
        const std::vector<int32_t>& leafOfPrevious = compiler.onionLeafOfPrevious();
        if (!r.stats.incremental) {
            EXPECT_TRUE(leafOfPrevious.empty());
        } else {
            ++updates;
            ASSERT_EQ(leafOfPrevious.size(), previous.onion.leafCount());
            int32_t last = -1;
            for (size_t old = 0; old < leafOfPrevious.size(); ++old) {
                const int32_t now = leafOfPrevious[old];
                if (now < 0) continue;
                ++kept;
                ASSERT_LT(size_t(now), r.onion.leafCount());
                EXPECT_GT(now, last) << "old leaf " << old;
                last = now;
                EXPECT_EQ(compiler.leafCells().share(size_t(now)), previousCells.share(old)) << "old leaf " << old;
                const LeafInfo &a = previous.onion.leaves[old], &b = r.onion.leaves[size_t(now)];
                ASSERT_EQ(a.polygonCount, b.polygonCount);
                for (uint32_t k = 0; k < a.polygonCount; ++k)
                    EXPECT_TRUE(std::ranges::equal(previous.onion.polygons.vertices(a.firstPolygon + k),
                                                   r.onion.polygons.vertices(b.firstPolygon + k)));
            }
        }
        previous = std::move(r);
        previousCells = compiler.leafCells();
    }
    EXPECT_GT(updates, 4);
    EXPECT_GT(kept, 100);
}

TEST(IncrementalCompile, ComposedLeafMapsFollowALeafThroughBothUpdates) {
    const std::vector<int32_t> first{2, -1, 0, 1}, second{-1, 0, 1};
    EXPECT_EQ(composeLeafMaps(first, second), (std::vector<int32_t>{1, -1, -1, 0}));
    EXPECT_TRUE(composeLeafMaps({}, second).empty());
    EXPECT_EQ(composeLeafMaps(first, {}), (std::vector<int32_t>{-1, -1, -1, -1}));
}

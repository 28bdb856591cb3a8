#include "compile/compiler.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// Points closer than this to an expanded brush's boundary are skipped: at a boundary the
// answer depends on which side of a split plane rounding puts the point.
constexpr double kBoundaryMargin = 0.01;

struct BruteForce {
    const World& world;
    std::vector<std::optional<BrushGeometry>> geometry;
    std::vector<std::vector<std::vector<Plane>>> expanded; // [pose][brush]

    explicit BruteForce(const World& w) : world(w) {
        for (const Brush& b : w.brushes) geometry.push_back(buildBrushGeometry(b, w.bounds).geometry);
        expanded.resize(w.poses.size());
        for (size_t p = 0; p < w.poses.size(); ++p)
            for (const auto& g : geometry)
                expanded[p].push_back(g ? expandedPlanes(*g, w.poses[p]) : std::vector<Plane>{});
    }

    // Solidity of p for a pose, or nothing when p is within kBoundaryMargin of a boundary.
    std::optional<bool> solid(const Vec3& p, size_t pose) const {
        bool inside = false;
        for (size_t b = 0; b < geometry.size(); ++b) {
            if (!geometry[b] || !blocks(world.brushes[b], world.poses[pose])) continue;
            double d = -INFINITY;
            for (const Plane& pl : expanded[pose][b]) d = std::max(d, pl.signedDistance(p));
            if (std::abs(d) < kBoundaryMargin) return std::nullopt;
            if (d < 0) {
                EXPECT_TRUE(boxOverlapsBrush(*geometry[b], world.poses[pose], p));
                inside = true;
            }
        }
        return inside;
    }
};

void expectTreesMatchBruteForce(const World& world, const CompileResult& r, Rng& rng, int points, double spread) {
    const BruteForce brute(world);
    int compared = 0;
    for (int i = 0; i < points; ++i) {
        const Vec3 p(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread));
        for (size_t pose = 0; pose < world.poses.size(); ++pose) {
            const std::optional<bool> expected = brute.solid(p, pose);
            if (!expected) continue;
            ++compared;
            ASSERT_EQ(r.onion.isSolid(p, int(pose)), *expected)
                << "onion, pose " << world.poses[pose].name << " at " << p.transpose();
            ASSERT_EQ(r.mapTrees[pose].isSolid(p, 0), *expected)
                << "map tree, pose " << world.poses[pose].name << " at " << p.transpose();
        }
    }
    EXPECT_GT(compared, points * int(world.poses.size()) / 2);
}

} // namespace

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

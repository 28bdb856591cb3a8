// Round poses on id_e1m1: the onion tree in front of the exact tests answers as the exact
// tests alone do (classify; traceTreeFirst and trace), and as brute force does (round_brute_force.h); how many queries the tree
// settles alone.
#include "compile/compiler.h"
#include "query/round_pose_queries.h"
#include "query/round_shape_trace.h"
#include "random_world.h"
#include "round_brute_force.h"
#include "test_maps.h"
#include "world/round_pose_boxes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

using namespace shallot;
using namespace shallot::test;

namespace {

struct RoundLevel {
    World world;
    BspTree tree;
    std::vector<BrushGeometry> blocking; // valid brushes that block a box pose
    Aabb box;
};

RoundLevel roundLevel(const std::string& path, const std::vector<Pose>& round) {
    RoundLevel l;
    l.world = loadMap(path);
    std::vector<Pose> poses = {quakePoses()[0]};
    poses.insert(poses.end(), round.begin(), round.end());
    l.world.poses = treePoses(poses);
    l.tree = compileWorld(l.world).onion;
    for (const Brush& b : l.world.brushes)
        if (auto g = buildBrushGeometry(b, l.world.bounds).geometry) {
            l.box.add(g->bounds);
            if (blocks(b, round[0])) l.blocking.push_back(*g);
        }
    return l;
}

// The least brute-force clearance of the shape at p over the brushes near it.
double bruteWorldClearance(const RoundLevel& l, const PoseShape& s, const Vec3& p) {
    const Vec3 half = boundingHalfExtents(s);
    const Aabb near{p - half - Vec3::Ones(), p + half + Vec3::Ones()}; // touching ones too
    double least = 1.0;
    for (const BrushGeometry& g : l.blocking)
        if (near.overlaps(g.bounds)) least = std::min(least, bruteClearance(g, s, p));
    return least;
}

} // namespace

TEST(RoundPoseLevels, IdE1m1ClassifyTraceAndMoveMatchBruteForce) {
    const std::string path = std::string(SHALLOT_SHARED_MAPS) + "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
    const std::vector<Pose> round = {Pose::round("ellipsoid", PoseShape::ellipsoid(16, 28)),
                                     Pose::round("capsule", PoseShape::capsule(16, 56))};
    const RoundLevel l = roundLevel(path, round);
    ASSERT_FALSE(l.blocking.empty());
    Rng rng(4242);
    for (const Pose& pose : round) {
        SCOPED_TRACE(pose.name);
        const RoundPoseWorld exact(l.world, pose);
        const RoundPoseQueries queries(exact, l.tree);
        const RoundShapeFrame& frame = exact.frame();
        auto randomPoint = [&] {
            return Vec3(uniform(rng, l.box.mins.x(), l.box.maxs.x()), uniform(rng, l.box.mins.y(), l.box.maxs.y()),
                        uniform(rng, l.box.mins.z(), l.box.maxs.z()));
        };
        // Classify: tree + exact == exact alone == brute force (away from touching).
        int solid = 0, checked = 0;
        for (int i = 0; i < 3000; ++i) {
            const Vec3 p = randomPoint();
            const bool answer = queries.isSolid(p);
            EXPECT_EQ(answer, exact.isSolid(p)) << p.transpose();
            if (i % 5) continue;
            const double brute = bruteWorldClearance(l, pose.shape, p);
            if (std::abs(brute) < 2 * kRoundContactBand * frame.shapePerWorld) continue;
            EXPECT_EQ(answer, brute < 0) << p.transpose() << " brute " << brute;
            solid += answer;
            ++checked;
        }
        EXPECT_GT(solid, 50);
        EXPECT_GT(checked - solid, 50);
        // Trace: segments from places empty for the shape, 32 to 512 units long.
        int hits = 0;
        for (int i = 0; i < 600; ++i) {
            Vec3 from = randomPoint();
            while (queries.isSolid(from)) from = randomPoint();
            const Vec3 to = from + uniform(rng, 32, 512) * randomUnit(rng);
            const TraceResult t = queries.traceTreeFirst(from, to), e = queries.trace(from, to);
            SCOPED_TRACE("trace " + std::to_string(i));
            EXPECT_EQ(t.startSolid, e.startSolid);
            ASSERT_EQ(t.hit, e.hit) << from.transpose() << " -> " << to.transpose();
            EXPECT_NEAR(t.t * (to - from).norm(), e.t * (to - from).norm(), 1e-9);
            if (!t.hit || i % 3) continue;
            ++hits;
            // Brute force: touching at the hit, clear at samples before it.
            EXPECT_NEAR(bruteWorldClearance(l, pose.shape, t.point), 0.0, 1e-6) << from.transpose() << " -> " << to.transpose() << " t " << t.t << " normal " << t.normal.transpose();
            for (int k = 0; k < 20; ++k)
                EXPECT_GT(bruteWorldClearance(l, pose.shape, from + (t.t * k / 20) * (to - from)), -1e-9);
        }
        EXPECT_GT(hits, 30);
        // Moves: chains of moves never end inside (brute force).
        Vec3 at = randomPoint();
        while (queries.isSolid(at)) at = randomPoint();
        for (int i = 0; i < 200; ++i) {
            const MoveResult m = queries.move(at, uniform(rng, 16, 256) * randomUnit(rng), 18);
            EXPECT_GE(bruteWorldClearance(l, pose.shape, m.end), -1e-9) << m.end.transpose();
            at = m.end;
        }
        const RoundQueryTally c = queries.classifyTally(), tr = queries.traceTally();
        std::cout << "id_e1m1 " << poseShapeText(pose.shape) << ": the tree settles " << 100 * c.settledShare()
                  << "% of " << c.settled + c.exact << " classifies and " << 100 * tr.settledShare() << "% of "
                  << tr.settled + tr.exact << " traces tree first (classifies of moves included)\n";
        EXPECT_GT(c.settledShare(), 0.5);
        EXPECT_GT(tr.settledShare(), 0.3);
    }
}

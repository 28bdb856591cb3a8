// Portal culling (portal/leaf_visibility.h) against brute force: every point inside the
// view that a segment from the eye reaches through no solid of the point pose must lie in
// a leaf marked seen. On a real level it must also leave most leaves out.
#include "compile/compiler.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/trace.h"
#include "random_world.h"
#include "test_camera.h"
#include "test_maps.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <numbers>

using namespace shallot;
using namespace shallot::test;

namespace {

// A point in view: through a random pixel, at a random distance along its ray.
Vec3 pointInView(Rng& rng, const Camera& c, double maxDistance) {
    const double t = std::tan(kFieldOfViewDegrees * std::numbers::pi / 360.0);
    const Vec3 ray = c.forward + uniform(rng, -1, 1) * t * kAspect * c.right + uniform(rng, -1, 1) * t * c.up;
    return c.eye + ray * uniform(rng, kNear, maxDistance);
}

struct Tally {
    size_t points = 0;
    double seenFraction = 0.0;
    int views = 0;
};

// Eyes in empty space looking every way; the points they see by brute force must be in
// seen leaves.
// With a PVS, the search is restricted to it (sight_pvs.h) and must stay conservative.
template <class EyeSource>
void expectConservative(Rng& rng, const BspTree& tree, const EyeSource& randomEye, double maxDistance, Tally& tally,
                        std::shared_ptr<const SightPvs> pvs = nullptr) {
    const LeafVisibility visibility(std::shared_ptr<const BspTree>(&tree, [](const BspTree*) {}));
    ASSERT_TRUE(visibility.usable());
    visibility.restrictTo(pvs);
    ASSERT_EQ(visibility.restricted(), pvs != nullptr);
    const int pose = sightPose(tree);
    for (int view = 0; view < 40; ++view) {
        const Vec3 eye = randomEye();
        const Camera c = camera(eye, randomUnit(rng));
        const std::vector<bool> seen = visibility.seenFrom(eye, c.clip);
        ASSERT_EQ(seen.size(), tree.leafCount());
        tally.seenFraction += double(std::count(seen.begin(), seen.end(), true)) / double(seen.size());
        ++tally.views;
        for (int sample = 0; sample < 300; ++sample) {
            const Vec3 p = pointInView(rng, c, maxDistance);
            const TraceResult r = traceSegment(tree, pose, eye, p);
            if (r.hit || r.startSolid) continue;
            ++tally.points;
            const int32_t leaf = tree.findLeaf(p);
            EXPECT_TRUE(seen[size_t(leaf)]) << "leaf " << leaf << " at " << p.transpose() << " seen from " << eye.transpose();
        }
    }
}

} // namespace

TEST(LeafVisibility, SeesEveryLeafASegmentFromTheEyeReachesOnRandomWorlds) {
    Rng rng(31);
    Tally tally;
    for (int round = 0; round < 10; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const CompileResult r = compileWorld(randomWorld(rng, 20, 80, 1));
        ASSERT_TRUE(r.error.empty()) << r.error;
        auto eye = [&] { return randomEmptyPoint(rng, r.onion, 120); };
        expectConservative(rng, r.onion, eye, 400, tally);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(tally.points, 50000u);
}

// Restricted to the PVS (base and full flow), the culling still finds every leaf a clear
// segment from the eye reaches, and never marks more leaves than without it.
TEST(LeafVisibility, RestrictedToThePvsStaysConservative) {
    Rng rng(32);
    Tally plain, restricted;
    for (int round = 0; round < 8; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const World w = randomWorld(rng, 20, 80, 1);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        SightPvsSettings settings;
        settings.fullFlow = round % 2 == 0;
        const std::shared_ptr<const SightPvs> pvs = SightPvs::compute(r, w, settings);
        ASSERT_TRUE(pvs);
        const uint64_t seed = rng();
        Rng a(seed), b(seed);
        auto eyeA = [&] { return randomEmptyPoint(a, r.onion, 120); };
        auto eyeB = [&] { return randomEmptyPoint(b, r.onion, 120); };
        expectConservative(a, r.onion, eyeA, 400, plain);
        expectConservative(b, r.onion, eyeB, 400, restricted, pvs);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(restricted.points, 20000u);
    EXPECT_EQ(restricted.points, plain.points); // the same eyes, views and points
    EXPECT_LE(restricted.seenFraction, plain.seenFraction + 1e-12);
}

TEST(LeafVisibility, SeesEveryLeafASegmentReachesOnAQuakeLevelAndLeavesMostOut) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared maps";
    const World world = loadMap(path.string());
    const CompileResult r = compileWorld(world);
    ASSERT_TRUE(r.error.empty()) << r.error;
    Rng rng(7);
    Tally tally;
    // Eyes in the level's rooms: empty leaves the void around the level does not reach.
    const BspTree& t = r.onion;
    const std::vector<int32_t> rooms = eyeLeaves(t, EyesIn::Rooms);
    ASSERT_GT(rooms.size(), 100u);
    auto eye = [&] { return t.leaves[size_t(rooms[rng() % rooms.size()])].interiorPoint; };
    expectConservative(rng, t, eye, 600, tally);
    std::cout << "id_e1m1: " << tally.points << " points seen, " << 100 * tally.seenFraction / tally.views << "% of the leaves marked seen per view\n";
    // Restricted to the base flow's PVS (the full flow takes seconds here).
    SightPvsSettings fast;
    fast.fullFlow = false;
    fast.threads = 2;
    Tally restricted;
    expectConservative(rng, t, eye, 600, restricted, SightPvs::compute(r, world, fast));
    std::cout << "id_e1m1 with the base flow's PVS: " << 100 * restricted.seenFraction / restricted.views
              << "% of the leaves marked seen per view\n";
    EXPECT_GT(tally.points, 1000u);
    EXPECT_LT(tally.seenFraction / tally.views, 0.25) << "portal culling should leave most of a level out";
}

TEST(LeafVisibility, TreesWithoutAPointPoseSeeEverything) {
    Rng rng(3);
    World w = randomWorld(rng, 8, 80, 1);
    w.poses.erase(w.poses.begin()); // the point pose
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const LeafVisibility visibility(std::make_shared<BspTree>(r.onion));
    EXPECT_FALSE(visibility.usable());
    EXPECT_TRUE(visibility.seenFrom(Vec3::Zero(), camera(Vec3::Zero(), Vec3::UnitX()).clip).empty());
}

// From the open space around a level the search reaches rectangles over many paths (the
// case that grows a leaf's rectangle to the whole screen): still conservative, and the
// answer for one view does not depend on the searches made before it (kept scratch).
TEST(LeafVisibility, EyesOutsideALevelAndRepeatedSearches) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared maps";
    const CompileResult r = compileWorld(loadMap(path.string()));
    ASSERT_TRUE(r.error.empty()) << r.error;
    const BspTree& t = r.onion;
    const std::vector<int32_t> voidLeaves = eyeLeaves(t, EyesIn::Void);
    ASSERT_GT(voidLeaves.size(), 10u);
    Rng rng(11);
    Tally tally;
    auto eye = [&] { return t.leaves[size_t(voidLeaves[rng() % voidLeaves.size()])].interiorPoint; };
    expectConservative(rng, t, eye, 4000, tally);
    EXPECT_GT(tally.points, 1000u);

    const LeafVisibility kept(std::shared_ptr<const BspTree>(&t, [](const BspTree*) {}));
    for (int view = 0; view < 10; ++view) {
        const Vec3 e = view % 2 ? eye() : t.leaves[size_t(voidLeaves[0])].interiorPoint;
        const Camera c = camera(e, randomUnit(rng));
        const LeafVisibility fresh(std::shared_ptr<const BspTree>(&t, [](const BspTree*) {}));
        EXPECT_EQ(kept.seenFrom(e, c.clip), fresh.seenFrom(e, c.clip)) << "view " << view;
    }
}

// The hand-built levels of maps/ with known walking answers (docs/navigation.md): for each
// level, pose (player, large) and direction, a path exists exactly where Quake's rules
// allow, and every path found is confirmed stretch by stretch by swept traces of the box.
// The point pose is left out: a point has no body (no gap is too narrow, no tunnel too low
// for it) and no Quake agent walks as one.
#include "nav_helpers.h"
#include "test_maps.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

NavLevel level(const char* file) {
    NavLevel l = compiledNavLevel(loadMap(std::string(SHALLOT_SAMPLE_MAPS "/") + file));
    EXPECT_TRUE(l.result.error.empty()) << file << ": " << l.result.error;
    EXPECT_TRUE(l.result.problems.empty()) << file;
    return l;
}

struct Case {
    const char* what;
    Vec3 from, to;
    bool found;
};

// Checks each case for the pose under `settings` (the pose's own when not given).
void expectAnswers(const NavLevel& l, const char* poseName, const std::vector<Case>& cases,
                   std::optional<NavSettings> settings = std::nullopt) {
    const BspTree& tree = l.result.onion;
    const int pose = tree.poseIndex(poseName);
    ASSERT_GE(pose, 0) << poseName;
    const NavSettings s = settings ? *settings : l.world.poses[size_t(pose)].nav;
    const NavMesh mesh = buildNavMesh(tree, pose, s);
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(poseName) + ": " + c.what + (s.jump ? " (jumps on)" : ""));
        const NavPath path = findPath(tree, mesh, c.from, c.to);
        EXPECT_EQ(path.found, c.found);
        if (!path.found) continue;
        expectNavPathValid(tree, pose, path, s);
        EXPECT_NEAR(path.points.front().z(), c.from.z() - 1, 1e-6);
        EXPECT_NEAR(path.points.back().z(), c.to.z() - 1, 1e-6);
    }
}

NavSettings withJumps() {
    NavSettings s;
    s.jump = true; // 45 up, 128 across
    return s;
}

} // namespace

// Steps of 16 are climbed (Quake's step is 18); of 24 only descended (each a drop).
TEST(NavLevels, StairsOf16AreClimbedAndOf24OnlyDescended) {
    const NavLevel l = level("nav_stairs.map");
    // (Every pose here has its box's bottom 24 below its reference point, as navStanding's.)
    const Vec3 floor = navStanding(128, 288, 0), top16 = navStanding(900, 128, 96),
               top24 = navStanding(900, 448, 96);
    for (const char* pose : {"player", "large"}) {
        expectAnswers(l, pose,
                      {{"up the 16s", floor, top16, true},
                       {"down the 16s", top16, floor, true},
                       {"up the 24s", floor, top24, false},
                       {"down the 24s", top24, floor, true}});
        // A jump of 45 gets up a step of 24.
        expectAnswers(l, pose, {{"up the 24s", floor, top24, true}}, withJumps());
    }
}

// Quake's ground is a normal z of at least 0.7 (45.6 degrees): a ramp of 40 degrees is
// walked both ways, one of 50 only down (off the platform's edge onto ground too steep to
// stand on, the box slides down it to the floor), never up, not even jumping.
TEST(NavLevels, RampsOf40DegreesAreWalkedAndOf50DegreesOnlySlidDown) {
    const NavLevel l = level("nav_ramps.map");
    const Vec3 floor = navStanding(128, 288, 0), top40 = navStanding(900, 128, 128),
               top50 = navStanding(900, 448, 128);
    for (const char* pose : {"player", "large"}) {
        expectAnswers(l, pose,
                      {{"up 40", floor, top40, true},
                       {"down 40", top40, floor, true},
                       {"up 50", floor, top50, false},
                       {"down 50", top50, floor, true}});
        expectAnswers(l, pose, {{"up 50", floor, top50, false}}, withJumps());
    }
}

// A ledge of 64 is dropped from, never climbed (nor jumped: 64 > 45); a gap of 96 is
// crossed only with jumps (configuration space: 64 for the player, 32 for the large pose).
TEST(NavLevels, ALedgeIsOneWayAndAGapIsJumpedOnlyWithJumpsOn) {
    const NavLevel l = level("nav_ledge.map");
    const Vec3 low = navStanding(128, 128, 0), ledge = navStanding(900, 128, 64),
               across = navStanding(200, 448, 64);
    for (const char* pose : {"player", "large"}) {
        expectAnswers(l, pose,
                      {{"up the ledge", low, ledge, false},
                       {"down the ledge", ledge, low, true},
                       {"over the gap", ledge, across, false},
                       {"back over the gap", across, ledge, false}});
        expectAnswers(l, pose,
                      {{"up the ledge", low, ledge, false},
                       {"down the ledge", ledge, low, true},
                       {"over the gap", ledge, across, true},
                       {"back over the gap", across, ledge, true},
                       {"from across the gap down", across, low, true}},
                      withJumps());
    }
}

// A tunnel 64 high: the player (56 tall) walks through, the large pose (88) cannot enter.
TEST(NavLevels, ALowTunnelLetsThePlayerThroughNotTheLargePose) {
    const NavLevel l = level("nav_tunnel.map");
    const Vec3 west = navStanding(128, 256, 0), east = navStanding(900, 256, 0);
    expectAnswers(l, "player", {{"east", west, east, true}, {"west", east, west, true}});
    expectAnswers(l, "large", {{"east", west, east, false}, {"west", east, west, false}});
    // maps/low_tunnel.map, its own poses: a tunnel 48 high, stand (56 tall) no, crouch (32) yes.
    const NavLevel low = level("low_tunnel.map");
    const Vec3 a = navStanding(128, 128, 0), b = navStanding(512, 128, 0);
    expectAnswers(low, "stand", {{"east", a, b, false}, {"west", b, a, false}});
    expectAnswers(low, "crouch", {{"east", a, b, true}, {"west", b, a, true}});
}

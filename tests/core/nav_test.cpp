// Navigation meshes (core/nav) on hand-built levels with known answers, and against brute
// force on random worlds: surfaces where the box rests, paths whose every stretch a swept
// box confirms.
#include "brute_force.h"
#include "nav_helpers.h"
#include "compile/compiler.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"
#include "query/trace.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr int kPlayer = kNavPlayer;

World room(std::vector<Brush> inside) { return navRoom(std::move(inside)); }

// Stairs rising along +x from x0, each `rise` high and 32 deep, up to a platform.
std::vector<Brush> stairs(double x0, int steps, double rise) {
    std::vector<Brush> out;
    for (int i = 0; i < steps; ++i) out.push_back(Brush::box({x0 + 32 * i, 0, 0}, {1024, 512, rise * (i + 1)}));
    return out;
}

Vec3 standing(double x, double y, double floor = 0) { return navStanding(x, y, floor); }

int expectPathValid(const BspTree& tree, int pose, const NavPath& path, double step, bool strict = true,
                    const BruteForce* brute = nullptr, const NavMesh* mesh = nullptr) {
    NavSettings s;
    s.stepHeight = step;
    return expectNavPathValid(tree, pose, path, s, strict, brute, mesh);
}

struct Compiled {
    World world;
    CompileResult result;
    NavMesh mesh;
};

Compiled compiled(World w, int pose) {
    Compiled c{std::move(w), {}, {}};
    c.result = compileWorld(c.world);
    c.mesh = buildNavMesh(c.result.onion, pose);
    return c;
}

} // namespace

TEST(NavMesh, StairsOf16AreClimbedAndStairsOf24AreOnlyDescended) {
    for (double rise : {16.0, 24.0}) {
        const Compiled c = compiled(room(stairs(512, 4, rise)), kPlayer);
        const BspTree& tree = c.result.onion;
        const double top = 4 * rise;
        const NavPath up = findPath(tree, c.mesh, standing(128, 256), standing(900, 256, top));
        const NavPath down = findPath(tree, c.mesh, standing(900, 256, top), standing(128, 256));
        EXPECT_EQ(up.found, rise <= 18) << "rise " << rise;
        ASSERT_TRUE(down.found) << "rise " << rise;
        expectPathValid(tree, kPlayer, down, 18);
        if (up.found) {
            expectPathValid(tree, kPlayer, up, 18);
            EXPECT_NEAR(up.points.front().z(), 24, 1e-6);
            EXPECT_NEAR(up.points.back().z(), top + 24, 1e-6);
            // Across and up, the rises climbed straight: at least the straight line, at most
            // each rise walked apart plus the probes' spacing.
            EXPECT_GT(up.length, (Vec3(900, 256, top) - Vec3(128, 256, 0)).norm() - 1e-6);
            EXPECT_LT(up.length, 900 - 128 + 4 * rise + 4 * kNavProbeSpacing);
        }
        EXPECT_GT(c.mesh.linkCount(rise <= 18 ? NavLinkKind::StepUp : NavLinkKind::Drop), 0u);
    }
}

// A ramp rising along +x from x 512 at `degrees` up to a platform at x 640: Quake's ground
// rule (normal z >= 0.7, about 45.6 degrees) lets the player walk up 40 degrees, not 50.
TEST(NavMesh, RampsOf40DegreesAreWalkedUpAndOf50DegreesAreOnlySlidDown) {
    for (double degrees : {40.0, 50.0}) {
        const double a = degrees * M_PI / 180, height = (640 - 512) * std::tan(a);
        const Vec3 slope(-std::sin(a), 0, std::cos(a)); // outward normal of the ramp's top
        const Brush ramp = Brush::fromPlanes({{slope, slope.dot(Vec3(512, 0, 0))}, {-Vec3::UnitZ(), 0}, {Vec3::UnitX(), 640},
                                              {-Vec3::UnitY(), 0}, {Vec3::UnitY(), 512}});
        const Brush platform = Brush::box({640, 0, 0}, {1024, 512, height});
        const Compiled c = compiled(room({ramp, platform}), kPlayer);
        const BspTree& tree = c.result.onion;
        const NavPath up = findPath(tree, c.mesh, standing(128, 256), standing(900, 256, height));
        const NavPath down = findPath(tree, c.mesh, standing(900, 256, height), standing(128, 256));
        EXPECT_EQ(up.found, degrees < 45) << degrees;
        if (up.found) expectPathValid(tree, kPlayer, up, 18);
        // Down a 50 degree slope the player slides (off the platform's edge onto it, down to
        // the floor): a drop, every stretch confirmed by the swept-box check.
        EXPECT_TRUE(down.found) << degrees;
        if (down.found) expectPathValid(tree, kPlayer, down, 18);
    }
}

// A ledge 64 high is dropped from, never climbed; a tunnel 64 high lets the player (56 tall)
// through but not the large pose (88 tall), which has no way round.
TEST(NavMesh, ALedgeIsOneWayAndALowTunnelLetsOnlyTheSmallerPoseThrough) {
    {
        const Compiled c = compiled(room({Brush::box({512, 0, 0}, {1024, 512, 64})}), kPlayer);
        EXPECT_TRUE(findPath(c.result.onion, c.mesh, standing(900, 256, 64), standing(128, 256)).found);
        EXPECT_FALSE(findPath(c.result.onion, c.mesh, standing(128, 256), standing(900, 256, 64)).found);
        EXPECT_GT(c.mesh.linkCount(NavLinkKind::Drop), 0u);
    }
    // A wall across the room at x 480..544 with a tunnel 128 wide and 64 high through it.
    const std::vector<Brush> wall{Brush::box({480, 0, 0}, {544, 192, 256}), Brush::box({480, 320, 0}, {544, 512, 256}),
                                  Brush::box({480, 192, 64}, {544, 320, 256})};
    for (int pose : {kPlayer, 2}) {
        const Compiled c = compiled(room(wall), pose);
        const double lift = -c.world.poses[size_t(pose)].mins.z() + 1;
        const NavPath through = findPath(c.result.onion, c.mesh, Vec3(128, 256, lift), Vec3(900, 256, lift));
        EXPECT_EQ(through.found, pose == kPlayer) << c.world.poses[size_t(pose)].name;
        if (through.found) expectPathValid(c.result.onion, pose, through, 18);
    }
}

TEST(NavMesh, AnLShapedCorridorIsWalkedRoundItsInnerCorner) {
    // Two walls leave an L: in at the bottom left, round the corner at (512, 256), out at
    // the top right.
    const Compiled c = compiled(room({Brush::box({0, 256, 0}, {512, 512, 256}), Brush::box({768, 0, 0}, {1024, 256, 256})}), kPlayer);
    const NavPath path = findPath(c.result.onion, c.mesh, standing(64, 128), standing(900, 400));
    ASSERT_TRUE(path.found);
    expectPathValid(c.result.onion, kPlayer, path, 18);
    // The shortest way goes round the inner corner of the L (the wall's corner grown by the
    // box: 512 + 16, 256 - 16). The funnel keeps to the polygons A* chose, so the path may
    // bend at one of their corners a little wide of it: never shorter, at most 1% longer.
    const double shortest = (Vec3(528, 240, 24) - Vec3(64, 128, 24)).norm() + (Vec3(900, 400, 24) - Vec3(528, 240, 24)).norm();
    EXPECT_GE(path.length, shortest - 1e-6);
    EXPECT_LE(path.length, shortest * 1.01);
    EXPECT_GE(path.points.size(), 3u);
}

// Random worlds (boxes and slabs at random heights in a closed room): every walkable
// polygon's points are places where the player's box rests (clear straight above, solid just
// below, on ground), random points fall onto a walkable polygon or onto ground too steep,
// and random paths are valid corner by corner.
TEST(NavMesh, RandomWorldsRestFallAndWalkAsBruteForceSays) {
    Rng rng(30);
    int paths = 0, found = 0, landed = 0, steep = 0, stretches = 0, grazing = 0;
    for (int round = 0; round < 6; ++round) {
        std::vector<Brush> inside;
        for (int i = 0; i < 14; ++i) {
            const Vec3 c(uniform(rng, 64, 960), uniform(rng, 64, 448), uniform(rng, 0, 96));
            const BrushShape shape = rng() % 3 == 0 ? BrushShape::Random : BrushShape::Box;
            inside.push_back(randomBrush(rng, c, uniform(rng, 24, 64), shape));
        }
        const Compiled c = compiled(room(inside), kPlayer);
        const BspTree& tree = c.result.onion;
        const BruteForce brute(c.world);
        ASSERT_FALSE(c.mesh.polygons.empty());
        // Points on the walkable polygons rest on ground.
        for (int i = 0; i < 300; ++i) {
            const NavPolygon& p = c.mesh.polygons[rng() % c.mesh.polygons.size()];
            if (p.area < 1.0) continue;
            const Vec3 at = randomPointIn(rng, Polygon{p.vertices});
            EXPECT_GE(p.normal.z(), 0.7);
            EXPECT_GT(brute.clearanceAbove(at, kPlayer), BruteForce::kClearanceRounding) << at.transpose();
            const std::optional<bool> below = brute.solid(at - Vec3::UnitZ() * 0.05, kPlayer);
            if (below) {
                EXPECT_TRUE(*below) << at.transpose();
            }
            EXPECT_GE(c.mesh.polygonAt(at), 0) << at.transpose();
        }
        // Random points fall onto a walkable polygon, or onto ground too steep to stand on.
        for (int i = 0; i < 300; ++i) {
            const Vec3 from(uniform(rng, 1, 1023), uniform(rng, 1, 511), uniform(rng, 30, 250));
            const std::optional<bool> solid = brute.solid(from, kPlayer);
            if (!solid || *solid) continue;
            const Landing l = dropToFloor(tree, c.mesh, from);
            ASSERT_TRUE(l.landed) << from.transpose();
            if (l.polygon >= 0) ++landed;
            else {
                ++steep;
                EXPECT_LT(l.normal.z(), 0.7) << "landed on ground at " << l.point.transpose() << " outside every walkable polygon";
            }
        }
        // Paths between random standing places.
        for (int i = 0; i < 40; ++i) {
            const Vec3 a(uniform(rng, 20, 1004), uniform(rng, 20, 492), 200), b(uniform(rng, 20, 1004), uniform(rng, 20, 492), 200);
            const NavPath path = findPath(tree, c.mesh, a, b);
            ++paths;
            if (!path.found) continue;
            ++found;
            // Every corner rests on a floor; a stretch may graze a wall leaning over the
            // floor (5 of 985 here: see docs/navigation.md).
            grazing += expectPathValid(tree, kPlayer, path, 18, false, &brute, &c.mesh);
            stretches += int(path.points.size()) - 1;
        }
    }
    EXPECT_GT(landed, 500);
    EXPECT_GT(found, paths / 3);
    EXPECT_LE(grazing, stretches / 100);
    std::printf("landed on walkable %d, on steep %d; paths found %d of %d, %d of %d stretches graze\n", landed, steep,
                found, paths, grazing, stretches);
}

// A straight flight of 8 steps of 16 (32 deep) crossed diagonally, up and down: the path
// goes over it in one straight line seen from above, its length within 3% of the straight
// line's in 3D (as over a ramp), not along each tread and straight up or down each riser,
// nor round the probe points each step was found at; every stretch swept traces confirm.
TEST(NavMesh, AFlightOfStairsCrossedDiagonallyIsNearlyAStraightLine) {
    const Compiled c = compiled(room(stairs(256, 8, 16)), kPlayer);
    const BspTree& tree = c.result.onion;
    const double top = 8 * 16;
    const Vec3 low = standing(96, 64), high = standing(700, 448, top);
    for (const bool up : {true, false}) {
        SCOPED_TRACE(up ? "up" : "down");
        const NavPath path = up ? findPath(tree, c.mesh, low, high) : findPath(tree, c.mesh, high, low);
        ASSERT_TRUE(path.found);
        expectPathValid(tree, kPlayer, path, 18);
        const double straight = (path.points.back() - path.points.front()).norm();
        EXPECT_GE(path.length, straight - 1e-6);
        EXPECT_LE(path.length, straight * 1.03);
        // Seen from above, every corner lies on the straight line (no zigzag).
        const Vec3 a = path.points.front(), b = path.points.back();
        const Vec3 d = Vec3(b.x() - a.x(), b.y() - a.y(), 0).normalized();
        for (const Vec3& p : path.points) EXPECT_LT(std::abs(d.x() * (p.y() - a.y()) - d.y() * (p.x() - a.x())), 1.0) << p.transpose();
    }
}

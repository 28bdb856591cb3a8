// Jump links (NavSettings::jump, core/nav/edge_probes.h): across gaps and up walls within
// the jump's height and length, never through a ceiling; paths use them, and each jump
// stretch is confirmed by swept traces of the box (up by the jump height, across, down).
#include "nav_helpers.h"
#include "nav/edge_probes.h"
#include "test_maps.h"

#include <filesystem>

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

NavSettings jumping(double height = 45, double length = 128) {
    NavSettings s;
    s.jump = true;
    s.jumpHeight = height;
    s.jumpLength = length;
    return s;
}

// Two platforms 128 high, the first x 0..448, the second from 448 + gap on, over a pit
// (whose walls the player cannot climb); `extra` brushes added.
World gap(double width, std::vector<Brush> extra = {}) {
    std::vector<Brush> inside{Brush::box({0, 0, 0}, {448, 512, 128}), Brush::box({448 + width, 0, 0}, {1024, 512, 128})};
    for (Brush& b : extra) inside.push_back(std::move(b));
    return navRoom(std::move(inside));
}

struct Both {
    NavPath there, back;
};

Both paths(const NavLevel& l, const NavSettings& s, const Vec3& a, const Vec3& b, int pose = kNavPlayer) {
    const NavMesh mesh = buildNavMesh(l.result.onion, pose, s);
    Both out{findPath(l.result.onion, mesh, a, b), findPath(l.result.onion, mesh, b, a)};
    for (const NavPath* p : {&out.there, &out.back})
        if (p->found) expectNavPathValid(l.result.onion, pose, *p, s);
    return out;
}

} // namespace

TEST(NavJump, AGapOf64IsCrossedOnlyWithJumpsOn) {
    const NavLevel l = compiledNavLevel(gap(64));
    const Vec3 a = navStanding(200, 256, 128), b = navStanding(800, 256, 128);
    const Both off = paths(l, NavSettings{}, a, b), on = paths(l, jumping(), a, b);
    EXPECT_FALSE(off.there.found);
    EXPECT_FALSE(off.back.found);
    ASSERT_TRUE(on.there.found);
    ASSERT_TRUE(on.back.found);
    // Off one platform's edge (config space: x 464), onto the other's (x 496): the
    // takeoff, then the landing, both at the platforms' height.
    bool jumped = false;
    for (size_t i = 1; i < on.there.points.size(); ++i) {
        const Vec3 &p = on.there.points[i - 1], &q = on.there.points[i];
        if (p.x() < 480 && q.x() > 480) {
            jumped = true;
            EXPECT_NEAR(p.z(), 152, 1e-6);
            EXPECT_NEAR(q.z(), 152, 1e-6);
            EXPECT_NEAR(p.x(), 464, 0.5);
            EXPECT_NEAR(q.x(), 496, kNavJumpSpacing + 0.5);
        }
    }
    EXPECT_TRUE(jumped);
    const NavMesh offMesh = buildNavMesh(l.result.onion, kNavPlayer), onMesh = buildNavMesh(l.result.onion, kNavPlayer, jumping());
    EXPECT_EQ(offMesh.linkCount(NavLinkKind::Jump), 0u);
    EXPECT_GT(onMesh.linkCount(NavLinkKind::Jump), 0u);
    // Jumps leave the other links as they were.
    for (NavLinkKind k : {NavLinkKind::Walk, NavLinkKind::StepUp, NavLinkKind::StepDown, NavLinkKind::Drop})
        EXPECT_EQ(offMesh.linkCount(k), onMesh.linkCount(k)) << navLinkKindName(k);
    EXPECT_EQ(offMesh.componentCount, onMesh.componentCount);
}

TEST(NavJump, AGapOf200IsNotCrossedWithALengthOf128) {
    const NavLevel l = compiledNavLevel(gap(200));
    const Vec3 a = navStanding(200, 256, 128), b = navStanding(900, 256, 128);
    const Both len128 = paths(l, jumping(45, 128), a, b);
    EXPECT_FALSE(len128.there.found);
    EXPECT_FALSE(len128.back.found);
    // In configuration space the gap is 200 - 32 = 168 across: a length of 176 spans it.
    const Both len176 = paths(l, jumping(45, 176), a, b);
    EXPECT_TRUE(len176.there.found);
    EXPECT_TRUE(len176.back.found);
}

TEST(NavJump, AWallOf40IsJumpedOntoWithAHeightOf45AndAWallOf50IsNot) {
    for (double wall : {40.0, 50.0}) {
        const NavLevel l = compiledNavLevel(navRoom({Brush::box({512, 0, 0}, {1024, 512, wall})}));
        const Vec3 low = navStanding(200, 256), high = navStanding(800, 256, wall);
        const Both off = paths(l, NavSettings{}, low, high), on = paths(l, jumping(45, 128), low, high);
        EXPECT_FALSE(off.there.found) << wall;
        EXPECT_TRUE(off.back.found) << wall; // dropped from
        EXPECT_EQ(on.there.found, wall <= 45) << wall;
        EXPECT_TRUE(on.back.found) << wall;
        // A jump height of 50 gets onto the wall of 50 (the room is 256 high).
        if (wall == 50) {
            EXPECT_TRUE(paths(l, jumping(50, 128), low, high).there.found);
        }
    }
}

TEST(NavJump, ACeilingAboveTheGapBlocksTheJump) {
    // A beam over the gap and 48 past each side of it, its underside 20 above the player's
    // head on the platforms: the player walks under it but cannot rise 45 there.
    const double headroom = 128 + 56 + 20;
    const NavLevel l = compiledNavLevel(gap(64, {Brush::box({400, 0, headroom}, {560, 512, 256})}));
    const Vec3 a = navStanding(200, 256, 128), b = navStanding(800, 256, 128);
    const Both on = paths(l, jumping(), a, b);
    EXPECT_FALSE(on.there.found);
    EXPECT_FALSE(on.back.found);
    // Walking under the beam to the edge still works.
    EXPECT_TRUE(paths(l, jumping(), a, navStanding(440, 256, 128)).there.found);
}

TEST(NavJump, JumpsCostTheirFlightAndAreOneWay) {
    const NavLevel l = compiledNavLevel(gap(64));
    const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer, jumping());
    for (const NavLink& link : mesh.links) {
        if (link.kind != NavLinkKind::Jump) continue;
        const Vec3 d = link.end - link.start;
        EXPECT_LE(d.z(), 45 + 1e-6);
        EXPECT_LE(std::hypot(d.x(), d.y()), 128 + kNavTakeoffInset + 1e-6);
        EXPECT_NE(mesh.polygons[size_t(link.from)].component, mesh.polygons[size_t(link.to)].component);
        EXPECT_GE(navJumpFlightLength(mesh, link), d.norm());
    }
}

// Random worlds (boxes and slabs in a closed room) and id_e1m1 with jumps on: every path's
// corners rest on floors and each stretch is a walk, step, drop or jump that swept traces of
// the box confirm (a few graze a wall leaning over the floor, as without jumps: at most 1%).
TEST(NavJump, PathsWithJumpsAreConfirmedBySweptTraces) {
    Rng rng(45);
    int found = 0, jumps = 0, stretches = 0, grazing = 0;
    auto check = [&](const BspTree& tree, const NavMesh& mesh, const BruteForce& brute, const Vec3& a, const Vec3& b) {
        const NavPath path = findPath(tree, mesh, a, b);
        if (!path.found) return;
        ++found;
        grazing += expectNavPathValid(tree, kNavPlayer, path, mesh.settings, false, &brute, &mesh);
        stretches += int(path.points.size()) - 1;
    };
    for (int round = 0; round < 4; ++round) {
        const std::vector<Brush> inside = randomRoomBrushes(rng);
        const NavLevel l = compiledNavLevel(navRoom(inside));
        const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer, jumping());
        jumps += int(mesh.linkCount(NavLinkKind::Jump));
        const BruteForce brute(l.world);
        for (int i = 0; i < 40; ++i)
            check(l.result.onion, mesh, brute, Vec3(uniform(rng, 20, 1004), uniform(rng, 20, 492), 200),
                  Vec3(uniform(rng, 20, 1004), uniform(rng, 20, 492), 200));
    }
    const std::string e1m1 = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (std::filesystem::exists(e1m1)) {
        const NavLevel l = compiledNavLevel(loadMap(e1m1));
        const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer, jumping());
        jumps += int(mesh.linkCount(NavLinkKind::Jump));
        std::vector<const NavPolygon*> big;
        for (const NavPolygon& p : mesh.polygons)
            if (p.area > 256) big.push_back(&p);
        auto place = [&] { return Vec3(randomPointIn(rng, Polygon{big[rng() % big.size()]->vertices}) + Vec3::UnitZ()); };
        const BruteForce brute(l.world);
        for (int i = 0; i < 200; ++i) check(l.result.onion, mesh, brute, place(), place());
    }
    EXPECT_GT(jumps, 0);
    EXPECT_GT(found, 100);
    EXPECT_LE(grazing, stretches / 100);
    std::printf("%d jump links; %d paths found, %d of %d stretches graze\n", jumps, found, grazing, stretches);
}

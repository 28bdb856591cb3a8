// Swims round corners (movers/swim_network.h): routes through a body of water from the
// tree's portals, on a room of water parted by a wall, against its walled-up twin and by
// tracing every piece of every route; and on id_e4m1's sewers, where straight swims between
// floors missed the way round their corners.
#include "mover_maps.h"

#include "check/spawn_checks.h"
#include "compile/brush_expansion.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/swim_network.h"
#include "movers/travel.h"
#include "movers/travel_reach.h"
#include "query/trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr int kPlayer = 1; // Quake's poses: point, player, large

struct WetLevel {
    MapFile map;
    World world;
    CompileResult compiled;
    std::vector<GrownWater> water; // every water brush: one body in these rooms
};

std::unique_ptr<WetLevel> wetLevel(const std::string& text) {
    auto l = std::make_unique<WetLevel>();
    MapReadResult r = readMap(text, "swim.map", Game::Quake);
    EXPECT_TRUE(r.ok()) << r.error.format();
    if (!r.ok()) return l;
    l->map = *r.map;
    l->world = worldFromMap(l->map);
    l->compiled = compileWorld(l->world);
    const Pose& pose = l->world.poses[kPlayer];
    for (const BrushGeometry& g : brushShapes(l->world.brushes, kSwumContents, l->world.bounds))
        l->water.push_back({expandedPlanes(g, pose), {g.bounds.mins - pose.maxs, g.bounds.maxs - pose.mins}});
    return l;
}

// A closed room x -512..512, y -256..256, z 0..256, full of water up to 200, parted by a
// wall x -8..8 from its south side to y 160 (with `open`; else to its north side).
std::string partedPool(bool open) {
    return entityText({{"classname", "worldspawn"}},
                      {boxBrush(-528, -272, -16, 528, 272, 0), boxBrush(-528, -272, 256, 528, 272, 272),
                       boxBrush(-528, -272, 0, -512, 272, 256), boxBrush(512, -272, 0, 528, 272, 256),
                       boxBrush(-512, -272, 0, 512, -256, 256), boxBrush(-512, 256, 0, 512, 272, 256),
                       boxBrush(-8, -256, 0, 8, open ? 160 : 256, 256), boxBrush(-512, -256, 0, 512, 256, 200, "*water1")});
}

// Every piece of the route is clear for the pose's box.
void expectClear(const BspTree& tree, const SwimRoute& route) {
    for (size_t i = 0; i + 1 < route.points.size(); ++i) {
        const TraceResult t = traceSegment(tree, kPlayer, route.points[i], route.points[i + 1]);
        EXPECT_FALSE(t.hit || t.startSolid) << route.points[i].transpose() << " -> " << route.points[i + 1].transpose();
    }
}

double lengthOf(const SwimRoute& route) {
    double sum = 0.0;
    for (size_t i = 0; i + 1 < route.points.size(); ++i) sum += (route.points[i + 1] - route.points[i]).norm();
    return sum;
}

} // namespace

// Random points of the water on either side of the wall: joined round its end, each piece
// clear, as long as the route says and no shorter than the way round the wall's end; with
// the wall closed, never joined. Points on one side are joined too.
TEST(SwimNetwork, RoutesGoRoundTheWallAndNeverThroughIt) {
    const auto open = wetLevel(partedPool(true)), closed = wetLevel(partedPool(false));
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> x(40, 490), y(-230, 130), z(30, 160);
    for (int k = 0; k < 40; ++k) {
        const Vec3 a(-x(rng), y(rng), z(rng)), b(x(rng), y(rng), z(rng)), c(-x(rng), y(rng), z(rng));
        const SwimNetwork openNet(open->compiled.onion, kPlayer, swimPortals(open->compiled.onion, kPlayer, open->water), open->water,
                                  {{a}, {b}, {c}});
        EXPECT_GT(openNet.crossingCount(), 0u);
        const auto routes = openNet.routesFrom(0);
        EXPECT_FALSE(routes[0].has_value()) << "no route to itself";
        ASSERT_TRUE(routes[1].has_value()) << a.transpose() << " to " << b.transpose();
        const SwimRoute& across = *routes[1];
        EXPECT_EQ(across.points.front(), a);
        EXPECT_EQ(across.points.back(), b);
        EXPECT_NEAR(across.length, lengthOf(across), 1e-9);
        expectClear(open->compiled.onion, across);
        // Round the wall's end: past y 160 + 16 (the box's half width) somewhere.
        EXPECT_TRUE(std::any_of(across.points.begin(), across.points.end(), [](const Vec3& p) { return p.y() >= 176.0 - 1e-6; }));
        const Vec3 corner(0, 176, 0.5 * (a.z() + b.z()));
        EXPECT_GE(across.length, (corner - a).head<2>().norm() + (b - corner).head<2>().norm() - 1e-6);
        ASSERT_TRUE(routes[2].has_value());
        expectClear(open->compiled.onion, *routes[2]);
        const SwimNetwork closedNet(closed->compiled.onion, kPlayer, swimPortals(closed->compiled.onion, kPlayer, closed->water),
                                    closed->water, {{a}, {b}});
        EXPECT_FALSE(closedNet.routesFrom(0)[1].has_value()) << "through the wall";
    }
}

// A point in solid joins nothing; a target of several points is reached at its nearest.
TEST(SwimNetwork, SolidPointsJoinNothingAndTargetsTakeTheirNearestPoint) {
    const auto level = wetLevel(partedPool(true));
    const Vec3 inWall(0, 0, 100), left(-300, 0, 100), near(-200, 0, 100), far(300, 0, 100);
    const SwimNetwork net(level->compiled.onion, kPlayer, swimPortals(level->compiled.onion, kPlayer, level->water), level->water,
                          {{inWall}, {left}, {far, near}});
    EXPECT_FALSE(net.routesFrom(0)[1].has_value());
    EXPECT_FALSE(net.routesFrom(1)[0].has_value());
    const auto route = net.routesFrom(1)[2];
    ASSERT_TRUE(route.has_value());
    EXPECT_EQ(route->points.back(), near);
}

// id_e4m1 (the sewers): the player swims to every floor of the big body of water it reaches
// once all doors are open, and the walking check (travel's swims, which wait for the doors
// in the water) meets every monster; every swim round corners is clear for the player's box.
TEST(SwimNetwork, IdE4m1SwimsRoundTheSewersCorners) {
    const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e4m1.map");
    ASSERT_TRUE(read.ok());
    const World world = worldFromMap(*read.map);
    const CompileResult compiled = compileWorld(world);
    TravelLevel travel = travelLevelOf(*read.map);
    addLiquidsAndLadders(travel, world);
    const NavMesh mesh = buildNavMesh(compiled.onion, kPlayer, world.poses[kPlayer].nav);
    const TravelGraph graph = buildTravelGraph(compiled.onion, mesh, world.poses[kPlayer], travel);
    int routed = 0;
    for (const TravelLink& l : graph.links) {
        if (l.via.empty()) continue;
        ++routed;
        SwimRoute route{{l.start}, 0.0};
        route.points.insert(route.points.end(), l.via.begin(), l.via.end());
        route.points.push_back(l.end);
        expectClear(compiled.onion, route);
    }
    EXPECT_GT(routed, 100);
    SpawnCheckInput in;
    in.world = &world;
    in.onion = &compiled.onion;
    in.entities = spawnEntities(read.map->entities, 0);
    in.travel = &travel;
    auto unreachable = [&](bool inOrder) {
        in.travelInOrder = inOrder;
        int count = 0;
        for (const SpawnProblem& p : checkSpawns(in)) count += p.kind == SpawnProblemKind::UnreachableWalking;
        return count;
    };
    EXPECT_EQ(unreachable(false), 0) << "straight swims alone left 14 monsters unmet";
    // In order: the flood gates wait for a button behind the gold key door, and the key is
    // up the lift t31, a train hidden under the sewer's floor, boarded from the water where it
    // comes out.
    EXPECT_EQ(unreachable(true), 0);
    const TravelPath toExit = findTravelPath(compiled.onion, graph, Vec3(1312, 568, 688), Vec3(2072, -856, 125));
    ASSERT_TRUE(toExit.found);
    auto rides = [&](TravelKind kind, int entity) {
        return std::any_of(toExit.travel.begin(), toExit.travel.end(), [&](const TravelStep& s) { return s.kind == kind && s.entity == entity; });
    };
    EXPECT_TRUE(rides(TravelKind::Train, 116));
    EXPECT_TRUE(rides(TravelKind::Door, 151)); // the gold key door
    const Vec3 key(1408, 1408, 376);
    EXPECT_TRUE(std::any_of(toExit.points.begin(), toExit.points.end(), [&](const Vec3& p) { return (p - key).norm() < 32.0; }))
        << "the key picked up on the way";
    EXPECT_TRUE(std::any_of(toExit.travel.begin(), toExit.travel.end(), [](const TravelStep& s) { return !s.via.empty(); }));
    std::printf("id_e4m1 start to exit: %.0f units, %.1f s, %zu steps\n", toExit.length, toExit.seconds, toExit.travel.size());
}

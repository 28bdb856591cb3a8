// Typed travel (core/movers/travel*.h): doors opened by what fires them, plats, teleporters,
// the mesh cut at doors, the walking spawn check with travel, and id_e1m1 from its start to
// its exit.
#include "mover_maps.h"
#include "nav_helpers.h"

#include "check/spawn_checks.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/travel_reach.h"
#include "nav/cut_at_boxes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr int kPlayer = 1; // Quake's poses: point, player, large

// A closed room x -512..512, y -256..256, floor top z 0, ceiling at 256, parted by a wall
// at x -8..8 with a doorway y -32..32 up to z 128.
std::string partedRoom(const std::string& more = {}) {
    return entityText({{"classname", "worldspawn"}},
                      {boxBrush(-528, -272, -16, 528, 272, 0), boxBrush(-528, -272, 256, 528, 272, 272),
                       boxBrush(-528, -272, 0, -512, 272, 256), boxBrush(512, -272, 0, 528, 272, 256),
                       boxBrush(-512, -272, 0, 512, -256, 256), boxBrush(-512, 256, 0, 512, 272, 256),
                       boxBrush(-8, -256, 0, 8, -32, 256), boxBrush(-8, 32, 0, 8, 256, 256), boxBrush(-8, -32, 128, 8, 32, 256)}) +
           more;
}

struct Level {
    MapFile map;
    World world;
    CompileResult compiled;
    TravelLevel travel;
    NavMesh mesh;
    TravelGraph graph;
};

std::unique_ptr<Level> levelOf(const std::string& text, Game game = Game::Quake) {
    auto l = std::make_unique<Level>();
    MapReadResult r = readMap(text, "travel.map", game);
    EXPECT_TRUE(r.ok()) << r.error.format();
    if (!r.ok()) return l;
    l->map = *r.map;
    l->world = worldFromMap(l->map);
    l->compiled = compileWorld(l->world);
    l->travel = travelLevelOf(l->map);
    addLiquidsAndLadders(l->travel, l->world);
    l->mesh = buildNavMesh(l->compiled.onion, kPlayer, l->world.poses[kPlayer].nav);
    l->graph = buildTravelGraph(l->compiled.onion, l->mesh, l->world.poses[kPlayer], l->travel);
    return l;
}

TravelPath pathOf(const Level& l, const Vec3& from, const Vec3& to) { return findTravelPath(l.compiled.onion, l.graph, from, to); }

std::vector<TravelKind> kindsOf(const TravelPath& p) {
    std::vector<TravelKind> kinds;
    for (const TravelStep& s : p.travel) kinds.push_back(s.kind);
    return kinds;
}

bool has(const TravelPath& p, TravelKind kind) {
    const auto kinds = kindsOf(p);
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// A closed room with a ledge 160 high over its east half (x 0..512) and a floor 160 thick
// (top z 0), `more` added.
std::string ledgeRoom(const std::string& more) {
    return entityText({{"classname", "worldspawn"}},
                      {boxBrush(-528, -272, -160, 528, 272, 0), boxBrush(-528, -272, 384, 528, 272, 400),
                       boxBrush(-528, -272, 0, -512, 272, 384), boxBrush(512, -272, 0, 528, 272, 384),
                       boxBrush(-512, -272, 0, 512, -256, 384), boxBrush(-512, 256, 0, 512, 272, 384),
                       boxBrush(0, -256, 0, 512, 256, 160)}) +
           more;
}

const std::string kDoor = entityText({{"classname", "func_door"}, {"targetname", "d"}, {"angle", "-1"}}, {boxBrush(-4, -32, 0, 4, 32, 128)});
const Vec3 kWest(-300, 0, 25), kEast(300, 0, 25);

// Seconds along a travel list, and the sum the path reports.
double stepSeconds(const TravelPath& p) {
    double s = 0;
    for (const TravelStep& step : p.travel) s += step.seconds;
    return s;
}

} // namespace

// Without the door the doorway is walked; a named door nothing fires closes it; a trigger
// on the near side opens it, and the path goes through the trigger before the door.
TEST(Travel, NamedDoorOpensOnlyAfterItsTrigger) {
    {
        const auto open = levelOf(partedRoom());
        const TravelPath p = pathOf(*open, kWest, kEast);
        ASSERT_TRUE(p.found);
        EXPECT_FALSE(has(p, TravelKind::Door));
        EXPECT_NEAR(p.seconds, stepSeconds(p), 1e-9);
        EXPECT_NEAR(p.seconds, p.length / kWalkSpeed, 1e-6); // walking only
    }
    const auto shut = levelOf(partedRoom(kDoor));
    EXPECT_FALSE(pathOf(*shut, kWest, kEast).found);
    EXPECT_TRUE(pathOf(*shut, kWest, Vec3(-300, 200, 25)).found); // its own side is walked
    // The trigger in the west room's north-west corner.
    const std::string trigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(-480, 160, 0, -400, 240, 64)});
    const auto fired = levelOf(partedRoom(kDoor + trigger));
    const TravelPath p = pathOf(*fired, kWest, kEast);
    ASSERT_TRUE(p.found);
    ASSERT_TRUE(has(p, TravelKind::Door));
    const Aabb touched(Vec3(-480 - 16, 160 - 16, -32), Vec3(-400 + 16, 240 + 16, 64 + 24));
    const auto inTrigger = std::find_if(p.points.begin(), p.points.end(), [&](const Vec3& q) { return touched.contains(q, 1.0); });
    ASSERT_NE(inTrigger, p.points.end()) << "the path does not visit the trigger";
    // The door step comes after the visit, at the doorway, and waits for the door.
    size_t door = 0;
    while (p.travel[door].kind != TravelKind::Door) ++door;
    EXPECT_LT(std::abs(p.travel[door].from.x()), 24.0);
    EXPECT_GE(p.travel[door].seconds, 120.0 / 100.0); // 128 - lip 8 at speed 100
    EXPECT_NEAR(p.seconds, stepSeconds(p), 1e-9);
    // The trigger on the far side never fires from here.
    const std::string farTrigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(400, 160, 0, 480, 240, 64)});
    EXPECT_FALSE(pathOf(*levelOf(partedRoom(kDoor + farTrigger)), kWest, kEast).found);
}

// A plain door (no name) opens by touch; a gold key door only with the key, picked up first.
TEST(Travel, TouchDoorAndKeyDoor) {
    const std::string touchDoor = entityText({{"classname", "func_door"}, {"angle", "-1"}}, {boxBrush(-4, -32, 0, 4, 32, 128)});
    const TravelPath touched = pathOf(*levelOf(partedRoom(touchDoor)), kWest, kEast);
    ASSERT_TRUE(touched.found);
    EXPECT_TRUE(has(touched, TravelKind::Door));
    const std::string goldDoor =
        entityText({{"classname", "func_door"}, {"angle", "-1"}, {"spawnflags", "8"}}, {boxBrush(-4, -32, 0, 4, 32, 128)});
    EXPECT_FALSE(pathOf(*levelOf(partedRoom(goldDoor)), kWest, kEast).found);
    const std::string key = entityText({{"classname", "item_key2"}, {"origin", "-400 -200 24"}});
    const TravelPath keyed = pathOf(*levelOf(partedRoom(goldDoor + key)), kWest, kEast);
    ASSERT_TRUE(keyed.found);
    EXPECT_TRUE(has(keyed, TravelKind::Door));
    const auto atKey = std::find_if(keyed.points.begin(), keyed.points.end(),
                                    [](const Vec3& q) { return std::hypot(q.x() + 400, q.y() + 200) < 1.0; });
    EXPECT_NE(atKey, keyed.points.end()) << "the path does not pick up the key";
    // The key beyond the door is no use.
    const std::string farKey = entityText({{"classname", "item_key2"}, {"origin", "400 -200 24"}});
    EXPECT_FALSE(pathOf(*levelOf(partedRoom(goldDoor + farKey)), kWest, kEast).found);
}

// A ledge 160 high over the east half: reached only by the plat beside it.
TEST(Travel, PlatRidesUpToTheLedge) {
    const auto room = ledgeRoom;
    const Vec3 low(-300, 0, 25), high(300, 0, 185);
    EXPECT_FALSE(pathOf(*levelOf(room("")), low, high).found);
    const std::string plat = entityText({{"classname", "func_plat"}}, {boxBrush(-128, -64, 0, 0, 64, 160)});
    const auto level = levelOf(room(plat));
    const TravelPath p = pathOf(*level, low, high);
    ASSERT_TRUE(p.found);
    ASSERT_TRUE(has(p, TravelKind::Plat));
    const auto ride = std::find_if(p.travel.begin(), p.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::Plat; });
    EXPECT_NEAR(ride->seconds, 152.0 / 150.0, 1e-9); // height 160 - 8 at speed 150
    EXPECT_NEAR(ride->to.z(), 184.0, 0.5);
    EXPECT_NEAR(ride->from.z(), 24.0, 0.5);
    // And down again (the plat goes down when stood on at the top).
    const TravelPath down = pathOf(*level, high, low);
    ASSERT_TRUE(down.found);
    // Down, the ledge is dropped off: a drop or the plat, whichever is quicker.
    EXPECT_TRUE(has(down, TravelKind::Drop) || has(down, TravelKind::Plat));
    // A named plat waits at the top for its trigger: not reached from below without one.
    const std::string named = entityText({{"classname", "func_plat"}, {"targetname", "p"}}, {boxBrush(-128, -64, 0, 0, 64, 160)});
    EXPECT_FALSE(pathOf(*levelOf(room(named)), low, high).found);
    const std::string trigger = entityText({{"classname", "trigger_multiple"}, {"target", "p"}}, {boxBrush(-480, 160, 0, -400, 240, 64)});
    EXPECT_TRUE(has(pathOf(*levelOf(room(named + trigger)), low, high), TravelKind::Plat));
}

// A train that waits hidden under the floor (its first corner 100 below, in a thick floor)
// and rises to the ledge: boarded where its top comes out of the floor, ridden up.
TEST(Travel, TrainHiddenUnderTheFloorIsBoardedWhereItComesOut) {
    const auto room = ledgeRoom;
    const Vec3 low(-300, 0, 25), high(300, 0, 185);
    EXPECT_FALSE(pathOf(*levelOf(room("")), low, high).found);
    const std::string train = entityText({{"classname", "func_train"}, {"target", "c1"}}, {boxBrush(-128, -64, 0, 0, 64, 16)}) +
                              entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c2"}, {"origin", "-128 -64 -100"}}) +
                              entityText({{"classname", "path_corner"}, {"targetname", "c2"}, {"target", "c1"}, {"origin", "-128 -64 144"}});
    const TravelPath p = pathOf(*levelOf(room(train)), low, high);
    ASSERT_TRUE(p.found);
    const auto ride = std::find_if(p.travel.begin(), p.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::Train; });
    ASSERT_NE(ride, p.travel.end());
    EXPECT_NEAR(ride->from.z(), 24.0, 0.5); // stepped on from the floor where the top comes out
    EXPECT_NEAR(ride->to.z(), 184.0, 0.5);
    EXPECT_NEAR(ride->seconds, 244.0 / 100.0, 1e-9); // the whole way from the hidden corner, at speed 100
}

// A plat whose top rests in the middle of a deep pool (no floor within a step of it) and
// rises to a ledge: boarded by swimming to it, and the ride is timed with that swim.
TEST(Travel, PlatRestingInTheWaterIsBoardedBySwimmingTimedIn) {
    const std::string text =
        entityText({{"classname", "worldspawn"}},
                   {boxBrush(-528, -272, -420, -128, 272, 0), boxBrush(-128, -272, -420, 128, 272, -400),
                    boxBrush(128, -272, -420, 528, 272, 160), boxBrush(-528, -272, 384, 528, 272, 400),
                    boxBrush(-528, -272, -420, -512, 272, 384), boxBrush(512, -272, -420, 528, 272, 384),
                    boxBrush(-512, -272, -420, 512, -256, 384), boxBrush(-512, 256, -420, 512, 272, 384),
                    boxBrush(-128, -256, -400, 128, 256, -8, "*water1")}) +
        // Raised its top is at the ledge's height; at rest, 280 lower: z -120, 280 over the bottom.
        entityText({{"classname", "func_plat"}, {"height", "280"}}, {boxBrush(0, -64, 140, 128, 64, 160)});
    const auto level = levelOf(text);
    const TravelPath p = pathOf(*level, Vec3(-300, 0, 25), Vec3(300, 0, 185));
    ASSERT_TRUE(p.found);
    const auto ride = std::find_if(p.travel.begin(), p.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::Plat; });
    ASSERT_NE(ride, p.travel.end());
    EXPECT_NEAR(ride->to.z(), 184.0, 0.5);
    const Vec3 onTheTop(64, 0, -120 + 24); // the top's middle at rest, the reference point on it
    const double rise = 280.0 / 150.0;     // func_plat's speed
    // Boarded from a floor of the pool (its side or its bottom 280 below the top), the swim
    // up to the top counted.
    EXPECT_LT(ride->from.x(), 128.0);
    EXPECT_GE(ride->seconds, rise + (onTheTop - ride->from).norm() / kSwimSpeed - 1e-9);
}

namespace {

// A room whose floors x < -128 and x > 128 (top z 0) stand beside a pit 128 deep between
// them (its bottom z -128), closed by walls and a ceiling at 256.
std::vector<std::string> poolRoomBrushes() {
    return {boxBrush(-528, -272, -144, -128, 272, 0),   boxBrush(128, -272, -144, 528, 272, 0),
            boxBrush(-128, -272, -160, 128, 272, -128), boxBrush(-528, -272, 256, 528, 272, 272),
            boxBrush(-528, -272, -144, -512, 272, 256), boxBrush(512, -272, -144, 528, 272, 256),
            boxBrush(-512, -272, -144, 512, -256, 256), boxBrush(-512, 256, -144, 512, 272, 256)};
}

// The pool room parted in the middle by a wall whose opening under the water a named door
// `d` fills; with `trigger`, a trigger_multiple on the west floor fires it.
std::string doorInThePool(bool trigger) {
    std::vector<std::string> brushes = poolRoomBrushes();
    for (const std::string& b : {boxBrush(-8, -256, -128, 8, -64, 256), boxBrush(-8, 64, -128, 8, 256, 256),
                                 boxBrush(-8, -64, 128, 8, 64, 256), boxBrush(-128, -256, -128, -8, 256, -8, "*water1"),
                                 boxBrush(8, -256, -128, 128, 256, -8, "*water1")})
        brushes.push_back(b);
    std::string text = entityText({{"classname", "worldspawn"}}, brushes);
    text += entityText({{"classname", "func_door"}, {"angle", "-1"}, {"targetname", "d"}}, {boxBrush(-8, -64, -128, 8, 64, 128)});
    if (trigger) text += entityText({{"classname", "trigger_multiple"}, {"target", "d"}}, {boxBrush(-480, 160, 0, -400, 240, 64)});
    return text;
}

} // namespace

// A pool between two floors whose walls (128 down to its bottom) no walk or jump climbs:
// the player swims across and water-jumps out onto the other side (the water's top 8 under
// the floors), or out of the pool from its bottom.
TEST(Travel, SwimsAcrossAPoolAndWaterJumpsOut) {
    auto pool = [](bool water) {
        std::vector<std::string> brushes = poolRoomBrushes();
        if (water) brushes.push_back(boxBrush(-128, -256, -128, 128, 256, -8, "*water1"));
        return entityText({{"classname", "worldspawn"}}, brushes);
    };
    const Vec3 left(-300, 0, 25), right(300, 0, 25), bottom(0, 0, -103);
    const auto dry = levelOf(pool(false));
    EXPECT_FALSE(pathOf(*dry, left, right).found) << "no water: the pool is a pit";
    const auto wet = levelOf(pool(true));
    ASSERT_EQ(wet->travel.water.size(), 1u);
    const TravelPath across = pathOf(*wet, left, right);
    ASSERT_TRUE(across.found);
    ASSERT_FALSE(across.travel.empty());
    // It arrives by a water jump (the right floor is above the water), at the swim's speed.
    const auto out = std::find_if(across.travel.begin(), across.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::WaterJump; });
    ASSERT_NE(out, across.travel.end());
    EXPECT_GT(out->to.x(), 100.0);
    // Straight across the middle (the two sides' nearest points nearest both floors'
    // middles), not from one end of the pool's edge.
    EXPECT_LT(std::abs(out->from.y()), 32.0);
    EXPECT_LT(std::abs(out->to.y()), 32.0);
    EXPECT_LT(across.length, 620.0);
    EXPECT_NEAR(out->seconds, (out->to - out->from).norm() / kSwimSpeed, 1e-9);
    const TravelPath up = pathOf(*wet, bottom, right);
    ASSERT_TRUE(up.found);
    EXPECT_TRUE(has(up, TravelKind::WaterJump));
    EXPECT_FALSE(pathOf(*dry, bottom, right).found);
    // Every swim and water jump joins two floors of the body, none a floor to itself.
    int swims = 0;
    for (const TravelLink& l : wet->graph.links) {
        const bool swim = l.kind == TravelKind::Swim || l.kind == TravelKind::WaterJump;
        swims += swim;
        EXPECT_FALSE(swim && l.from == l.to);
    }
    EXPECT_GT(swims, 2);
}

// The compiled world leaves doors out: a swim must not pass a closed door standing in the
// water. The pool is parted by a wall whose opening a named door fills; with nothing to
// fire it there is no way across, with a trigger on the near floor the way goes by it.
TEST(Travel, SwimsWaitForTheDoorsInTheWater) {
    const auto pool = doorInThePool;
    const Vec3 left(-300, 0, 25), right(300, 0, 25);
    const auto shut = levelOf(pool(false));
    ASSERT_FALSE(shut->travel.water.empty());
    EXPECT_FALSE(pathOf(*shut, left, right).found) << "nothing opens the door in the water";
    const auto opened = levelOf(pool(true));
    const TravelPath p = pathOf(*opened, left, right);
    ASSERT_TRUE(p.found);
    EXPECT_TRUE(has(p, TravelKind::Swim) || has(p, TravelKind::WaterJump));
    const Aabb trigger{Vec3(-496, 144, -32), Vec3(-384, 256, 96)};
    EXPECT_TRUE(std::any_of(p.points.begin(), p.points.end(), [&](const Vec3& q) { return trigger.contains(q); }))
        << "the way goes by the trigger first";
}

// Quake 2: a ledge 128 high with a ladder (ladder contents) up its face; no walk, jump or
// drop joins the floor below to the ledge, the ladder does, both ways.
TEST(Travel, LaddersClimbToALedgeAndBackDown) {
    auto q2Box = [](int x0, int y0, int z0, int x1, int y1, int z1, const std::string& contents) {
        std::string b = boxBrush(x0, y0, z0, x1, y1, z1);
        // Quake 2's face lines end in contents, flags and value.
        size_t at = 0;
        while ((at = b.find("WALL 0 0 0 1 1\n", at)) != std::string::npos) {
            b.replace(at, 15, "WALL 0 0 0 1 1 " + contents + " 0 0\n");
            at += 15;
        }
        return b;
    };
    auto room = [&](bool ladder) {
        std::vector<std::string> brushes = {q2Box(-528, -272, -16, 528, 272, 0, "1"),   q2Box(-528, -272, 256, 528, 272, 272, "1"),
                                            q2Box(-528, -272, 0, -512, 272, 256, "1"),  q2Box(512, -272, 0, 528, 272, 256, "1"),
                                            q2Box(-512, -272, 0, 512, -256, 256, "1"),  q2Box(-512, 256, 0, 512, 272, 256, "1"),
                                            q2Box(-512, 128, 0, 512, 256, 128, "1")};
        if (ladder) brushes.push_back(q2Box(-32, 120, 0, 32, 128, 128, "536870913")); // solid | ladder
        return entityText({{"classname", "worldspawn"}}, brushes) +
               entityText({{"classname", "info_player_start"}, {"origin", "0 -100 24"}});
    };
    const Vec3 floor(0, -100, 25), ledge(0, 200, 153);
    EXPECT_FALSE(pathOf(*levelOf(room(false), Game::Quake2), floor, ledge).found);
    const auto level = levelOf(room(true), Game::Quake2);
    ASSERT_EQ(level->travel.ladders.size(), 1u);
    const TravelPath up = pathOf(*level, floor, ledge);
    ASSERT_TRUE(up.found);
    const auto climb = std::find_if(up.travel.begin(), up.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::Ladder; });
    ASSERT_NE(climb, up.travel.end());
    EXPECT_NEAR(climb->from.z(), 24.0, 1.0);
    EXPECT_NEAR(climb->to.z(), 152.0, 1.0);
    EXPECT_GE(climb->seconds, 128.0 / kLadderSpeed - 1e-9);
    const TravelPath down = pathOf(*level, ledge, floor);
    ASSERT_TRUE(down.found); // a drop or the ladder, whichever is quicker
}

// Two rooms with no way between them but a teleporter.
TEST(Travel, TeleporterJoinsClosedRooms) {
    auto room = [](const std::string& more) { // the parting wall has no doorway here
        return entityText({{"classname", "worldspawn"}},
                          {boxBrush(-528, -272, -16, 528, 272, 0), boxBrush(-528, -272, 256, 528, 272, 272),
                           boxBrush(-528, -272, 0, -512, 272, 256), boxBrush(512, -272, 0, 528, 272, 256),
                           boxBrush(-512, -272, 0, 512, -256, 256), boxBrush(-512, 256, 0, 512, 272, 256),
                           boxBrush(-8, -256, 0, 8, 256, 256)}) +
               more;
    };
    EXPECT_FALSE(pathOf(*levelOf(room("")), kWest, kEast).found);
    const std::string teleporter = entityText({{"classname", "trigger_teleport"}, {"target", "there"}}, {boxBrush(-200, -32, 0, -136, 32, 64)}) +
                                   entityText({{"classname", "info_teleport_destination"}, {"targetname", "there"}, {"origin", "200 0 0"}});
    const TravelPath p = pathOf(*levelOf(room(teleporter)), kWest, kEast);
    ASSERT_TRUE(p.found);
    ASSERT_TRUE(has(p, TravelKind::Teleport));
    const auto jump = std::find_if(p.travel.begin(), p.travel.end(), [](const TravelStep& s) { return s.kind == TravelKind::Teleport; });
    EXPECT_EQ(jump->seconds, 0.0);
    EXPECT_NEAR(jump->to.x(), 200.0, 1e-6);
    EXPECT_NEAR(jump->to.z(), 24.0, 0.5);
    EXPECT_LT(p.length, 400.0); // walking to the pad and from the destination, not the teleport's distance
}

// A trigger up in the air is touched by a push's flight through it: a pad on the floor
// throws the player east onto the ledge through a trigger_once 120 over the floor (out of
// reach from it), which fires the door; without the pad nothing does.
TEST(Travel, APushFlightThroughATriggerFiresIt) {
    const std::string trigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(-160, -64, 120, -60, 64, 240)});
    const std::string door = entityText({{"classname", "func_door"}, {"targetname", "d"}, {"angle", "-1"}}, {boxBrush(300, -32, 160, 308, 32, 288)});
    const std::string pad = entityText({{"classname", "trigger_push"}, {"angles", "-60 0 0"}, {"speed", "70"}},
                                       {boxBrush(-200, -32, 0, -136, 32, 32)});
    for (const bool withPad : {false, true}) {
        SCOPED_TRACE(withPad);
        const auto l = levelOf(ledgeRoom(trigger + door + (withPad ? pad : "")));
        const auto opener = std::find_if(l->graph.openers.begin(), l->graph.openers.end(), [](const TravelOpener& o) { return o.entity == 1; });
        ASSERT_NE(opener, l->graph.openers.end());
        const int32_t floor = dropToFloor(l->compiled.onion, *l->graph.mesh, Vec3(-400, 0, 25)).polygon;
        ASSERT_GE(floor, 0);
        const TravelReach reach = travelReach(l->graph, floor);
        EXPECT_EQ(bool(reach.fired[2]), withPad); // the door
        if (!withPad) {
            EXPECT_TRUE(opener->polygons.empty());
            continue;
        }
        // Touched from the pad's takeoff, on the floor, and the route to the ledge flies through it.
        const auto push = std::find_if(l->graph.links.begin(), l->graph.links.end(), [](const TravelLink& k) { return k.kind == TravelKind::Push; });
        ASSERT_NE(push, l->graph.links.end());
        ASSERT_EQ(opener->polygons.size(), 1u);
        EXPECT_EQ(opener->polygons[0], push->from);
        EXPECT_NEAR(opener->points[0].z(), 24.0, 0.5);
        EXPECT_TRUE(has(pathOf(*l, Vec3(-400, 0, 25), Vec3(200, 0, 185)), TravelKind::Push));
    }
}

// A trigger in the air under a ledge is touched by the drop off the ledge through it: a
// slab 60-80 over the floor by the ledge's face fires the door from the ledge (the drop
// passes it), not from the floor below (out of reach from it).
TEST(Travel, ADropThroughATriggerFiresIt) {
    const std::string trigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(-40, -256, 60, 0, 256, 80)});
    const std::string door = entityText({{"classname", "func_door"}, {"targetname", "d"}, {"angle", "-1"}}, {boxBrush(300, -32, 160, 308, 32, 288)});
    const auto l = levelOf(ledgeRoom(trigger + door));
    const TravelGraph& g = l->graph;
    const auto opener = std::find_if(g.openers.begin(), g.openers.end(), [](const TravelOpener& o) { return o.entity == 1; });
    ASSERT_NE(opener, g.openers.end());
    ASSERT_FALSE(opener->polygons.empty());
    const int32_t ledge = dropToFloor(l->compiled.onion, *g.mesh, Vec3(200, 0, 185)).polygon;
    const int32_t floor = dropToFloor(l->compiled.onion, *g.mesh, Vec3(-300, 0, 25)).polygon;
    ASSERT_GE(ledge, 0);
    ASSERT_GE(floor, 0);
    for (const int32_t p : opener->polygons) EXPECT_EQ(p, ledge); // the drop's takeoff only
    EXPECT_TRUE(travelReach(g, ledge).fired[2]);
    EXPECT_FALSE(travelReach(g, floor).fired[2]);
}

// Cutting a mesh at random boxes keeps its floor: every point on the old mesh is on the
// new one at the same height, each new polygon is wholly in or out of each box, and a
// point's neighbourhood is walked to as before (the cut mesh reaches from a start what the
// uncut one does).
TEST(Travel, CutMeshKeepsFloorAndReach) {
    std::mt19937 rng(40);
    const auto level = levelOf(partedRoom());
    const NavMesh& mesh = level->mesh;
    for (int trial = 0; trial < 20; ++trial) {
        std::uniform_real_distribution<double> x(-500, 500), y(-250, 250), size(8, 200);
        std::vector<Aabb> boxes;
        for (int b = 0; b < 3; ++b) {
            const Vec3 c(x(rng), y(rng), 0);
            const Vec3 h(size(rng) / 2, size(rng) / 2, 64);
            boxes.push_back({c - h, c + h});
        }
        const NavMesh cut = cutAtBoxes(mesh, boxes);
        EXPECT_NEAR(cut.area, mesh.area, 1e-6 * mesh.area);
        for (const NavPolygon& p : cut.polygons)
            for (const Aabb& box : boxes) {
                const bool overlapsXY = p.bounds.mins.x() < box.maxs.x() - kNavCutSliver && p.bounds.maxs.x() > box.mins.x() + kNavCutSliver &&
                                        p.bounds.mins.y() < box.maxs.y() - kNavCutSliver && p.bounds.maxs.y() > box.mins.y() + kNavCutSliver;
                if (!overlapsXY) continue;
                // In: inside on both axes.
                EXPECT_TRUE(p.bounds.mins.x() >= box.mins.x() - kNavCutSliver && p.bounds.maxs.x() <= box.maxs.x() + kNavCutSliver &&
                            p.bounds.mins.y() >= box.mins.y() - kNavCutSliver && p.bounds.maxs.y() <= box.maxs.y() + kNavCutSliver);
            }
        // Reach from the west room's middle against brute force: the plain walk over the uncut mesh.
        const int32_t a = dropToFloor(level->compiled.onion, mesh, kWest).polygon, b = dropToFloor(level->compiled.onion, cut, kWest).polygon;
        ASSERT_GE(a, 0);
        ASSERT_GE(b, 0);
        for (int k = 0; k < 50; ++k) {
            const Vec3 q(x(rng), y(rng), 25);
            const int32_t qa = dropToFloor(level->compiled.onion, mesh, q).polygon, qb = dropToFloor(level->compiled.onion, cut, q).polygon;
            EXPECT_EQ(qa >= 0, qb >= 0) << q.transpose();
            if (qa < 0 || qb < 0) continue;
            EXPECT_EQ(findPath(level->compiled.onion, mesh, kWest, q).found, findPath(level->compiled.onion, cut, kWest, q).found);
        }
    }
}

// The walking spawn check: a monster behind a named door is met when the player can fire
// the door, not when nothing does (the check without travel walks through the doorway);
// in order, only when the player reaches the trigger first.
TEST(Travel, WalkingCheckOpensDoorsThePlayerOpens) {
    const std::string start = entityText({{"classname", "info_player_start"}, {"origin", "-300 0 24"}});
    const std::string grunt = entityText({{"classname", "monster_army"}, {"origin", "300 0 24"}});
    const std::string trigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(-480, 160, 0, -400, 240, 64)});
    auto flagged = [&](const std::string& more, bool travel, bool inOrder = false) {
        const auto level = levelOf(partedRoom(kDoor + start + grunt + more));
        SpawnCheckInput in;
        in.world = &level->world;
        in.onion = &level->compiled.onion;
        in.entities = spawnEntities(level->map.entities, 0);
        in.travel = travel ? &level->travel : nullptr;
        in.travelInOrder = inOrder;
        int count = 0;
        for (const SpawnProblem& p : checkSpawns(in)) count += p.kind == SpawnProblemKind::UnreachableWalking;
        return count;
    };
    EXPECT_EQ(flagged("", false), 0); // the doorway is a hole
    EXPECT_EQ(flagged("", true), 1);  // nothing opens the door
    EXPECT_EQ(flagged(trigger, true), 0);
    EXPECT_EQ(flagged(trigger, true, true), 0);
    // A trigger beyond the door: it opens the door by default (something fires it), not
    // when the player must reach it first.
    const std::string farTrigger = entityText({{"classname", "trigger_once"}, {"target", "d"}}, {boxBrush(400, 160, 0, 480, 240, 64)});
    EXPECT_EQ(flagged(farTrigger, true), 0);
    EXPECT_EQ(flagged(farTrigger, true, true), 1);
}

// The walking check swims as travel does: past a door standing in the water only once
// something fires it (its own swims joined the pool's floors through the closed door, so
// a monster beyond it was called met). Without travel the doorway is a hole, swum through.
TEST(Travel, WalkingCheckSwimsWaitForTheDoorsInTheWater) {
    const std::string start = entityText({{"classname", "info_player_start"}, {"origin", "-300 0 24"}});
    const std::string grunt = entityText({{"classname", "monster_army"}, {"origin", "300 0 24"}});
    auto flagged = [&](bool trigger, bool travel) {
        const auto level = levelOf(doorInThePool(trigger) + start + grunt);
        SpawnCheckInput in;
        in.world = &level->world;
        in.onion = &level->compiled.onion;
        in.entities = spawnEntities(level->map.entities, 0);
        in.travel = travel ? &level->travel : nullptr;
        int count = 0;
        for (const SpawnProblem& p : checkSpawns(in)) count += p.kind == SpawnProblemKind::UnreachableWalking;
        return count;
    };
    EXPECT_EQ(flagged(false, false), 0); // no travel: the door's place is open water
    EXPECT_EQ(flagged(false, true), 1);  // nothing opens the door in the water
    EXPECT_EQ(flagged(true, true), 0);   // the trigger on the near floor opens it
}

// Without movers, a travel path is the plain path: same ends, points and length, on random
// rooms of random brushes (the path op's answer on an .obsp is unchanged).
TEST(Travel, WithoutMoversTheTravelPathIsThePlainPath) {
    Rng rng(4040);
    static const TravelLevel kNone;
    int found = 0;
    for (int level = 0; level < 4; ++level) {
        const NavLevel l = compiledNavLevel(navRoom(randomRoomBrushes(rng)));
        const NavMesh mesh = buildNavMesh(l.result.onion, kNavPlayer, l.world.poses[kNavPlayer].nav);
        const TravelGraph graph = buildTravelGraph(l.result.onion, mesh, l.world.poses[kNavPlayer], kNone);
        for (int k = 0; k < 25; ++k) {
            const Vec3 a = navStanding(uniform(rng, 16, 1008), uniform(rng, 16, 496), uniform(rng, 0, 64));
            const Vec3 b = navStanding(uniform(rng, 16, 1008), uniform(rng, 16, 496), uniform(rng, 0, 64));
            const NavPath plain = findPath(l.result.onion, mesh, a, b);
            const TravelPath typed = findTravelPath(l.result.onion, graph, a, b);
            ASSERT_EQ(plain.found, typed.found);
            if (!plain.found) continue;
            ++found;
            EXPECT_EQ(plain.points, typed.points);
            EXPECT_NEAR(plain.length, typed.length, 1e-9);
            for (const TravelStep& s : typed.travel)
                EXPECT_TRUE(s.kind == TravelKind::Walk || s.kind == TravelKind::Step || s.kind == TravelKind::Drop || s.kind == TravelKind::Jump);
        }
    }
    EXPECT_GT(found, 50);
}

// Hostile input: 900 small named doors over the west room's floor, each fired by its own
// trigger in the east room, a relay cycle firing itself, a train with no corners: the
// graph, the reach and a path end quickly.
TEST(Travel, ThousandsOfDoorsAndTriggersEndQuickly) {
    std::string more;
    for (int i = 0; i < 30; ++i)
        for (int j = 0; j < 30; ++j) {
            const int x = -496 + 16 * i, y = -240 + 16 * j, n = 30 * i + j;
            more += entityText({{"classname", "func_door"}, {"targetname", "d" + std::to_string(n)}}, {boxBrush(x, y, 0, x + 4, y + 4, 64)});
            const int tx = 32 + 15 * i, ty = -240 + 16 * j;
            more += entityText({{"classname", "trigger_once"}, {"target", "d" + std::to_string(n)}}, {boxBrush(tx, ty, 0, tx + 8, ty + 8, 64)});
        }
    more += entityText({{"classname", "trigger_relay"}, {"targetname", "loop"}, {"target", "loop"}});
    more += entityText({{"classname", "func_train"}, {"target", "nowhere"}}, {boxBrush(100, 100, 0, 132, 132, 16)});
    const auto begin = std::chrono::steady_clock::now();
    const auto level = levelOf(partedRoom(more));
    const TravelPath p = pathOf(*level, kEast, kWest);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    EXPECT_TRUE(p.found);
    EXPECT_LT(seconds, 30.0);
    std::printf("900 doors and triggers: %zu polygons (uncut %zu), %zu gates, %.2f s\n", level->graph.mesh->polygons.size(),
                level->mesh.polygons.size(), level->graph.gates.size(), seconds);
}

// id_e1m1: from the player start to the exit (trigger_changelevel): through the first
// doors, down on the bridge t1 (a door its button lowers with the player on it), through
// door t10 once its three buttons are pressed; and from the start up the lift (entity 70)
// to the floor only it reaches, and on from there to the exit (docs/movers.md lists the
// travel).
TEST(Travel, IdE1m1StartToExit) {
    const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m1.map");
    ASSERT_TRUE(read.ok());
    Level l;
    l.map = *read.map;
    l.world = worldFromMap(l.map);
    l.compiled = compileWorld(l.world);
    l.travel = travelLevelOf(l.map);
    l.mesh = buildNavMesh(l.compiled.onion, kPlayer, l.world.poses[kPlayer].nav);
    l.graph = buildTravelGraph(l.compiled.onion, l.mesh, l.world.poses[kPlayer], l.travel);
    const Vec3 start(480, -352, 88), exit(1312, 548, -250), liftTop(-544, 2606, 56);
    auto show = [](const char* name, const TravelPath& p) {
        std::printf("%s: length %.1f, %.2f s, %zu points\n", name, p.length, p.seconds, p.points.size());
        for (const TravelStep& s : p.travel)
            std::printf("  %-8s %8.1f %8.1f %8.1f -> %8.1f %8.1f %8.1f  %6.2f s  entity %d\n", travelKindName(s.kind), s.from.x(), s.from.y(),
                        s.from.z(), s.to.x(), s.to.y(), s.to.z(), s.seconds, s.entity);
    };
    auto entitiesOf = [](const TravelPath& p, TravelKind kind) {
        std::vector<int> out;
        for (const TravelStep& s : p.travel)
            if (s.kind == kind) out.push_back(s.entity);
        return out;
    };
    const TravelPath toExit = pathOf(l, start, exit);
    show("start to exit", toExit);
    ASSERT_TRUE(toExit.found);
    // Across the bridge t2 (entity 83, a START_OPEN door that its button 88 slides out
    // into its drawn place) and through t10 (entity 215), which its three buttons open: the
    // path presses them first.
    EXPECT_EQ(entitiesOf(toExit, TravelKind::Door), (std::vector<int>{14, 29, 46, 83, 215}));
    EXPECT_NEAR(toExit.seconds, stepSeconds(toExit), 1e-9);
    const TravelPath toLift = pathOf(l, start, liftTop);
    show("start up the lift", toLift);
    ASSERT_TRUE(toLift.found);
    EXPECT_EQ(entitiesOf(toLift, TravelKind::Plat), (std::vector<int>{70}));
    EXPECT_EQ(entitiesOf(toLift, TravelKind::Door), (std::vector<int>{14, 29, 46}));
    const TravelPath onToExit = pathOf(l, liftTop, exit);
    show("lift top to exit", onToExit);
    EXPECT_TRUE(onToExit.found);
    // Without the movers' travel the upper floor is not reached: only the lift goes there.
    static const TravelLevel kNone;
    const TravelGraph plain = buildTravelGraph(l.compiled.onion, l.mesh, l.world.poses[kPlayer], kNone);
    EXPECT_FALSE(findTravelPath(l.compiled.onion, plain, start, liftTop).found);
}

// The mover model (core/movers): motion, timing, spawn states and links by the games'
// rules on small maps written here, and id_e1m1's doors and lift.
#include "mover_maps.h"

#include "io/map_reader.h"
#include "movers/build_movers.h"
#include "movers/entity_graph.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

MapFile parse(const std::string& text, std::optional<Game> game = Game::Quake) {
    MapReadResult r = readMap(text, "movers.map", game);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? *r.map : MapFile{};
}

LevelMovers moversOf(const std::string& entities, std::optional<Game> game = Game::Quake) {
    return buildMovers(parse(worldText() + entities, game));
}

// A box 64 wide (x), 16 deep (y), 128 high (z) at the origin: a door leaf.
std::string leaf() { return boxBrush(0, 0, 0, 64, 16, 128); }

void expectNear(const Vec3& actual, const Vec3& expected, const std::string& what) {
    EXPECT_LT((actual - expected).norm(), 1e-9) << what << ": " << actual.transpose() << " expected "
                                                << expected.transpose();
}

} // namespace

TEST(MoverModel, DoorMovesAlongItsAngleBySizeLessLip) {
    struct Case {
        const char* angle;
        Vec3 open;
    };
    // 64 x 16 x 128 less the default lip 8 along each direction.
    const Case cases[] = {{"0", {56, 0, 0}},  {"90", {0, 8, 0}},   {"180", {-56, 0, 0}},
                          {"270", {0, -8, 0}}, {"-1", {0, 0, 120}}, {"-2", {0, 0, -120}}};
    for (const Case& c : cases) {
        const LevelMovers level = moversOf(entityText({{"classname", "func_door"}, {"angle", c.angle}}, {leaf()}));
        ASSERT_EQ(level.movers.size(), 1u);
        const Mover& door = level.movers[0];
        EXPECT_EQ(door.kind, MoverKind::Door);
        EXPECT_EQ(door.entity, 1);
        expectNear(door.offsetAt(MoverState::closed()), Vec3::Zero(), std::string("closed, angle ") + c.angle);
        expectNear(door.offsetAt(MoverState::open()), c.open, std::string("open, angle ") + c.angle);
        EXPECT_EQ(door.speed, 100.0);
        EXPECT_EQ(door.wait, 3.0);
        EXPECT_EQ(door.spawn, MoverState::closed());
        EXPECT_TRUE(level.notes.empty());
    }
}

TEST(MoverModel, DoorKeysLipSpeedWaitAndFlags) {
    const LevelMovers level = moversOf(
        entityText({{"classname", "func_door"}, {"angle", "-1"}, {"lip", "16"}, {"speed", "250"}, {"wait", "-1"}},
                   {leaf()}) +
        entityText({{"classname", "func_door"}, {"angle", "-1"}, {"lip", "0"}, {"spawnflags", "8"}},
                   {boxBrush(500, 0, 0, 564, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"spawnflags", "16"}}, {boxBrush(1000, 0, 0, 1064, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"spawnflags", "56"}}, {boxBrush(1500, 0, 0, 1564, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 4u);
    expectNear(level.movers[0].offsetAt(MoverState::open()), {0, 0, 112}, "lip 16");
    EXPECT_EQ(level.movers[0].speed, 250.0);
    EXPECT_EQ(level.movers[0].wait, -1.0);
    EXPECT_EQ(level.movers[0].motion.waits.back(), -1.0);
    // QuakeC's `if (!self.lip) self.lip = 8`: a lip of 0 is the default.
    expectNear(level.movers[1].offsetAt(MoverState::open()), {0, 0, 120}, "lip 0");
    EXPECT_EQ(level.movers[1].key, KeyKind::Gold);
    EXPECT_EQ(level.movers[1].wait, -1.0); // unlocked, it stays open
    EXPECT_EQ(level.movers[2].key, KeyKind::Silver);
    // Gold and silver and TOGGLE: doors.qc sets gold last; TOGGLE never closes by itself.
    EXPECT_EQ(level.movers[3].key, KeyKind::Gold);
    EXPECT_EQ(level.movers[3].motion.waits.back(), -1.0);
}

TEST(MoverModel, StartOpenDoorRestsOpenAndOpensToItsFilePosition) {
    const LevelMovers level =
        moversOf(entityText({{"classname", "func_door"}, {"angle", "0"}, {"spawnflags", "1"}}, {leaf()}));
    ASSERT_EQ(level.movers.size(), 1u);
    const Mover& door = level.movers[0];
    EXPECT_EQ(door.spawn, MoverState::closed());
    expectNear(door.offsetAt(door.spawn), {56, 0, 0}, "spawn");
    expectNear(door.offsetAt(MoverState::open()), Vec3::Zero(), "open");
    const Aabb swept = door.sweptBounds();
    expectNear(swept.mins, {0, 0, 0}, "swept mins");
    expectNear(swept.maxs, {120, 16, 128}, "swept maxs");
}

TEST(MoverModel, TouchingDoorsLinkUnlessDontLink) {
    const LevelMovers level = moversOf(
        entityText({{"classname", "func_door"}}, {boxBrush(0, 0, 0, 64, 16, 128)}) +
        entityText({{"classname", "func_wall"}}, {boxBrush(64, 0, 0, 80, 16, 128)}) +
        // touches the first door's face at x = 64 (closed boxes touch)
        entityText({{"classname", "func_door"}, {"angle", "180"}}, {boxBrush(64, 0, 0, 128, 16, 128)}) +
        // touches the second door: linked through it
        entityText({{"classname", "func_door"}}, {boxBrush(128, 16, 0, 160, 32, 128)}) +
        // touches the first but DONT_LINK
        entityText({{"classname", "func_door"}, {"spawnflags", "4"}}, {boxBrush(-64, 0, 0, 0, 16, 128)}) +
        // far away
        entityText({{"classname", "func_door"}}, {boxBrush(400, 0, 0, 464, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 6u);
    EXPECT_EQ(level.group(0), (std::vector<int>{0, 2, 3}));
    EXPECT_EQ(level.group(3), (std::vector<int>{0, 2, 3}));
    EXPECT_EQ(level.group(1), std::vector<int>{1}); // a func_wall never links
    EXPECT_EQ(level.group(4), std::vector<int>{4});
    EXPECT_EQ(level.group(5), std::vector<int>{5});
    EXPECT_EQ(level.movers[3].master, 0);
    EXPECT_EQ(level.forEntity(4), &level.movers[3]);
    EXPECT_EQ(level.forEntity(0), nullptr);
}

TEST(MoverModel, TouchFields) {
    // Two linked leaves 0..128 x 0..16 x 0..128: Quake's field is their box grown by 60
    // across and 8 up and down, on both; a named door, a DONT_LINK door and a key door get
    // none; a button is touched itself, unless it has health.
    const LevelMovers level = moversOf(
        entityText({{"classname", "func_door"}}, {leaf()}) +
        entityText({{"classname", "func_door"}}, {boxBrush(64, 0, 0, 128, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"targetname", "t"}}, {boxBrush(400, 0, 0, 464, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"spawnflags", "4"}}, {boxBrush(600, 0, 0, 664, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"spawnflags", "8"}}, {boxBrush(800, 0, 0, 864, 16, 128)}) +
        entityText({{"classname", "func_button"}}, {boxBrush(1000, 0, 0, 1008, 16, 16)}) +
        entityText({{"classname", "func_button"}, {"health", "5"}}, {boxBrush(1100, 0, 0, 1108, 16, 16)}) +
        // a plat 96 x 96 x 128, 120 travel: its inside trigger 25 in, from 120 below its
        // top - 8 to 8 over it; a narrow one (48 wide in y) gets a 1-unit sliver in y.
        entityText({{"classname", "func_plat"}}, {boxBrush(2000, 0, -128, 2096, 96, 0)}) +
        entityText({{"classname", "func_plat"}}, {boxBrush(2200, 0, -128, 2296, 48, 0)}));
    ASSERT_EQ(level.movers.size(), 9u);
    expectNear(level.movers[0].touchBounds.mins, {-60, -60, -8}, "field mins");
    expectNear(level.movers[0].touchBounds.maxs, {188, 76, 136}, "field maxs");
    expectNear(level.movers[1].touchBounds.mins, {-60, -60, -8}, "the second leaf's field");
    EXPECT_TRUE(level.movers[2].touchBounds.empty());
    EXPECT_TRUE(level.movers[3].touchBounds.empty());
    EXPECT_TRUE(level.movers[4].touchBounds.empty());
    expectNear(level.movers[5].touchBounds.mins, {1000, 0, 0}, "button");
    EXPECT_TRUE(level.movers[6].touchBounds.empty());
    expectNear(level.movers[7].touchBounds.mins, {2025, 25, -120}, "plat trigger mins");
    expectNear(level.movers[7].touchBounds.maxs, {2071, 71, 8}, "plat trigger maxs");
    expectNear(level.movers[8].touchBounds.mins, {2225, 24, -120}, "narrow plat trigger mins");
    expectNear(level.movers[8].touchBounds.maxs, {2271, 25, 8}, "narrow plat trigger maxs");
}

TEST(MoverModel, PlatRestsAtTheBottomUnlessNamed) {
    const std::string plat = boxBrush(0, 0, -128, 64, 64, 0);
    const LevelMovers level =
        moversOf(entityText({{"classname", "func_plat"}}, {plat}) +
                 entityText({{"classname", "func_plat"}, {"targetname", "lift"}}, {boxBrush(200, 0, -128, 264, 64, 0)}) +
                 entityText({{"classname", "func_plat"}, {"height", "64"}}, {boxBrush(400, 0, -128, 464, 64, 0)}));
    ASSERT_EQ(level.movers.size(), 3u);
    const Mover& p = level.movers[0];
    EXPECT_EQ(p.kind, MoverKind::Plat);
    EXPECT_EQ(p.spawn, MoverState::open());
    expectNear(p.offsetAt(p.spawn), {0, 0, -120}, "bottom: its size less 8");
    expectNear(p.offsetAt(MoverState::closed()), Vec3::Zero(), "top");
    EXPECT_EQ(p.speed, 150.0);
    EXPECT_EQ(level.movers[1].spawn, MoverState::closed());
    expectNear(level.movers[2].offsetAt(MoverState::open()), {0, 0, -64}, "height 64");
}

TEST(MoverModel, ButtonIsPressedInByItsSizeLessFour) {
    const LevelMovers level =
        moversOf(entityText({{"classname", "func_button"}, {"angle", "180"}, {"target", "t1"}}, {boxBrush(0, 0, 32, 8, 32, 64)}));
    ASSERT_EQ(level.movers.size(), 1u);
    const Mover& b = level.movers[0];
    EXPECT_EQ(b.kind, MoverKind::Button);
    expectNear(b.offsetAt(MoverState::open()), {-4, 0, 0}, "pressed");
    EXPECT_EQ(b.speed, 40.0);
    EXPECT_EQ(b.wait, 1.0);
    EXPECT_EQ(b.target, "t1");
}

TEST(MoverModel, SecretDoorGoesAsideThenBack) {
    // Facing +x (angle 0): right is -y, so it first slides 16 (its depth) to -y, then 64
    // (its length along +x) forward; 1ST_LEFT slides to +y; 1ST_DOWN drops by its height.
    const std::string slab = boxBrush(0, 0, 0, 64, 16, 128);
    const LevelMovers level =
        moversOf(entityText({{"classname", "func_door_secret"}}, {slab}) +
                 entityText({{"classname", "func_door_secret"}, {"spawnflags", "2"}}, {boxBrush(200, 0, 0, 264, 16, 128)}) +
                 entityText({{"classname", "func_door_secret"}, {"spawnflags", "4"}}, {boxBrush(400, 0, 0, 464, 16, 128)}) +
                 entityText({{"classname", "func_door_secret"}, {"t_width", "40"}, {"t_length", "10"}},
                            {boxBrush(600, 0, 0, 664, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 4u);
    const std::vector<Vec3> right = {{0, 0, 0}, {0, -16, 0}, {64, -16, 0}};
    const std::vector<Vec3> left = {{0, 0, 0}, {0, 16, 0}, {64, 16, 0}};
    const std::vector<Vec3> down = {{0, 0, 0}, {0, 0, -128}, {64, 0, -128}};
    const std::vector<Vec3> keyed = {{0, 0, 0}, {0, -40, 0}, {10, -40, 0}};
    EXPECT_EQ(level.movers[0].motion.stops, right);
    EXPECT_EQ(level.movers[1].motion.stops, left);
    EXPECT_EQ(level.movers[2].motion.stops, down);
    EXPECT_EQ(level.movers[3].motion.stops, keyed);
    EXPECT_EQ(level.movers[0].speed, 50.0);
    EXPECT_EQ(level.movers[0].wait, 5.0);
    // Halfway by length: 16 + 64 = 80 long, 40 along is 24 into the second leg.
    expectNear(level.movers[0].offsetAt(MoverState::at(0.5)), {24, -16, 0}, "half way");
}

TEST(MoverModel, TrainPutsItsMinsOnEachCornerAndLoops) {
    const LevelMovers level = moversOf(
        entityText({{"classname", "func_train"}, {"target", "c1"}, {"speed", "64"}}, {boxBrush(0, 0, 0, 32, 32, 16)}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c2"}, {"origin", "100 0 0"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c2"}, {"target", "c3"}, {"origin", "100 200 0"}, {"wait", "2"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c3"}, {"target", "c2"}, {"origin", "0 200 50"}}));
    ASSERT_EQ(level.movers.size(), 1u);
    const Mover& t = level.movers[0];
    EXPECT_EQ(t.kind, MoverKind::Train);
    const std::vector<Vec3> stops = {{100, 0, 0}, {100, 200, 0}, {0, 200, 50}};
    EXPECT_EQ(t.motion.stops, stops);
    EXPECT_EQ(t.motion.waits, (std::vector<double>{0, 2, 0}));
    EXPECT_EQ(t.motion.loopsTo, 1); // c3 goes back to c2: the loop leaves c1 behind
    EXPECT_EQ(t.spawn, MoverState::atCorner(0));
    expectNear(t.offsetAt(t.spawn), {100, 0, 0}, "spawn");
    expectNear(t.offsetAt(MoverState::atCorner(2)), {0, 200, 50}, "corner 2");
    expectNear(t.offsetAt(MoverState::atCorner(99)), {0, 200, 50}, "corner past the end clamps");
    EXPECT_EQ(t.speed, 64.0);
    EXPECT_TRUE(level.notes.empty());
}

TEST(MoverModel, HostileTrainPathsEndWithNotesNotHangs) {
    const std::string box = boxBrush(0, 0, 0, 32, 32, 16);
    const LevelMovers level = moversOf(
        // no target at all
        entityText({{"classname", "func_train"}}, {box}) +
        // a corner naming itself: one stop, looping on itself
        entityText({{"classname", "func_train"}, {"target", "self"}}, {box}) +
        entityText({{"classname", "path_corner"}, {"targetname", "self"}, {"target", "self"}, {"origin", "8 8 8"}}) +
        // a target naming nothing: no corners, the train stays where it is drawn
        entityText({{"classname", "func_train"}, {"target", "nowhere"}}, {box}) +
        // a chain that ends: a note, no loop
        entityText({{"classname", "func_train"}, {"target", "end1"}}, {box}) +
        entityText({{"classname", "path_corner"}, {"targetname", "end1"}, {"target", "end2"}, {"origin", "0 0 0"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "end2"}, {"origin", "0 64 0"}}) +
        // NaN and text speeds: the default, with a note
        entityText({{"classname", "func_door"}, {"speed", "nan"}, {"wait", "inf"}}, {boxBrush(500, 0, 0, 564, 16, 128)}) +
        entityText({{"classname", "func_door"}, {"speed", "fast"}, {"angle", "1e999"}}, {boxBrush(700, 0, 0, 764, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 6u);
    EXPECT_EQ(level.movers[0].motion.stops, std::vector<Vec3>{Vec3::Zero()});
    EXPECT_EQ(level.movers[1].motion.stops, std::vector<Vec3>{Vec3(8, 8, 8)});
    EXPECT_EQ(level.movers[1].motion.loopsTo, 0);
    EXPECT_EQ(level.movers[2].motion.stops, std::vector<Vec3>{Vec3::Zero()});
    EXPECT_EQ(level.movers[3].motion.stops, (std::vector<Vec3>{{0, 0, 0}, {0, 64, 0}}));
    EXPECT_EQ(level.movers[3].motion.loopsTo, -1);
    EXPECT_EQ(level.movers[4].speed, 100.0);
    EXPECT_EQ(level.movers[4].wait, 3.0);
    EXPECT_EQ(level.movers[5].speed, 100.0);
    expectNear(level.movers[5].offsetAt(MoverState::open()), {56, 0, 0}, "a bad angle is yaw 0");
    std::vector<int> noted;
    for (const MoverNote& n : level.notes) noted.push_back(n.entity);
    // entity numbers: 1 the first train, 7 end2 (no target), 8 and 9 the doors (twice each)
    EXPECT_EQ(noted, (std::vector<int>{1, 7, 8, 8, 9, 9}));
    for (const MoverNote& n : level.notes) EXPECT_FALSE(n.message.empty());
}

TEST(MoverModel, TimingOfDoorsPlatsAndTrains) {
    const LevelMovers level = moversOf(
        entityText({{"classname", "func_door"}}, {leaf()}) + // 56 along x at 100, waits 3
        entityText({{"classname", "func_plat"}}, {boxBrush(200, 0, -128, 264, 64, 0)}) + // 120 at 150
        entityText({{"classname", "func_train"}, {"target", "c1"}, {"speed", "64"}}, {boxBrush(0, 0, 0, 32, 32, 16)}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c2"}, {"origin", "100 0 0"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c2"}, {"target", "c3"}, {"origin", "100 200 0"}, {"wait", "2"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c3"}, {"target", "c2"}, {"origin", "0 200 50"}}) +
        entityText({{"classname", "func_door"}, {"speed", "nan"}, {"wait", "-1"}}, {boxBrush(900, 0, 0, 964, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 4u);
    const Mover& door = level.movers[0];
    EXPECT_DOUBLE_EQ(door.secondsBetween(MoverState::closed(), MoverState::open()), 0.56);
    EXPECT_DOUBLE_EQ(door.secondsBetween(MoverState::open(), MoverState::at(0.5)), 0.28);
    EXPECT_EQ(door.secondsBetween(MoverState::open(), MoverState::open()), 0.0);
    // Opening, open for 3 s, closing, and again.
    expectNear(door.offsetAtTime(0.28), {28, 0, 0}, "opening");
    expectNear(door.offsetAtTime(2.0), {56, 0, 0}, "open");
    expectNear(door.offsetAtTime(0.56 + 3 + 0.14), {42, 0, 0}, "closing");
    expectNear(door.offsetAtTime(4.12 + 0.28), {28, 0, 0}, "the next cycle");
    expectNear(door.offsetAtTime(-1), Vec3::Zero(), "before the start");

    // The plat rests at the bottom: up in 0.8 s, 3 s at the top, down in 0.8 s.
    const Mover& plat = level.movers[1];
    expectNear(plat.offsetAtTime(0), {0, 0, -120}, "plat at rest");
    expectNear(plat.offsetAtTime(0.4), {0, 0, -60}, "plat rising");
    expectNear(plat.offsetAtTime(2.0), Vec3::Zero(), "plat at the top");
    expectNear(plat.offsetAtTime(4.6 + 0.4), {0, 0, -60}, "plat rising again");

    // The train: 200 to c2 (3.125 s), 2 s there, 111.8 to c3, back round its loop to c2.
    const Mover& train = level.movers[2];
    const double leg = std::sqrt(100.0 * 100.0 + 50.0 * 50.0) / 64.0;
    expectNear(train.offsetAtTime(1.5625), {100, 100, 0}, "half way to c2");
    expectNear(train.offsetAtTime(4.0), {100, 200, 0}, "waiting at c2");
    expectNear(train.offsetAtTime(5.125 + leg / 2), {50, 200, 25}, "half way to c3");
    const double period = 2 * leg + 2;
    expectNear(train.offsetAtTime(5.125 + 3 * period + leg / 2), {50, 200, 25}, "three loops later");
    EXPECT_NEAR(train.secondsBetween(MoverState::atCorner(0), MoverState::atCorner(2)), 3.125 + 2 + leg, 1e-12);
    EXPECT_NEAR(train.secondsBetween(MoverState::atCorner(2), MoverState::atCorner(1)), leg, 1e-12);
    EXPECT_NEAR(train.secondsBetween(MoverState::atCorner(2), MoverState::atCorner(2)), 0.0, 1e-12);
    EXPECT_EQ(train.secondsBetween(MoverState::atCorner(1), MoverState::atCorner(0)), std::numeric_limits<double>::infinity());

    // No speed: never moves; a wait of -1 would have kept it open.
    const Mover& stuck = level.movers[3];
    EXPECT_EQ(stuck.speed, 100.0); // "nan" is the default...
    expectNear(stuck.offsetAtTime(100.0), {56, 0, 0}, "opens once and stays");
    Mover still = stuck;
    still.speed = std::numeric_limits<double>::quiet_NaN();
    expectNear(still.offsetAtTime(100.0), Vec3::Zero(), "no speed: where it spawns");
    EXPECT_EQ(still.secondsBetween(MoverState::closed(), MoverState::open()), std::numeric_limits<double>::infinity());
}

// offsetAtTime against a brute-force run: the mover stepped 1 ms at a time towards its
// next stop, waiting out each stop's wait, on random trains (chains with and without loops)
// and random doors.
TEST(MoverModel, TimingAgreesWithASteppedRun) {
    std::mt19937 random(4041);
    std::uniform_real_distribution<double> coordinate(-300.0, 300.0), speedOf(20.0, 400.0), waitOf(0.0, 3.0);
    constexpr double kStep = 1e-3, kRunSeconds = 20.0;
    for (int trial = 0; trial < 60; ++trial) {
        Mover m;
        m.kind = trial % 3 == 0 ? MoverKind::Door : MoverKind::Train;
        m.speed = speedOf(random);
        const int stops = m.kind == MoverKind::Door ? 2 + trial % 2 : 1 + int(random() % 5);
        m.motion.stops.clear();
        m.motion.waits.clear();
        for (int i = 0; i < stops; ++i) {
            m.motion.stops.push_back(i == 0 && m.kind == MoverKind::Door ? Vec3::Zero()
                                                                          : Vec3(coordinate(random), coordinate(random), coordinate(random)));
            m.motion.waits.push_back(random() % 4 == 0 ? 0.0 : waitOf(random));
        }
        if (m.kind == MoverKind::Door) m.motion.waits.front() = 0.0;
        m.motion.loopsTo = m.kind == MoverKind::Train && random() % 3 != 0 ? int(random() % size_t(stops)) : -1;
        m.spawn = m.kind == MoverKind::Train ? MoverState::atCorner(0) : MoverState::closed();
        // The stepped run: the stops it heads for, in order.
        auto next = [&](int at, int& direction) {
            const int last = stops - 1;
            if (m.kind == MoverKind::Train) return at < last ? at + 1 : m.motion.loopsTo;
            if (at + direction < 0 || at + direction > last) direction = -direction;
            return at + direction;
        };
        Vec3 position = m.motion.stops[0];
        int at = 0, direction = 1, target = next(at, direction);
        double waiting = 0.0;
        bool stopped = target < 0;
        for (int step = 1; double(step) * kStep <= kRunSeconds; ++step) {
            double left = kStep;
            while (left > 0.0 && !stopped) {
                if (waiting > 0.0) {
                    const double w = std::min(waiting, left);
                    waiting -= w;
                    left -= w;
                    continue;
                }
                const Vec3 to = m.motion.stops[size_t(target)];
                const double distance = (to - position).norm(), reach = m.speed * left;
                if (reach < distance) {
                    position += (to - position) * (reach / distance);
                    left = 0.0;
                } else {
                    position = to;
                    left -= distance / m.speed;
                    at = target;
                    const double wait = m.motion.waits[size_t(at)];
                    if (wait < 0.0) stopped = true;
                    waiting = wait;
                    target = next(at, direction);
                    // The end of a chain, or a corner that leads to itself without a wait: it stays.
                    if (target < 0 || (target == at && waiting <= 0.0)) stopped = true;
                }
            }
            if (step % 97 == 0) {
                const double t = double(step) * kStep;
                // Within the step's travel (and a little rounding over 20,000 steps).
                ASSERT_LT((m.offsetAtTime(t) - position).norm(), m.speed * kStep * 2 + 1e-6)
                    << "trial " << trial << " at " << t << " s: " << m.offsetAtTime(t).transpose() << " stepped "
                    << position.transpose();
            }
        }
    }
}

TEST(MoverModel, StatesParseFormatAndClamp) {
    for (const char* text : {"closed", "open", "corner 0", "corner 12", "0.25", "0", "1"}) {
        const std::optional<MoverState> s = parseMoverState(text);
        ASSERT_TRUE(s) << text;
        EXPECT_EQ(formatMoverState(*s), text);
    }
    for (const char* bad : {"", "opened", "corner", "corner -1", "corner 1x", "1.5", "-0.1", "nan", "inf", "0.5 "})
        EXPECT_FALSE(parseMoverState(bad)) << bad;

    Mover m;
    m.motion.stops = {{0, 0, 0}, {10, 0, 0}, {10, 30, 0}};
    m.bounds = {Vec3(0, 0, 0), Vec3(1, 1, 1)};
    expectNear(m.offsetAt(MoverState::at(std::numeric_limits<double>::quiet_NaN())), Vec3::Zero(), "NaN is closed");
    expectNear(m.offsetAt(MoverState::at(std::numeric_limits<double>::infinity())), {10, 30, 0}, "inf is open");
    expectNear(m.offsetAt(MoverState::at(-3)), Vec3::Zero(), "below 0");
    expectNear(m.offsetAt(MoverState::atCorner(-5)), Vec3::Zero(), "corner below 0");
    // Against brute force: walk the polyline in small steps and compare.
    std::mt19937 random(40);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 200; ++i) {
        const double f = unit(random);
        const double along = f * 40.0; // total length 10 + 30
        const Vec3 expected = along <= 10.0 ? Vec3(along, 0, 0) : Vec3(10, along - 10.0, 0);
        expectNear(m.offsetAt(MoverState::at(f)), expected, "fraction " + std::to_string(f));
        const Aabb b = m.boundsAt(MoverState::at(f));
        expectNear(b.mins, expected, "bounds at a fraction");
    }
}

TEST(MoverModel, StaticObjectsAndIllusionaryBrushes) {
    const LevelMovers level =
        moversOf(entityText({{"classname", "func_wall"}}, {leaf()}) +
                 entityText({{"classname", "func_illusionary"}}, {boxBrush(100, 0, 0, 164, 16, 128)}) +
                 entityText({{"classname", "trigger_multiple"}, {"target", "x"}}, {boxBrush(200, 0, 0, 264, 16, 128)}) +
                 entityText({{"classname", "func_group"}}, {boxBrush(300, 0, 0, 364, 16, 128)}));
    ASSERT_EQ(level.movers.size(), 2u); // triggers and groups are not objects
    EXPECT_EQ(level.movers[0].kind, MoverKind::Static);
    EXPECT_EQ(level.movers[0].motion.stops, std::vector<Vec3>{Vec3::Zero()});
    EXPECT_EQ(level.movers[0].brushes[0].contents, BrushContents::Solid);
    EXPECT_EQ(level.movers[1].brushes[0].contents, BrushContents::NonSolid);
    expectNear(level.movers[1].offsetAt(MoverState::open()), Vec3::Zero(), "static never moves");
}

TEST(MoverModel, OtherGamesRules) {
    // Half-Life: its centre on the corner; doors travel size - 2 less a lip of 0.
    const std::string train = entityText({{"classname", "func_train"}, {"target", "p"}}, {boxBrush(0, 0, 0, 32, 32, 16)}) +
                              entityText({{"classname", "path_corner"}, {"targetname", "p"}, {"target", "p"}, {"origin", "100 100 100"}}) +
                              entityText({{"classname", "func_door"}, {"angle", "-1"}}, {leaf()});
    const LevelMovers hl = moversOf(train, Game::HalfLife);
    ASSERT_EQ(hl.movers.size(), 2u);
    expectNear(hl.movers[0].offsetAt(MoverState::atCorner(0)), {84, 84, 92}, "Half-Life train");
    expectNear(hl.movers[1].offsetAt(MoverState::open()), {0, 0, 126}, "Half-Life door");
    // Quake 2: doors of one team link, touching or not; plats default to 200 a second.
    const LevelMovers q2 = moversOf(
        entityText({{"classname", "func_door"}, {"team", "a"}}, {leaf()}) +
        entityText({{"classname", "func_door"}, {"team", "a"}}, {boxBrush(500, 0, 0, 564, 16, 128)}) +
        entityText({{"classname", "func_door"}}, {boxBrush(564, 0, 0, 600, 16, 128)}) +
        entityText({{"classname", "func_plat"}}, {boxBrush(800, 0, -64, 864, 64, 0)}),
        Game::Quake2);
    ASSERT_EQ(q2.movers.size(), 4u);
    EXPECT_EQ(q2.group(0), (std::vector<int>{0, 1}));
    EXPECT_EQ(q2.group(2), std::vector<int>{2}); // touching, but Quake 2 links by team only
    EXPECT_EQ(q2.movers[3].speed, 200.0);
    EXPECT_FALSE(moverKindOf(Game::Quake, "func_door_rotating"));
    EXPECT_EQ(moverKindOf(Game::HalfLife, "FUNC_DOOR_ROTATING"), MoverKind::Static);
}

TEST(MoverModel, OriginBrushesAreNotPartOfTheMover) {
    // Half-Life: an ORIGIN brush far from the leaf neither widens the door nor collides.
    const LevelMovers hl = moversOf(
        entityText({{"classname", "func_door"}, {"angle", "-1"}}, {leaf(), boxBrush(500, 500, 500, 516, 516, 516, "ORIGIN")}),
        Game::HalfLife);
    ASSERT_EQ(hl.movers.size(), 1u);
    expectNear(hl.movers[0].bounds.maxs, {64, 16, 128}, "bounds without the origin brush");
    expectNear(hl.movers[0].offsetAt(MoverState::open()), {0, 0, 126}, "travel of the leaf alone");
    EXPECT_EQ(hl.movers[0].brushes[1].contents, BrushContents::NonSolid);
    // Quake 3: a train's origin brush centre (8, 8, 8) sits on the corner.
    const LevelMovers q3 = moversOf(
        entityText({{"classname", "func_train"}, {"target", "p"}},
                   {boxBrush(0, 0, 0, 32, 32, 16, "base/wall"), boxBrush(0, 0, 0, 16, 16, 16, "common/origin")}) +
            entityText({{"classname", "path_corner"}, {"targetname", "p"}, {"target", "p"}, {"origin", "100 100 100"}}),
        Game::Quake3);
    ASSERT_EQ(q3.movers.size(), 1u);
    expectNear(q3.movers[0].offsetAt(MoverState::atCorner(0)), {92, 92, 92}, "Quake 3 train");
}

TEST(MoverModel, ThousandsOfTouchingDoorsLinkInOneGroupQuickly) {
    // 3,000 doors in a row, each touching the next: one group, found by the sweep.
    constexpr int kDoors = 3000;
    std::string text;
    for (int i = 0; i < kDoors; ++i)
        text += entityText({{"classname", "func_door"}}, {boxBrush(i * 16, 0, 0, i * 16 + 16, 16, 64)});
    const MapFile map = parse(worldText() + text);
    const auto start = std::chrono::steady_clock::now();
    const LevelMovers level = buildMovers(map);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(level.movers.size(), size_t(kDoors));
    for (const Mover& m : level.movers) ASSERT_EQ(m.master, 0);
    // Generous: about 0.05 s on the build machine; a quadratic link pass would still pass,
    // the bound is there to catch a hang.
    EXPECT_LT(seconds, 10.0);
}

TEST(MoverModel, EntityGraphTargetsTriggersTeleportsKeys) {
    const MapFile map = parse(
        worldText() +
        entityText({{"classname", "func_door"}, {"targetname", "d1"}}, {leaf()}) +                       // 1
        entityText({{"classname", "trigger_multiple"}, {"target", "d1"}}, {boxBrush(0, 100, 0, 64, 164, 64)}) + // 2
        entityText({{"classname", "func_button"}, {"target", "relay"}}, {boxBrush(200, 0, 0, 208, 16, 16)}) + // 3
        entityText({{"classname", "trigger_relay"}, {"targetname", "relay"}, {"target", "d1"}, {"killtarget", "gone"}}) + // 4
        entityText({{"classname", "trigger_teleport"}, {"target", "dest"}}, {boxBrush(300, 0, 0, 364, 64, 64)}) + // 5
        entityText({{"classname", "info_teleport_destination"}, {"targetname", "dest"}, {"origin", "1 2 3"}}) + // 6
        entityText({{"classname", "trigger_teleport"}, {"targetname", "tt"}, {"target", "void"}}, {boxBrush(400, 0, 0, 464, 64, 64)}) + // 7
        entityText({{"classname", "item_key2"}, {"origin", "0 0 0"}}) +                                    // 8
        entityText({{"classname", "monster_army"}, {"target", "d1"}, {"origin", "0 0 0"}}));               // 9
    const EntityGraph g = buildEntityGraph(map);
    EXPECT_EQ(g.entitiesNamed("d1"), std::vector<int>{1});
    EXPECT_TRUE(g.entitiesNamed("").empty());
    EXPECT_EQ(g.targetsNaming(1).size(), 3u); // the trigger, the relay, the monster's death
    std::vector<std::string> missing;
    for (const EntityTarget& t : g.targets)
        if (t.named.empty()) missing.push_back(std::to_string(t.entity) + " " + t.key + " " + t.name);
    EXPECT_EQ(missing, (std::vector<std::string>{"4 killtarget gone", "7 target void"}));
    ASSERT_GE(g.triggers.size(), 3u);
    EXPECT_EQ(g.triggers[0].entity, 2);
    EXPECT_EQ(g.triggers[0].kind, TriggerKind::Multiple);
    EXPECT_EQ(g.triggers[0].fires, std::vector<int>{1});
    expectNear(g.triggers[0].bounds.mins, {0, 100, 0}, "trigger box");
    EXPECT_EQ(g.triggers[1].kind, TriggerKind::Button);
    EXPECT_EQ(g.triggers[1].fires, std::vector<int>{4});
    EXPECT_EQ(g.triggers[2].kind, TriggerKind::Relay);
    EXPECT_EQ(g.triggers[2].fires, std::vector<int>{1}); // a killtarget removes, it does not fire
    ASSERT_EQ(g.teleports.size(), 2u);
    EXPECT_EQ(g.teleports[0].destination, 6);
    expectNear(g.teleports[0].destinationOrigin, {1, 2, 3}, "destination");
    EXPECT_FALSE(g.teleports[0].needsFiring);
    EXPECT_EQ(g.teleports[1].destination, -1);
    EXPECT_TRUE(g.teleports[1].needsFiring);
    // The button fires the relay, which fires the door: both reached from the button.
    EXPECT_EQ(g.firedFrom(3), (std::vector<int>{1, 4}));
    EXPECT_EQ(g.firesOf[3], std::vector<int>{4});
    EXPECT_TRUE(g.firedFrom(1).empty());
    EXPECT_TRUE(g.firedFrom(-1).empty());
    ASSERT_EQ(g.keys.size(), 1u);
    EXPECT_EQ(g.keys[0].kind, KeyKind::Gold);
    EXPECT_TRUE(g.givesKey(KeyKind::Gold));
    EXPECT_FALSE(g.givesKey(KeyKind::Silver));
}

TEST(MoverModel, FiringChainsEndOnCycles) {
    // a -> b -> c -> a, and c -> d: from a, everything once (a too, fired again by c).
    const MapFile map = parse(
        worldText() +
        entityText({{"classname", "trigger_relay"}, {"targetname", "a"}, {"target", "b"}, {"origin", "0 0 0"}}) +
        entityText({{"classname", "trigger_relay"}, {"targetname", "b"}, {"target", "c"}, {"origin", "0 0 0"}}) +
        entityText({{"classname", "trigger_relay"}, {"targetname", "c"}, {"target", "a"}, {"killtarget", "d"}, {"origin", "0 0 0"}}) +
        entityText({{"classname", "trigger_relay"}, {"targetname", "c"}, {"target", "d"}, {"origin", "0 0 0"}}) +
        entityText({{"classname", "func_door"}, {"targetname", "d"}}, {leaf()}) +
        entityText({{"classname", "trigger_relay"}, {"targetname", "self"}, {"target", "self"}, {"origin", "0 0 0"}}));
    const EntityGraph g = buildEntityGraph(map);
    EXPECT_EQ(g.firedFrom(1), (std::vector<int>{1, 2, 3, 4, 5}));
    EXPECT_EQ(g.firedFrom(6), std::vector<int>{6});
    EXPECT_TRUE(g.firedFrom(5).empty());
}

TEST(MoverModel, IdE1m1DoorsAndLift) {
    const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m1.map");
    ASSERT_TRUE(read.ok());
    const LevelMovers level = buildMovers(*read.map);
    EXPECT_TRUE(level.notes.empty());
    int doors = 0, plats = 0, buttons = 0, secrets = 0, walls = 0;
    for (const Mover& m : level.movers) {
        doors += m.kind == MoverKind::Door;
        plats += m.kind == MoverKind::Plat;
        buttons += m.kind == MoverKind::Button;
        secrets += m.kind == MoverKind::SecretDoor;
        walls += m.kind == MoverKind::Static;
    }
    // Counted in the file: 14 func_door, 2 func_plat, 6 func_button, 7 func_door_secret, 2 func_wall.
    EXPECT_EQ(doors, 14);
    EXPECT_EQ(plats, 2);
    EXPECT_EQ(buttons, 6);
    EXPECT_EQ(secrets, 7);
    EXPECT_EQ(walls, 2);
    // The first door (entities 14 and 15, line 9353): two leaves that touch, opening apart
    // along y (angle 270 and 90) by 104 - 8 and 102 - 8.
    const Mover* left = level.forEntity(14);
    const Mover* right = level.forEntity(15);
    ASSERT_TRUE(left && right);
    EXPECT_EQ(left->master, right->master);
    expectNear(left->offsetAt(MoverState::open()), {0, -96, 0}, "entity 14 open");
    expectNear(right->offsetAt(MoverState::open()), {0, 94, 0}, "entity 15 open");
    EXPECT_EQ(left->speed, 400.0);
    // The bridge that the button (entity 30) lowers: door t1 (entity 29), 240 high, angle -2.
    const Mover* bridge = level.forEntity(29);
    ASSERT_TRUE(bridge);
    EXPECT_EQ(bridge->targetname, "t1");
    expectNear(bridge->offsetAt(MoverState::open()), {0, 0, -232}, "t1 open");
    EXPECT_EQ(bridge->wait, 5.0);
    expectNear(level.forEntity(30)->offsetAt(MoverState::open()), {-4, 0, 0}, "button pressed");
    // The lift (entity 70, line 9760): 160 high, rests 152 down, its top at the upper floor.
    const Mover* lift = level.forEntity(70);
    ASSERT_TRUE(lift);
    EXPECT_EQ(lift->kind, MoverKind::Plat);
    EXPECT_EQ(lift->spawn, MoverState::open());
    expectNear(lift->offsetAt(lift->spawn), {0, 0, -152}, "lift at rest");
    // The START_OPEN door t2 (entity 83): rests 240 along -y, closes back to its drawing.
    const Mover* t2 = level.forEntity(83);
    ASSERT_TRUE(t2);
    expectNear(t2->offsetAt(t2->spawn), {0, -240, 0}, "t2 at spawn");
    expectNear(t2->offsetAt(MoverState::open()), Vec3::Zero(), "t2 fired");

    const EntityGraph graph = buildEntityGraph(*read.map);
    ASSERT_EQ(graph.teleports.size(), 1u);
    EXPECT_EQ(graph.teleports[0].entity, 178);
    EXPECT_EQ(graph.teleports[0].destination, 204);
}

// Movers fired as the game fires them (core/movers/mover_firing.h): touch fields, buttons,
// triggers, relays, counters and delays, against the movers' own timing
// (Mover::offsetAtTimeFrom) and, on random levels under random touches, against the rules
// every run must keep: nothing moves unless used, and nothing jumps.
#include "mover_maps.h"

#include "io/map_reader.h"
#include "movers/build_movers.h"
#include "movers/firing_rules.h"
#include "movers/mover_firing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr double kStep = 1.0 / 60.0;

struct Level {
    MapFile map;
    LevelMovers movers;
    EntityGraph graph;
    FiringRules rules;

    explicit Level(const std::string& text, Game game = Game::Quake) {
        MapReadResult read = readMap(text, "firing.map", game);
        EXPECT_TRUE(read.ok());
        map = std::move(*read.map);
        movers = buildMovers(map);
        graph = buildEntityGraph(map);
        rules = buildFiringRules(map, movers.movers, graph);
    }
    const Mover& mover(int entity) const { return movers.movers[size_t(rules.moverOf[size_t(entity)])]; }
    size_t index(int entity) const { return size_t(rules.moverOf[size_t(entity)]); }
};

// Steps a MoverFiring at 60 steps a second with at most one agent box.
struct Playing {
    const Level& level;
    MoverFiring firing;
    double t = 0.0;

    explicit Playing(const Level& l) : level(l), firing(l.movers.movers, l.rules) {}
    void step(const std::optional<Aabb>& agent = std::nullopt) {
        firing.touch(t, [&](const Aabb& box) { return agent && agent->overlaps(box); });
        for (size_t k = 0; k < level.movers.movers.size(); ++k) firing.advance(k, kStep, t);
        t += kStep;
    }
    void steps(int n, const std::optional<Aabb>& agent = std::nullopt) {
        for (int i = 0; i < n; ++i) step(agent);
    }
    Vec3 offset(const Level& l, int entity) const { return firing.offset(l.index(entity)); }
};

// A player's box standing at (x, y) on the floor.
Aabb playerAt(double x, double y) { return Aabb{Vec3(x - 16, y - 16, 0), Vec3(x + 16, y + 16, 56)}; }

std::string doorText(const Keys& keys, int x0 = -8, int x1 = 8) {
    Keys all = {{"classname", "func_door"}, {"angle", "-1"}};
    all.insert(all.end(), keys.begin(), keys.end());
    return entityText(all, {boxBrush(x0, -64, 0, x1, 64, 128)});
}

} // namespace

TEST(MoverFiring, ATouchedDoorMakesOneTripAsItsTimingSaysThenRests) {
    const Level level(worldText() + doorText({}));
    const Mover& door = level.mover(1);
    ASSERT_FALSE(door.touchBounds.empty());
    Playing run(level);
    run.steps(120); // nobody near: it stays shut
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());
    EXPECT_EQ(run.firing.counts().trips, 0u);
    run.step(playerAt(-40, 0)); // in the field, beside the door
    ASSERT_TRUE(run.firing.running(level.index(1)));
    const double trip = door.roundTripSeconds(MoverState::closed());
    ASSERT_TRUE(std::isfinite(trip));
    for (int i = 1; i * kStep < trip - 2 * kStep; ++i) {
        ASSERT_LT((run.offset(level, 1) - door.offsetAtTimeFrom(MoverState::closed(), i * kStep)).norm(), 1e-9) << "step " << i;
        run.step();
    }
    run.steps(4);
    EXPECT_FALSE(run.firing.running(level.index(1)));
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());
    EXPECT_EQ(run.firing.counts().trips, 1u);
}

TEST(MoverFiring, ADoorTouchedWhileClosingOpensAgainFromWhereItIs) {
    const Level level(worldText() + doorText({{"wait", "1"}}));
    const Mover& door = level.mover(1);
    Playing run(level);
    run.step(playerAt(-40, 0));
    const double arrival = door.secondsBetween(MoverState::closed(), MoverState::open());
    // Half way down on the way back.
    while (run.t < arrival + 1.0 + arrival / 2) run.step();
    const Vec3 before = run.offset(level, 1);
    ASSERT_GT(before.norm(), 1.0);
    run.step(playerAt(-40, 0));
    const Vec3 after = run.offset(level, 1);
    EXPECT_LT((after - before).norm(), door.speed * kStep + 1e-9);
    run.steps(10);
    EXPECT_GT(run.offset(level, 1).norm(), after.norm()) << "it opens again";
    // Touched while it waits open: it waits its whole wait again from that touch.
    while (run.firing.offsetAfter(level.index(1), 0) != door.offsetAt(MoverState::open())) run.step();
    run.steps(30);
    run.step(playerAt(-40, 0));
    run.steps(int(0.9 / kStep));
    EXPECT_EQ(run.offset(level, 1), door.offsetAt(MoverState::open()));
}

// Blocked while closing (an agent under it that it cannot push), a door turns back from
// where it is (door_blocked), opens, waits its wait again and closes; blocked while opening
// it closes. A toggle door and a door that stays open only wait.
TEST(MoverFiring, ABlockedDoorTurnsBack) {
    const Level level(worldText() + doorText({{"wait", "1"}}));
    const Mover& door = level.mover(1);
    const size_t k = level.index(1);
    Playing run(level);
    run.step(playerAt(-40, 0));
    const double arrival = door.secondsBetween(MoverState::closed(), MoverState::open());
    while (run.t < arrival + 1.0 + arrival / 2) run.step(); // half way down
    const Vec3 before = run.offset(level, 1);
    ASSERT_GT(before.norm(), 1.0);
    ASSERT_LT(before.norm(), door.offsetAt(MoverState::open()).norm() - 1.0);
    run.firing.blocked(k);
    EXPECT_LT((run.offset(level, 1) - before).norm(), 1e-9) << "it stays this step";
    run.step();
    const Vec3 after = run.offset(level, 1);
    EXPECT_GT(after.norm(), before.norm()) << "it goes back up";
    EXPECT_LT((after - before).norm(), door.speed * kStep + 1e-9);
    // Up to its open place, its whole wait there, then down and at rest.
    const double up = (door.offsetAt(MoverState::open()) - after).norm() / door.speed;
    run.steps(int((up + 0.9) / kStep));
    EXPECT_EQ(run.offset(level, 1), door.offsetAt(MoverState::open()));
    run.steps(int((arrival + 0.3) / kStep));
    EXPECT_FALSE(run.firing.running(k));
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());
    EXPECT_EQ(run.firing.counts().trips, 1u);

    // Blocked while opening: back down.
    run.step(playerAt(-40, 0));
    run.steps(int(arrival / 2 / kStep));
    const Vec3 opening = run.offset(level, 1);
    run.firing.blocked(k);
    run.step();
    EXPECT_LT(run.offset(level, 1).norm(), opening.norm());
    run.steps(int(arrival / kStep));
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());

    // A toggle door (it stays at each end) just waits.
    const Level toggle(worldText() + doorText({{"spawnflags", "32"}}));
    Playing t(toggle);
    t.step(playerAt(-40, 0));
    t.steps(10);
    const Vec3 held = t.offset(toggle, 1);
    t.firing.blocked(toggle.index(1));
    t.step();
    EXPECT_GT(t.offset(toggle, 1).norm(), held.norm());
}

TEST(MoverFiring, TriggersRelaysCountersAndDelaysFireNamedDoors) {
    const std::string text =
        worldText() + doorText({{"targetname", "d1"}}) +                                                     // 1
        doorText({{"targetname", "d2"}}, 300, 316) +                                                         // 2
        entityText({{"classname", "trigger_once"}, {"target", "d1"}, {"delay", "1"}}, {boxBrush(-400, -64, 0, -300, 64, 64)}) + // 3
        entityText({{"classname", "trigger_multiple"}, {"target", "count"}}, {boxBrush(-600, -64, 0, -500, 64, 64)}) + // 4
        entityText({{"classname", "trigger_counter"}, {"targetname", "count"}, {"target", "relay"}, {"count", "3"}}) + // 5
        entityText({{"classname", "trigger_relay"}, {"targetname", "relay"}, {"target", "d2"}});                   // 6
    const Level level(text);
    EXPECT_TRUE(level.mover(1).touchBounds.empty()) << "a named door has no field";
    Playing run(level);
    run.step(playerAt(-350, 0)); // the trigger_once: d1 one second later
    run.steps(int(0.9 / kStep));
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());
    run.steps(int(0.2 / kStep));
    EXPECT_NE(run.offset(level, 1), Vec3::Zero());
    run.steps(int(10 / kStep)); // back shut; a trigger_once fires once
    ASSERT_EQ(run.offset(level, 1), Vec3::Zero());
    run.step(playerAt(-350, 0));
    run.steps(int(2 / kStep));
    EXPECT_EQ(run.offset(level, 1), Vec3::Zero());
    // The counter wants three firings of the trigger_multiple; standing in it fires it
    // every 0.2 s (its wait), so the third comes 0.4 s after the first.
    run.step(playerAt(-550, 0));
    run.steps(int(0.3 / kStep), playerAt(-550, 0));
    run.step();
    EXPECT_EQ(run.offset(level, 2), Vec3::Zero()) << "two firings: the counter waits";
    run.steps(int(0.2 / kStep), playerAt(-550, 0));
    run.step();
    EXPECT_TRUE(run.firing.running(level.index(2)));
}

TEST(MoverFiring, AButtonFiresItsTargetOnceItIsIn) {
    const std::string text = worldText() + doorText({{"targetname", "gate"}}) +
                             entityText({{"classname", "func_button"}, {"target", "gate"}, {"angle", "0"}, {"speed", "40"}},
                                        {boxBrush(200, -16, 32, 216, 16, 64)});
    const Level level(text);
    const Mover& button = level.mover(2);
    Playing run(level);
    // An agent's box stops at the button's face (a solid brush): half a unit short of it
    // still touches it.
    run.step(Aabb{Vec3(160, -16, 24), Vec3(199.5, 16, 80)});
    ASSERT_TRUE(run.firing.running(level.index(2)));
    const double in = button.secondsBetween(MoverState::closed(), MoverState::open());
    ASSERT_GT(in, 0.2);
    while (run.t < in - kStep) {
        ASSERT_EQ(run.offset(level, 1), Vec3::Zero()) << "t " << run.t;
        run.step();
    }
    run.steps(3);
    EXPECT_TRUE(run.firing.running(level.index(1)));
}

TEST(MoverFiring, ANamedPlatWaitsAtTheTopThenWorksByTouch) {
    const std::string text = worldText() +
                             entityText({{"classname", "func_plat"}, {"targetname", "lift"}}, {boxBrush(200, 200, -120, 328, 328, 0)}) +
                             entityText({{"classname", "trigger_relay"}, {"targetname", "go"}, {"target", "lift"}}) +
                             entityText({{"classname", "trigger_once"}, {"target", "lift"}}, {boxBrush(-400, -64, 0, -300, 64, 64)});
    const Level level(text);
    const Mover& plat = level.mover(1);
    const Aabb onPlat{Vec3(240, 240, -150), Vec3(280, 280, 10)};
    Playing run(level);
    run.steps(30, onPlat); // named: touch does nothing yet
    EXPECT_EQ(run.offset(level, 1), plat.offsetAt(MoverState::closed()));
    run.step(playerAt(-350, 0)); // fired: down, and stays there
    run.steps(int(5 / kStep));
    EXPECT_EQ(run.offset(level, 1), plat.offsetAt(MoverState::open()));
    EXPECT_FALSE(run.firing.running(level.index(1)));
    run.step(onPlat); // now a plat like the others: up, 3 s at the top, down
    const double up = plat.secondsBetween(MoverState::open(), MoverState::closed());
    run.steps(int((up + 0.5) / kStep));
    EXPECT_EQ(run.offset(level, 1), plat.offsetAt(MoverState::closed()));
    run.step(onPlat); // touched at the top: leaves one second after
    run.steps(int(0.9 / kStep));
    EXPECT_EQ(run.offset(level, 1), plat.offsetAt(MoverState::closed()));
    run.steps(int(0.2 / kStep));
    EXPECT_NE(run.offset(level, 1), plat.offsetAt(MoverState::closed()));
}

TEST(MoverFiring, TrainsKeyDoorsAndToggleDoors) {
    const std::string text =
        worldText() +
        entityText({{"classname", "func_train"}, {"target", "c1"}}, {boxBrush(-400, -300, 0, -336, -236, 16)}) +     // 1
        entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c2"}, {"origin", "-400 -300 0"}}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c2"}, {"target", "c1"}, {"origin", "-400 100 0"}}) +
        entityText({{"classname", "func_train"}, {"target", "c1"}, {"targetname", "t2"}}, {boxBrush(400, -300, 0, 464, -236, 16)}) + // 4
        doorText({{"spawnflags", "8"}}, 600, 616) +                                                                   // 5 gold
        entityText({{"classname", "item_key2"}, {"origin", "0 300 24"}}) +                                           // 6
        doorText({{"spawnflags", "16"}}, 800, 816) +                                                                  // 7 silver: none
        doorText({{"targetname", "tog"}, {"spawnflags", "32"}}, 1000, 1016) +                                         // 8
        entityText({{"classname", "trigger_multiple"}, {"target", "tog"}, {"wait", "1"}}, {boxBrush(-700, -64, 0, -650, 64, 64)});
    const Level level(text);
    Playing run(level);
    run.steps(30);
    EXPECT_NE(run.offset(level, 1), level.mover(1).offsetAt(level.mover(1).spawn)) << "an unnamed train runs";
    EXPECT_EQ(run.offset(level, 4), level.mover(4).offsetAt(level.mover(4).spawn)) << "a named one waits";
    run.step(playerAt(585, 0));
    run.step(playerAt(785, 0));
    run.steps(60);
    EXPECT_NE(run.offset(level, 5), Vec3::Zero()) << "the level gives the gold key";
    EXPECT_EQ(run.offset(level, 7), Vec3::Zero()) << "no silver key in the level";
    run.step(playerAt(-675, 0)); // the toggle door: to its open end, and stays
    run.steps(int(10 / kStep));
    const Vec3 open = level.mover(8).offsetAt(MoverState::open());
    EXPECT_EQ(run.offset(level, 8), open);
    run.step(playerAt(-675, 0)); // again: back shut, and stays
    run.steps(int(10 / kStep));
    EXPECT_EQ(run.offset(level, 8), Vec3::Zero());
}

TEST(MoverFiring, RelaysFiringEachOtherWithoutDelayDoNotHang) {
    const std::string text = worldText() + doorText({{"targetname", "a"}}) +
                             entityText({{"classname", "trigger_relay"}, {"targetname", "a"}, {"target", "b"}}) +
                             entityText({{"classname", "trigger_relay"}, {"targetname", "b"}, {"target", "a"}}) +
                             entityText({{"classname", "trigger_once"}, {"target", "a"}}, {boxBrush(-400, -64, 0, -300, 64, 64)});
    const Level level(text);
    Playing run(level);
    for (int i = 0; i < 600; ++i) run.step(playerAt(-350, 0));
    EXPECT_GE(run.firing.counts().trips, 1u);
}

// Random levels of doors (linked, named, toggled), buttons, plats, trains and triggers with
// random targets and delays, touched by a random agent: a mover moves only on a trip, never
// faster than its speed, and none runs that nothing can start; every offset is finite.
TEST(MoverFiring, RandomLevelsUnderRandomTouchesNeverJump) {
    std::mt19937_64 rng(7);
    auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
    const std::vector<std::string> names = {"n0", "n1", "n2", "n3", "n4"};
    uint64_t trips = 0, firings = 0;
    for (int level = 0; level < 40; ++level) {
        std::string text = worldText();
        for (int e = 0; e < 14; ++e) {
            const int x = -900 + 128 * e, kind = pick(6);
            Keys keys;
            if (pick(2)) keys.push_back({"targetname", names[size_t(pick(5))]});
            if (pick(2)) keys.push_back({"target", names[size_t(pick(5))]});
            if (pick(3) == 0) keys.push_back({"delay", std::to_string(pick(3))});
            const std::string brush = boxBrush(x, -32, 0, x + 16 + pick(2) * 48, 32, 64 + 32 * pick(3));
            if (kind == 0) {
                keys.push_back({"classname", "func_door"});
                keys.push_back({"spawnflags", std::to_string(std::vector<int>{0, 1, 32, 4, 8}[size_t(pick(5))])});
                keys.push_back({"wait", std::to_string(pick(4) - 1)});
            } else if (kind == 1) {
                keys.push_back({"classname", "func_button"});
            } else if (kind == 2) {
                keys.push_back({"classname", "func_plat"});
            } else if (kind == 3) {
                keys.push_back({"classname", std::vector<std::string>{"trigger_once", "trigger_multiple"}[size_t(pick(2))]});
            } else if (kind == 4) {
                keys.push_back({"classname", std::vector<std::string>{"trigger_relay", "trigger_counter"}[size_t(pick(2))]});
                text += entityText(keys);
                continue;
            } else {
                keys.push_back({"classname", "func_door_secret"});
            }
            text += entityText(keys, {brush});
        }
        const Level l(text);
        Playing run(l);
        const size_t n = l.movers.movers.size();
        // What can start a mover at all: its field, its key, the level's start, a firing entity.
        std::vector<bool> usable(n, false);
        for (size_t k = 0; k < n; ++k) {
            const Mover& m = l.movers.movers[k];
            usable[k] = !m.touchBounds.empty() || l.rules.keyOpens[k] || l.rules.startsRunning[k];
            for (const std::vector<int>& fires : l.rules.firesOf)
                usable[k] = usable[k] || std::find(fires.begin(), fires.end(), m.entity) != fires.end();
            // A linked door runs with its group.
            if (m.master >= 0 && size_t(m.master) != k) usable[k] = true;
        }
        std::vector<Vec3> last(n);
        for (size_t k = 0; k < n; ++k) last[k] = run.firing.offset(k);
        for (int s = 0; s < 1200; ++s) {
            std::optional<Aabb> agent;
            if (pick(3) == 0) agent = playerAt(-1000 + pick(2000), pick(100) - 50);
            std::vector<bool> wasRunning(n);
            for (size_t k = 0; k < n; ++k) wasRunning[k] = run.firing.running(k);
            run.step(agent);
            for (size_t k = 0; k < n; ++k) {
                const Mover& m = l.movers.movers[k];
                const Vec3 now = run.firing.offset(k);
                ASSERT_TRUE(now.allFinite());
                const double moved = (now - last[k]).norm();
                ASSERT_LE(moved, m.speed * kStep * (1 + 1e-9) + 1e-9) << "level " << level << " step " << s << " mover " << k;
                ASSERT_TRUE(moved == 0.0 || wasRunning[k] || run.firing.running(k)) << "level " << level << " mover " << k;
                ASSERT_TRUE(!run.firing.running(k) || usable[k]) << "level " << level << " mover " << k << " ran unused";
                last[k] = now;
            }
        }
        trips += run.firing.counts().trips;
        firings += run.firing.counts().triggerFirings;
    }
    std::printf("random levels: %llu trips, %llu firings\n", (unsigned long long)trips, (unsigned long long)firings);
    EXPECT_GT(trips, 400u); // the levels do run (numbers of this seed: see the output)
    EXPECT_GT(firings, 200u);
}

// Hostile wiring: entities that fire themselves (with and without a delay), a counter and
// delays that are not numbers or absurd, a train with no corners, NaN speeds, a trigger
// that fires everything. Every step ends, the clocks stay finite, and a self-firing relay
// with a delay fires at most once per delay.
TEST(MoverFiring, HostileWiringEndsEveryStep) {
    std::string text = worldText();
    text += entityText({{"classname", "trigger_relay"}, {"targetname", "self"}, {"target", "self"}});                   // 1
    text += entityText({{"classname", "trigger_relay"}, {"targetname", "slow"}, {"target", "slow"}, {"delay", "0.5"}}); // 2
    text += entityText({{"classname", "trigger_counter"}, {"targetname", "all"}, {"target", "all"}, {"count", "nan"}});  // 3
    text += doorText({{"targetname", "all"}, {"target", "all"}, {"speed", "nan"}, {"delay", "1e308"}});                 // 4
    text += doorText({{"targetname", "all"}, {"speed", "-5"}, {"wait", "nan"}}, 300, 316);                              // 5
    text += entityText({{"classname", "func_train"}, {"targetname", "all"}, {"target", "nowhere"}}, {boxBrush(500, 0, 0, 532, 32, 16)});
    text += entityText({{"classname", "trigger_multiple"}, {"target", "self"}, {"wait", "-7"}}, {boxBrush(-400, -64, 0, -300, 64, 64)});
    text += entityText({{"classname", "trigger_multiple"}, {"target", "slow"}}, {boxBrush(-600, -64, 0, -500, 64, 64)});
    text += entityText({{"classname", "trigger_multiple"}, {"target", "all"}, {"delay", "-3"}}, {boxBrush(-800, -64, 0, -700, 64, 64)});
    const Level level(text);
    Playing run(level);
    for (int s = 0; s < 600; ++s) {
        const double x = s % 3 == 0 ? -350 : s % 3 == 1 ? -550 : -750;
        run.step(playerAt(x, 0));
        for (size_t k = 0; k < level.movers.movers.size(); ++k) ASSERT_TRUE(run.firing.offset(k).allFinite());
    }
    // What can fire in 10 s: the slow relay itself twice a second (20), each trigger_multiple
    // at most every 0.2 s (150 for three), the once-only one and the counter once: the
    // relay firing itself without a delay ends within its step (91 here).
    EXPECT_LE(run.firing.counts().triggerFirings, 172u);
}

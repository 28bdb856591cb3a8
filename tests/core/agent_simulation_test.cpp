// Many agents (core/objects/agent_simulation.h), with movers running by their timing.
#include "mover_maps.h"
#include "test_maps.h"
#include "test_scale.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/build_movers.h"
#include "movers/entity_graph.h"
#include "movers/firing_rules.h"
#include "objects/agent_simulation.h"
#include "objects/level_objects.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>

using namespace shallot;

namespace {

// No two agents' boxes overlap (deeper than the trace tolerance), none is in the world's
// solid or an object's, every place is finite.
void expectAgentsClear(const CollisionScene& scene, const AgentSimulation& sim) {
    const std::vector<Vec3>& p = sim.positions();
    const std::vector<int>& poses = sim.poses();
    const BspTree& tree = scene.world();
    for (size_t i = 0; i < p.size(); ++i) {
        ASSERT_TRUE(p[i].allFinite());
        ASSERT_FALSE(tree.isSolid(p[i], poses[i])) << "agent " << i << " at " << p[i].transpose();
        for (size_t k = 0; k < scene.objectCount(); ++k)
            ASSERT_FALSE(scene.object(k).tree.isSolid(p[i] - scene.objectOffset(k), poses[i])) << "agent " << i << " in object " << k;
        const Pose& a = tree.poses[size_t(poses[i])];
        for (size_t j = i + 1; j < p.size(); ++j) {
            const Pose& b = tree.poses[size_t(poses[j])];
            const Vec3 lo = (p[i] + a.mins).cwiseMax(p[j] + b.mins), hi = (p[i] + a.maxs).cwiseMin(p[j] + b.maxs);
            ASSERT_FALSE(((hi - lo).array() > 1e-3).all()) << "agents " << i << " and " << j << " overlap";
        }
    }
}

// A walled room 1024 across with a pillar, and a block that rises 64 and comes back.
struct Room {
    World world;
    CompileResult compiled;
    CollisionObject lift;
    std::vector<Mover> movers; // the lift, a plat

    Room() {
        world.poses = quakePoses();
        world.brushes.push_back(Brush::box(Vec3(-512, -512, -64), Vec3(512, 512, 0)));
        world.brushes.push_back(Brush::box(Vec3(-512, -512, 256), Vec3(512, 512, 320)));
        world.brushes.push_back(Brush::box(Vec3(-576, -512, -64), Vec3(-512, 512, 320)));
        world.brushes.push_back(Brush::box(Vec3(512, -512, -64), Vec3(576, 512, 320)));
        world.brushes.push_back(Brush::box(Vec3(-576, -576, -64), Vec3(576, -512, 320)));
        world.brushes.push_back(Brush::box(Vec3(-576, 512, -64), Vec3(576, 576, 320)));
        world.brushes.push_back(Brush::box(Vec3(-64, -64, 0), Vec3(64, 64, 256)));
        compiled = compileWorld(world);
        lift = compileCollisionObject({Brush::box(Vec3(200, 200, 0), Vec3(328, 328, 16))}, compiled.onion.poses, world.bounds);
        Mover plat;
        plat.kind = MoverKind::Plat;
        plat.motion.stops = {Vec3::Zero(), Vec3(0, 0, 64)};
        plat.motion.waits = {0.5, 0.5};
        plat.speed = 128.0;
        movers.push_back(plat);
    }
};


// A shared level compiled on two threads with its movers as objects.
struct SharedLevel {
    MapReadResult read;
    World world;
    CompileResult compiled;
    LevelObjects level;

    // Null when ../shared/maps has no such file.
    static std::unique_ptr<SharedLevel> load(const std::string& name) {
        const std::filesystem::path path = std::filesystem::path(SHALLOT_SHARED_MAPS) / name;
        if (!std::filesystem::exists(path)) return nullptr;
        auto l = std::make_unique<SharedLevel>();
        l->read = readMapFile(path.string());
        EXPECT_TRUE(l->read.ok());
        if (!l->read.ok()) return nullptr;
        l->world = worldFromMap(*l->read.map);
        CompileOptions options;
        options.threads = 2;
        l->compiled = compileWorld(l->world, options);
        l->level = buildLevelObjects(buildMovers(*l->read.map), l->compiled.onion.poses, l->world.bounds, 2);
        return l;
    }
    // Every object where the level spawns it, the grid filed.
    void placeAtSpawn(CollisionScene& scene) const {
        const std::vector<Vec3> offsets = level.offsets();
        for (size_t i = 0; i < offsets.size(); ++i) scene.setObjectOffset(i, offsets[i]);
        scene.rebuildGrid();
    }
};

} // namespace

TEST(AgentSimulation, AgentsNeverOverlapNorEnterSolidAndThreadsAgree) {
    const Room room;
    std::vector<std::vector<Vec3>> ends;
    for (const int threads : {1, 2}) {
        CollisionScene scene(room.compiled.onion, {&room.lift});
        SimulationOptions options;
        options.agents = 60;
        options.threads = threads;
        options.seed = 7;
        options.movers = &room.movers;
        AgentSimulation sim(scene, options);
        ASSERT_EQ(sim.report().agents, 60);
        expectAgentsClear(scene, sim);
        for (int step = 0; step < 240; ++step) {
            sim.step();
            expectAgentsClear(scene, sim);
            if (HasFatalFailure()) return;
        }
        const SimulationReport& r = sim.report();
        EXPECT_GT(r.goalsReached, 20u);
        EXPECT_GT(r.objectMoves, 100u);
        const StageCounts& c = r.moves;
        EXPECT_EQ(c.settledTotal(), c.pairs);
        EXPECT_GT(c.settled[size_t(CollisionStage::Exact)], 0u);
        EXPECT_EQ(r.colliding.settledTotal(), r.colliding.pairs);
        ends.push_back(sim.positions());
    }
    EXPECT_EQ(ends[0], ends[1]); // the same steps whatever the threads
}

TEST(AgentSimulation, QuakeLevelWithItsMovers) {
    const std::unique_ptr<SharedLevel> e1m1 = SharedLevel::load("id_e1m1.map");
    if (!e1m1) GTEST_SKIP() << "id_e1m1.map not found";
    const LevelObjects& level = e1m1->level;
    ASSERT_GT(level.objects.size(), 20u);
    CollisionScene scene(e1m1->compiled.onion, level.pointers());
    e1m1->placeAtSpawn(scene);
    SimulationOptions options;
    options.agents = 150;
    options.threads = 2;
    options.movers = &level.movers.movers;
    AgentSimulation sim(scene, options);
    ASSERT_EQ(sim.report().agents, 150);
    for (int step = 0; step < 300; ++step) {
        sim.step();
        if (step % 10 == 9) expectAgentsClear(scene, sim);
        if (HasFatalFailure()) return;
    }
    const SimulationReport& r = sim.report();
    EXPECT_GT(r.objectMoves, 1000u); // the doors and plats run
    EXPECT_GT(r.goalsReached, 20u);
    EXPECT_GT(r.pathsFound, r.pathsMissed);
}

// Play from the level's start: the movers rest until the agents touch them or a trigger
// fires them. On id_e1m1 agents walking between random floors open doors on their way, no
// agent is ever in solid, and a mover only leaves its spawn place once something used it.
TEST(AgentSimulation, QuakeLevelFiredAsTheGameFiresIt) {
    const std::unique_ptr<SharedLevel> e1m1 = SharedLevel::load("id_e1m1.map");
    if (!e1m1) GTEST_SKIP() << "id_e1m1.map not found";
    const MapFile& map = *e1m1->read.map;
    const LevelObjects& level = e1m1->level;
    const CompileResult& compiled = e1m1->compiled;
    const FiringRules rules = buildFiringRules(map, level.movers.movers, buildEntityGraph(map));
    CollisionScene scene(compiled.onion, level.pointers());
    const std::vector<Vec3> offsets = level.offsets();
    e1m1->placeAtSpawn(scene);
    SimulationOptions options;
    options.agents = 150;
    options.threads = 2;
    options.movers = &level.movers.movers;
    options.firing = &rules;
    AgentSimulation sim(scene, options);
    // Doors that only a touch opens (a field, nothing targets them): one that leaves its
    // place was touched by an agent's box first (the places a step starts from).
    const EntityGraph graph = buildEntityGraph(map);
    const BspTree& tree = compiled.onion;
    std::vector<bool> touchOnly(offsets.size(), false), touched(offsets.size(), false);
    for (size_t i = 0; i < offsets.size(); ++i) {
        const Mover& m = level.movers.movers[i];
        touchOnly[i] = m.kind == MoverKind::Door && !m.touchBounds.empty() && graph.targetsNaming(m.entity).empty();
    }
    int touchOnlyMoved = 0;
    for (int step = 0; step < 900; ++step) {
        for (size_t a = 0; a < sim.positions().size(); ++a) {
            const Pose& pose = tree.poses[size_t(sim.poses()[a])];
            const Aabb box{sim.positions()[a] + pose.mins, sim.positions()[a] + pose.maxs};
            for (size_t i = 0; i < offsets.size(); ++i)
                touched[i] = touched[i] || (touchOnly[i] && box.overlaps(level.movers.movers[i].touchBounds));
        }
        sim.step();
        if (step % 10 == 9) expectAgentsClear(scene, sim);
        if (HasFatalFailure()) return;
        for (size_t i = 0; i < offsets.size(); ++i) {
            if (!touchOnly[i] || scene.objectOffset(i) == offsets[i]) continue;
            ASSERT_TRUE(touched[i]) << "entity " << level.movers.movers[i].entity << " moved untouched at step " << step;
            ++touchOnlyMoved;
        }
    }
    const SimulationReport& r = sim.report();
    EXPECT_GE(r.moverTrips, 3u);
    EXPECT_GT(touchOnlyMoved, 0);
    EXPECT_GT(r.goalsReached, 20u);
}

// A run begun later (startSeconds, the editor's Play from "At time") keeps the movers on the
// level's clock: each step puts the plat where its timing has it then, as a run from the
// start would have it at that time.
TEST(AgentSimulation, ARunBegunLaterKeepsTheLevelsClock) {
    const Room room;
    for (const double start : {0.0, 0.75, 2.3}) {
        CollisionScene scene(room.compiled.onion, {&room.lift});
        scene.setObjectOffset(0, room.movers[0].offsetAtTime(start));
        scene.rebuildGrid();
        SimulationOptions options;
        options.agents = 0;
        options.movers = &room.movers;
        options.startSeconds = start;
        AgentSimulation sim(scene, options);
        EXPECT_DOUBLE_EQ(sim.time(), start);
        for (int step = 1; step <= 90; ++step) {
            sim.step();
            const double t = start + step * options.stepSeconds;
            ASSERT_NEAR(sim.time(), t, 1e-9);
            ASSERT_LT((scene.objectOffset(0) - room.movers[0].offsetAtTime(t)).norm(), 1e-9) << "start " << start << " step " << step;
        }
    }
}

namespace {

// The two rooms' worldspawn as .map text (x < -32 and x > 32, 512 deep, 256 high); with
// `doorway` the wall between them has an opening 128 wide (y -64..64).
std::string twoRoomsWorldspawn(bool doorway) {
    using namespace shallot::test;
    std::vector<std::string> brushes{boxBrush(-576, -320, -64, 576, 320, 0),   boxBrush(-576, -320, 256, 576, 320, 320),
                                     boxBrush(-576, -320, 0, -512, 320, 256),  boxBrush(512, -320, 0, 576, 320, 256),
                                     boxBrush(-576, -320, 0, 576, -256, 256), boxBrush(-576, 256, 0, 576, 320, 256)};
    if (doorway) {
        brushes.push_back(boxBrush(-32, -320, 0, 32, -64, 256));
        brushes.push_back(boxBrush(-32, 64, 0, 32, 320, 256));
    } else {
        brushes.push_back(boxBrush(-32, -320, 0, 32, 320, 256));
    }
    return entityText({{"classname", "worldspawn"}}, brushes);
}

// Two closed rooms side by side and a teleporter across the left one's floor (x -300..-200)
// to a destination in the right one.
struct TwoRooms {
    World world;
    CompileResult compiled;
    Teleport teleport;

    TwoRooms() {
        const MapReadResult read = readMap(twoRoomsWorldspawn(false), "two_rooms.map");
        EXPECT_TRUE(read.ok());
        world = worldFromMap(*read.map);
        compiled = compileWorld(world);
        teleport.entity = 1;
        teleport.bounds = {Vec3(-300, -256, 0), Vec3(-200, 256, 64)};
        teleport.destination = 2;
        teleport.destinationOrigin = Vec3(256, 0, 24);
        teleport.arrivalLift = kQuakeTeleportArrivalLift;
    }
    static bool right(const Vec3& p) { return p.x() > 0.0; }
};

} // namespace

// Agents walking about the left room cross the teleporter and come out in the right one
// (which has no way back), never in solid or overlapping; the same on one and two threads.
TEST(AgentSimulation, TeleportersMoveAgentsToTheirDestination) {
    const TwoRooms rooms;
    const std::vector<Teleport> teleports{rooms.teleport};
    std::vector<std::vector<Vec3>> ends;
    for (const int threads : {1, 2}) {
        CollisionScene scene(rooms.compiled.onion, {});
        SimulationOptions options;
        options.agents = 40;
        options.threads = threads;
        options.seed = 3;
        options.poses = {1}; // the player
        options.teleports = &teleports;
        AgentSimulation sim(scene, options);
        ASSERT_EQ(sim.report().agents, 40);
        auto rightCount = [&] {
            return std::count_if(sim.positions().begin(), sim.positions().end(), TwoRooms::right);
        };
        std::vector<bool> wasRight;
        for (const Vec3& p : sim.positions()) wasRight.push_back(TwoRooms::right(p));
        const long before = rightCount();
        for (int step = 0; step < 600; ++step) {
            sim.step();
            expectAgentsClear(scene, sim);
            if (HasFatalFailure()) return;
            for (size_t i = 0; i < wasRight.size(); ++i) {
                ASSERT_FALSE(wasRight[i] && !TwoRooms::right(sim.positions()[i])) << "agent " << i << " went back";
                // One that crossed came out where the teleporter puts it and fell from there.
                if (!wasRight[i] && TwoRooms::right(sim.positions()[i])) {
                    EXPECT_LT((sim.positions()[i] - (rooms.teleport.destinationOrigin + Vec3(0, 0, 27))).head<2>().norm(), 1e-9);
                }
                wasRight[i] = TwoRooms::right(sim.positions()[i]);
            }
        }
        const SimulationReport& r = sim.report();
        EXPECT_GE(r.teleported, 3u);
        EXPECT_EQ(long(r.teleported), rightCount() - before);
        ends.push_back(sim.positions());
    }
    EXPECT_EQ(ends[0], ends[1]);
}

// A Quake teleporter with a targetname works only just after it is fired: run without
// firing rules (nothing fires it), nobody is teleported.
TEST(AgentSimulation, ATeleporterThatNeedsFiringWaitsForIt) {
    const TwoRooms rooms;
    std::vector<Teleport> teleports{rooms.teleport};
    teleports[0].needsFiring = true;
    CollisionScene scene(rooms.compiled.onion, {});
    SimulationOptions options;
    options.agents = 40;
    options.seed = 3;
    options.poses = {1};
    options.teleports = &teleports;
    AgentSimulation sim(scene, options);
    for (int step = 0; step < 600; ++step) sim.step();
    EXPECT_EQ(sim.report().teleported, 0u);
    EXPECT_EQ(sim.report().teleportsRefused, 0u);
}

// The same teleporter named (Quake's: it works only just after it is used) and a
// trigger_multiple over it that fires it: agents walking in are teleported, from a .map.
TEST(AgentSimulation, ATeleporterFiredByATriggerOverItWorks) {
    using namespace shallot::test;
    std::string text = twoRoomsWorldspawn(false);
    text += entityText({{"classname", "trigger_teleport"}, {"targetname", "gate"}, {"target", "there"}},
                       {boxBrush(-300, -256, 0, -200, 256, 64)});
    text += entityText({{"classname", "trigger_multiple"}, {"target", "gate"}}, {boxBrush(-300, -256, 0, -200, 256, 64)});
    text += entityText({{"classname", "info_teleport_destination"}, {"targetname", "there"}, {"origin", "256 0 24"}});
    const MapReadResult read = readMap(text, "teleport.map");
    ASSERT_TRUE(read.ok());
    const World world = worldFromMap(*read.map);
    const CompileResult compiled = compileWorld(world);
    const std::vector<Mover> movers; // none: the firing still runs
    const FiringRules rules = buildFiringRules(*read.map, movers, buildEntityGraph(*read.map));
    ASSERT_EQ(rules.teleports.size(), 1u);
    ASSERT_TRUE(rules.teleports[0].needsFiring);
    for (const bool fired : {false, true}) {
        CollisionScene scene(compiled.onion, {});
        SimulationOptions options;
        options.agents = 40;
        options.seed = 3;
        options.poses = {1};
        options.movers = &movers;
        options.teleports = &rules.teleports;
        if (fired) options.firing = &rules;
        AgentSimulation sim(scene, options);
        for (int step = 0; step < 600; ++step) {
            sim.step();
            if (step % 20 == 19) expectAgentsClear(scene, sim);
            if (HasFatalFailure()) return;
        }
        if (fired) {
            EXPECT_GE(sim.report().teleported, 3u);
            EXPECT_GT(sim.report().firings, 5u);
        } else {
            EXPECT_EQ(sim.report().teleported, 0u);
        }
    }
}

// Keys are picked up, not assumed: two rooms joined by a silver key door (it stays open
// once opened), the key on the left room's floor. The door opens only after an agent took
// the key, for that agent, which gives the key up.
TEST(AgentSimulation, AKeyDoorOpensOnlyForTheAgentThatPickedUpItsKey) {
    using namespace shallot::test;
    std::string text = twoRoomsWorldspawn(true);
    text += entityText({{"classname", "func_door"}, {"angle", "-1"}, {"spawnflags", "16"}}, {boxBrush(-16, -64, 0, 16, 64, 128)});
    text += entityText({{"classname", "item_key1"}, {"origin", "-200 0 40"}});
    const MapReadResult read = readMap(text, "keys.map");
    ASSERT_TRUE(read.ok());
    const World world = worldFromMap(*read.map);
    const CompileResult compiled = compileWorld(world);
    const LevelObjects level = buildLevelObjects(buildMovers(*read.map), compiled.onion.poses, world.bounds, 1);
    ASSERT_EQ(level.movers.movers.size(), 1u);
    ASSERT_EQ(level.movers.movers[0].key, KeyKind::Silver);
    const FiringRules rules = buildFiringRules(*read.map, level.movers.movers, buildEntityGraph(*read.map));
    ASSERT_EQ(rules.keys.size(), 1u);
    CollisionScene scene(compiled.onion, level.pointers());
    scene.rebuildGrid();
    SimulationOptions options;
    options.agents = 12; // few: a crowd at the shut door would keep the key holder from it
    options.seed = 5;
    options.poses = {1};
    options.movers = &level.movers.movers;
    options.firing = &rules;
    AgentSimulation sim(scene, options);
    const Aabb key{Vec3(-216, -16, 0), Vec3(-184, 16, 56)}; // on the floor below its origin
    bool taken = false;
    int openedAt = -1;
    for (int step = 0; step < 3600 && openedAt < 0; ++step) {
        for (size_t a = 0; a < sim.positions().size(); ++a) {
            const Pose& pose = compiled.onion.poses[1];
            taken = taken || key.overlaps({sim.positions()[a] + pose.mins, sim.positions()[a] + pose.maxs});
        }
        sim.step();
        if (scene.objectOffset(0) != Vec3::Zero()) {
            openedAt = step;
            ASSERT_TRUE(taken) << "the door opened before anyone touched the key";
        }
    }
    const SimulationReport& r = sim.report();
    ASSERT_EQ(r.keysPickedUp, 1u);
    ASSERT_GE(openedAt, 0) << "nobody opened the door in 60 s";
    EXPECT_EQ(r.keysUsed, 1u);
    EXPECT_EQ(r.moverTrips, 1u);
}

// Agents that seek the level's working places (SimulationOptions::seekShare) find a
// teleporter in a corner that random walks across the room seldom cross, and come out at
// its destination; a share of 0 changes nothing (the same run as without places).
TEST(AgentSimulation, AgentsSeekingWorkingPlacesFindATeleporterInACorner) {
    TwoRooms rooms;
    rooms.teleport.bounds = {Vec3(-496, -240, 0), Vec3(-464, -208, 64)}; // a corner's 32 x 32
    const std::vector<Teleport> teleports{rooms.teleport};
    const std::vector<Aabb> places{rooms.teleport.bounds};
    auto run = [&](double share, const std::vector<Aabb>* seek) {
        CollisionScene scene(rooms.compiled.onion, {});
        SimulationOptions options;
        options.agents = 20;
        options.seed = 11;
        options.poses = {1};
        options.teleports = &teleports;
        options.seekPlaces = seek;
        options.seekShare = share;
        AgentSimulation sim(scene, options);
        for (int step = 0; step < 900; ++step) {
            sim.step();
            if (step % 30 == 29) expectAgentsClear(scene, sim);
        }
        return std::make_pair(sim.report().teleported, sim.positions());
    };
    const auto [without, endsWithout] = run(0.0, nullptr);
    const auto [none, endsNone] = run(0.0, &places);
    const auto [seeking, endsSeeking] = run(0.5, &places);
    EXPECT_EQ(endsNone, endsWithout);
    EXPECT_EQ(none, without);
    EXPECT_GE(seeking, 5u);
    EXPECT_GT(seeking, 2 * without) << "without seeking: " << without;
}

// Agents walk up a walkable ramp (slope 1 in 4) onto a platform: the ground holds a box
// where it lands instead of sliding it back down (which undid every step's walk up).
TEST(AgentSimulation, AgentsWalkUpARamp) {
    World world;
    world.poses = quakePoses();
    world.brushes.push_back(Brush::box(Vec3(-320, -128, -64), Vec3(576, 128, 0)));  // floor
    world.brushes.push_back(Brush::box(Vec3(256, -128, 0), Vec3(576, 128, 64)));    // platform
    world.brushes.push_back(Brush::box(Vec3(-384, -192, -64), Vec3(640, -128, 256))); // walls
    world.brushes.push_back(Brush::box(Vec3(-384, 128, -64), Vec3(640, 192, 256)));
    world.brushes.push_back(Brush::box(Vec3(-384, -128, -64), Vec3(-320, 128, 256)));
    world.brushes.push_back(Brush::box(Vec3(576, -128, -64), Vec3(640, 128, 256)));
    world.brushes.push_back(Brush::box(Vec3(-384, -192, 256), Vec3(640, 192, 320))); // ceiling
    const Vec3 slope = Vec3(-1, 0, 4).normalized(); // z = x / 4 from x = 0 to 256
    world.brushes.push_back(Brush::fromPlanes({{slope, 0.0},
                                               {Vec3(0, 0, -1), 0.0},
                                               {Vec3(1, 0, 0), 256.0},
                                               {Vec3(-1, 0, 0), 0.0},
                                               {Vec3(0, 1, 0), 128.0},
                                               {Vec3(0, -1, 0), 128.0}}));
    const CompileResult compiled = compileWorld(world);
    const std::vector<Aabb> top{{Vec3(300, -100, 64), Vec3(560, 100, 120)}};
    CollisionScene scene(compiled.onion, {});
    SimulationOptions options;
    options.agents = 6;
    options.seed = 2;
    options.poses = {1};
    options.seekPlaces = &top;
    options.seekShare = 1.0; // every goal on the platform
    AgentSimulation sim(scene, options);
    std::vector<bool> below, climbed;
    for (const Vec3& p : sim.positions()) below.push_back(p.x() < -16.0);
    climbed.assign(below.size(), false);
    ASSERT_GT(std::count(below.begin(), below.end(), true), 0);
    for (int step = 0; step < 600; ++step) {
        sim.step();
        for (size_t i = 0; i < below.size(); ++i) climbed[i] = climbed[i] || sim.positions()[i].z() > 64.0 + 23.0;
    }
    for (size_t i = 0; i < below.size(); ++i) {
        if (below[i]) {
            EXPECT_TRUE(climbed[i]) << "agent " << i << " ended at " << sim.positions()[i].transpose();
        }
    }
}

// Agents that step onto a lift ride it: while it carries them they stand still (they do
// not walk off its edge on the way up), and once it stops they find a new path from up
// there. A block like the Room's, but sunk into the floor as a Quake plat fills its shaft
// (nothing walks under it), rises 64 and comes back; every goal is on it.
TEST(AgentSimulation, AgentsRideALiftStandingStill) {
    const Room room;
    const CollisionObject lift =
        compileCollisionObject({Brush::box(Vec3(200, 200, -56), Vec3(328, 328, 16))}, room.compiled.onion.poses, room.world.bounds);
    CollisionScene scene(room.compiled.onion, {&lift});
    const std::vector<Aabb> top{{Vec3(200, 200, 16), Vec3(328, 328, 40)}};
    SimulationOptions options;
    options.agents = 8;
    options.seed = 4;
    options.poses = {1};
    options.movers = &room.movers;
    options.seekPlaces = &top;
    options.seekShare = 1.0;
    AgentSimulation sim(scene, options);
    int carriedSteps = 0, risen = 0;
    for (int step = 0; step < 1200; ++step) {
        const std::vector<Vec3> before = sim.positions();
        const Vec3 liftBefore = scene.objectOffset(0);
        sim.step();
        const Vec3 lift = scene.objectOffset(0) - liftBefore;
        for (size_t i = 0; i < before.size(); ++i) {
            const Vec3 moved = sim.positions()[i] - before[i];
            // Standing on the top while it moves: carried by its motion, not walking.
            const bool onTop = std::abs(before[i].x() - 264) < 64 && std::abs(before[i].y() - 264) < 64 &&
                               before[i].z() > 16 + 23 + liftBefore.z() - 1 && before[i].z() < 16 + 25 + liftBefore.z() + 1;
            if (!onTop || lift.isZero()) continue;
            ++carriedSteps;
            EXPECT_LT((moved - lift).head<2>().norm(), 1e-6) << "agent " << i << " walked at step " << step;
            EXPECT_LT(std::abs(moved.z() - lift.z()), 1.0) << "agent " << i << " at step " << step;
            if (lift.z() > 0 && sim.positions()[i].z() > 16 + 24 + 64 - 1) ++risen;
        }
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(carriedSteps, 100);
    EXPECT_GT(risen, 0);
    EXPECT_GT(sim.report().goalsReached, 0u);
}

// Random closed rooms with doors (some keyed, their keys on the floor), plats, buttons,
// triggers, secret doors and teleporters (destinations anywhere, some in solid), played as
// the game fires them with agents seeking the working places: no agent is ever in the
// world's solid, in an object or in another agent, and one and two threads agree.
TEST(AgentSimulation, RandomLevelsPlayedStayClear) {
    using namespace shallot::test;
    std::mt19937_64 rng(19);
    auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
    const std::vector<std::string> names = {"n0", "n1", "n2", "n3"};
    uint64_t teleported = 0, keys = 0, trips = 0, ridden = 0;
    const int levels = scaledCount(12);
    for (int level = 0; level < levels; ++level) {
        std::string text = twoRoomsWorldspawn(true);
        for (int e = 0; e < 12; ++e) {
            const int x = -480 + 80 * e, y = -224 + 64 * pick(7), kind = pick(7);
            Keys keys;
            if (pick(2)) keys.push_back({"targetname", names[size_t(pick(4))]});
            if (pick(2)) keys.push_back({"target", names[size_t(pick(4))]});
            const std::string brush = boxBrush(x, y, 0, x + 32 + 32 * pick(2), y + 32 + 32 * pick(2), 16 + 48 * pick(3));
            switch (kind) {
            case 0:
                keys.push_back({"classname", "func_door"});
                keys.push_back({"spawnflags", std::to_string(std::vector<int>{0, 8, 16, 32}[size_t(pick(4))])});
                keys.push_back({"angle", std::to_string(std::vector<int>{-1, 0, 90}[size_t(pick(3))])});
                break;
            case 1: keys.push_back({"classname", "func_button"}); break;
            case 2: keys.push_back({"classname", "func_plat"}); break;
            case 3: keys.push_back({"classname", std::vector<std::string>{"trigger_once", "trigger_multiple"}[size_t(pick(2))]}); break;
            case 4: keys.push_back({"classname", "func_door_secret"}); break;
            default: {
                // A teleporter to a destination anywhere in the rooms, walls and floor included.
                const std::string name = "t" + std::to_string(e);
                text += entityText({{"classname", "trigger_teleport"}, {"target", name}}, {brush});
                text += entityText({{"classname", "info_teleport_destination"},
                                    {"targetname", name},
                                    {"origin", std::to_string(-560 + pick(1120)) + " " + std::to_string(-300 + pick(600)) + " " +
                                                   std::to_string(pick(80) - 10)}});
                continue;
            }
            }
            text += entityText(keys, {brush});
        }
        text += entityText({{"classname", "item_key1"}, {"origin", std::to_string(-400 + pick(800)) + " 100 24"}});
        text += entityText({{"classname", "item_key2"}, {"origin", std::to_string(-400 + pick(800)) + " -100 24"}});
        const MapReadResult read = readMap(text, "random_play.map");
        ASSERT_TRUE(read.ok());
        const World world = worldFromMap(*read.map);
        const CompileResult compiled = compileWorld(world);
        const LevelObjects objects = buildLevelObjects(buildMovers(*read.map), compiled.onion.poses, world.bounds, 1);
        const FiringRules rules = buildFiringRules(*read.map, objects.movers.movers, buildEntityGraph(*read.map));
        const std::vector<Aabb> places = workingPlaces(objects.movers.movers, rules);
        std::vector<std::vector<Vec3>> ends;
        for (const int threads : {1, 2}) {
            CollisionScene scene(compiled.onion, objects.pointers());
            const std::vector<Vec3> spawn = objects.offsets();
            for (size_t i = 0; i < spawn.size(); ++i) scene.setObjectOffset(i, spawn[i]);
            scene.rebuildGrid();
            SimulationOptions options;
            options.agents = 24;
            options.seed = uint64_t(level) + 1;
            options.threads = threads;
            options.movers = &objects.movers.movers;
            options.firing = &rules;
            options.teleports = &rules.teleports;
            options.seekPlaces = &places;
            options.seekShare = 0.5;
            AgentSimulation sim(scene, options);
            for (int step = 0; step < 360; ++step) {
                sim.step();
                if (step % 6 == 5) expectAgentsClear(scene, sim);
                if (HasFatalFailure()) return;
            }
            ends.push_back(sim.positions());
            if (threads == 1) {
                teleported += sim.report().teleported;
                keys += sim.report().keysPickedUp;
                trips += sim.report().moverTrips;
                ridden += sim.report().agentsPushed;
            }
        }
        EXPECT_EQ(ends[0], ends[1]) << "level " << level;
    }
    // The levels exercised what they hold.
    EXPECT_GT(teleported, 0u);
    EXPECT_GT(keys, 0u);
    EXPECT_GT(trips, 0u);
    EXPECT_GT(ridden, 0u);
}

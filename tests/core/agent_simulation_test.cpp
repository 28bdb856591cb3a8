// Many agents (core/objects/agent_simulation.h) and the movers' cycles (mover_cycle.h).
#include "test_maps.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/build_movers.h"
#include "objects/agent_simulation.h"
#include "objects/level_objects.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace shallot;

namespace {

Mover door(const Vec3& open, double speed, double wait) {
    Mover m;
    m.kind = MoverKind::Door;
    m.motion.stops = {Vec3::Zero(), open};
    m.motion.waits = {0.0, wait};
    m.speed = speed;
    m.wait = wait;
    return m;
}

void expectNear(const Vec3& a, const Vec3& b) { EXPECT_LT((a - b).norm(), 1e-9) << a.transpose() << " vs " << b.transpose(); }

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
    std::vector<MoverCycle> cycles;

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
        MoverCycle c;
        c.legs = {{Vec3::Zero(), Vec3::Zero(), 0.0, 0.5}, {Vec3::Zero(), Vec3(0, 0, 64), 0.5, 0.5}, {Vec3(0, 0, 64), Vec3::Zero(), 0.5, 0.0}};
        c.loopFrom = 0;
        cycles.push_back(c);
    }
};

} // namespace

TEST(MoverCycle, DoorOpensWaitsAndCloses) {
    const MoverCycle c = moverCycle(door(Vec3(0, 0, -100), 100.0, 2.0));
    // Rest 3 s closed, 1 s down, wait 3 s (at least kCycleRestSeconds) open, 1 s up, again.
    expectNear(c.offsetAt(0.0), Vec3::Zero());
    expectNear(c.offsetAt(2.9), Vec3::Zero());
    expectNear(c.offsetAt(3.5), Vec3(0, 0, -50));
    expectNear(c.offsetAt(4.5), Vec3(0, 0, -100));
    expectNear(c.offsetAt(7.5), Vec3(0, 0, -50));
    expectNear(c.offsetAt(8.5), Vec3::Zero());
    expectNear(c.offsetAt(8.0 + 3.5), Vec3(0, 0, -50)); // the next round
    expectNear(c.offsetAt(-5.0), Vec3::Zero());
    expectNear(c.offsetAt(std::nan("")), Vec3::Zero());
}

TEST(MoverCycle, WaitForeverStaysOpen) {
    const MoverCycle c = moverCycle(door(Vec3(64, 0, 0), 64.0, -1.0));
    expectNear(c.offsetAt(3.5), Vec3(32, 0, 0));
    expectNear(c.offsetAt(100.0), Vec3(64, 0, 0));
}

TEST(MoverCycle, StartOpenGoesClosedFirst) {
    Mover m = door(Vec3(0, 50, 0), 50.0, 3.0);
    m.spawn = MoverState::open();
    const MoverCycle c = moverCycle(m);
    expectNear(c.offsetAt(0.0), Vec3(0, 50, 0));
    expectNear(c.offsetAt(3.5), Vec3(0, 25, 0));
    expectNear(c.offsetAt(4.0), Vec3::Zero());
}

TEST(MoverCycle, TrainLoopsWhereItsChainLoops) {
    Mover m;
    m.kind = MoverKind::Train;
    m.motion.stops = {Vec3::Zero(), Vec3(100, 0, 0), Vec3(100, 100, 0)};
    m.motion.waits = {0.0, 1.0, 0.0};
    m.motion.loopsTo = 0;
    m.speed = 100.0;
    const MoverCycle c = moverCycle(m);
    expectNear(c.offsetAt(0.5), Vec3(50, 0, 0));
    expectNear(c.offsetAt(1.5), Vec3(100, 0, 0)); // waiting at corner 1
    expectNear(c.offsetAt(2.5), Vec3(100, 50, 0));
    const double back = std::sqrt(2.0); // corner 2 back to corner 0
    expectNear(c.offsetAt(3.0 + back / 2), Vec3(50, 50, 0));
    expectNear(c.offsetAt(3.0 + back + 0.5), Vec3(50, 0, 0)); // round again
    m.motion.loopsTo = -1; // the chain ends: it stays at its last corner
    expectNear(moverCycle(m).offsetAt(50.0), Vec3(100, 100, 0));
}

TEST(MoverCycle, HostileMoversNeverMove) {
    for (const double speed : {0.0, -5.0, std::nan(""), double(INFINITY)}) {
        const MoverCycle c = moverCycle(door(Vec3(0, 0, 64), speed, 3.0));
        EXPECT_TRUE(c.legs.empty());
        expectNear(c.offsetAt(10.0), Vec3::Zero());
    }
    Mover train;
    train.kind = MoverKind::Train;
    train.speed = 100.0; // no corners
    EXPECT_TRUE(moverCycle(train).legs.empty());
}

TEST(AgentSimulation, AgentsNeverOverlapNorEnterSolidAndThreadsAgree) {
    const Room room;
    std::vector<std::vector<Vec3>> ends;
    for (const int threads : {1, 2}) {
        CollisionScene scene(room.compiled.onion, {&room.lift});
        SimulationOptions options;
        options.agents = 60;
        options.threads = threads;
        options.seed = 7;
        options.cycles = &room.cycles;
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
    const std::filesystem::path path = std::filesystem::path(SHALLOT_SHARED_MAPS) / "id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
    const MapReadResult read = readMapFile(path.string());
    ASSERT_TRUE(read.ok());
    const World world = worldFromMap(*read.map);
    CompileOptions compileOptions;
    compileOptions.threads = 2;
    const CompileResult compiled = compileWorld(world, compileOptions);
    const LevelObjects level = buildLevelObjects(buildMovers(*read.map), compiled.onion.poses, world.bounds, 2);
    ASSERT_GT(level.objects.size(), 20u);
    CollisionScene scene(compiled.onion, level.pointers());
    const std::vector<Vec3> offsets = level.offsets();
    for (size_t i = 0; i < offsets.size(); ++i) scene.setObjectOffset(i, offsets[i]);
    scene.rebuildGrid();
    SimulationOptions options;
    options.agents = 150;
    options.threads = 2;
    options.cycles = &level.cycles;
    AgentSimulation sim(scene, options);
    ASSERT_EQ(sim.report().agents, 150);
    for (int step = 0; step < 300; ++step) {
        sim.step();
        if (step % 30 == 29) expectAgentsClear(scene, sim);
        if (HasFatalFailure()) return;
    }
    const SimulationReport& r = sim.report();
    EXPECT_GT(r.objectMoves, 1000u); // the doors and plats run
    EXPECT_GT(r.goalsReached, 20u);
    EXPECT_GT(r.pathsFound, r.pathsMissed);
}

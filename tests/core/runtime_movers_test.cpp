// The runtime's movers (<shallot/runtime.h>: movers, withMovers, traceWithMover): a level
// compiled or loaded with its movers answers classify, trace, traceBox of a pose's box,
// move and their batches for the world plus the movers at their states, exactly as the
// collision scene shallot-cli query builds on the .map (random states, points, segments and
// moves); batches equal single queries; threads agree; bad states are errors; reach
// through the movers placed.
#include "shallot/runtime.h"

#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/build_movers.h"
#include "objects/collision_scene.h"
#include "objects/level_objects.h"
#include "compile/compiler.h"
#include "mover_maps.h"
#include "random_world.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <cmath>
#include <thread>

namespace shallot {
namespace {

namespace rt = shallot::runtime;
using namespace test;

rt::Vec3 R(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 E(const rt::Vec3& v) { return {v.x, v.y, v.z}; }

// The movers level written to a file, its reference (what shallot-cli query builds on the
// .map) and the runtime's tree compiled from it, saved and loaded again.
struct Fixture {
    std::string path;
    MapFile map;
    BspTree tree;
    LevelObjects objects;
    rt::Tree compiled, loaded;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture out;
        // One folder per process: CTest runs this suite's tests side by side, each writing it.
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() / ("shallot_runtime_movers_test_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        out.path = (dir / "movers.map").string();
        std::ofstream(out.path) << moversLevelText();
        MapReadResult read = readMapFile(out.path);
        EXPECT_TRUE(read.ok());
        out.map = std::move(*read.map);
        const World world = worldFromMap(out.map);
        out.tree = compileWorld(world).onion;
        out.objects = buildLevelObjects(buildMovers(out.map), out.tree.poses, world.bounds, 1);
        rt::Result<rt::Tree> compiled = rt::Tree::compileMap(out.path);
        EXPECT_TRUE(compiled) << compiled.error;
        out.compiled = compiled.value;
        const std::string obsp = (dir / "movers.obsp").string();
        EXPECT_TRUE(out.compiled.save(obsp));
        rt::Result<rt::Tree> loaded = rt::Tree::loadFile(obsp);
        EXPECT_TRUE(loaded) << loaded.error;
        out.loaded = loaded.value;
        return out;
    }();
    return f;
}

std::unique_ptr<CollisionScene> reference(const Fixture& f, const std::map<int, MoverState>& states) {
    auto scene = std::make_unique<CollisionScene>(f.tree, f.objects.pointers());
    const std::vector<Vec3> offsets = f.objects.offsets(states);
    for (size_t i = 0; i < offsets.size(); ++i) scene->setObjectOffset(i, offsets[i]);
    scene->rebuildGrid();
    return scene;
}

TEST(RuntimeMovers, TheLevelsMoversAreListed) {
    const Fixture& f = fixture();
    for (const rt::Tree* tree : {&f.compiled, &f.loaded}) {
        const std::vector<rt::Mover>& movers = tree->movers();
        ASSERT_EQ(movers.size(), 6u);
        EXPECT_EQ(movers[0].entity, 1);
        EXPECT_EQ(movers[0].classname, "func_door");
        EXPECT_EQ(movers[0].kind, "door");
        EXPECT_EQ(movers[0].spawn, "closed");
        EXPECT_EQ(movers[0].stops, 2u);
        EXPECT_EQ(movers[1].kind, "plat");
        EXPECT_EQ(movers[1].spawn, "open"); // a plat without a targetname rests at its bottom
        EXPECT_EQ(movers[2].kind, "train");
        EXPECT_EQ(movers[2].spawn, "corner 0");
        EXPECT_EQ(movers[5].kind, "static");
        EXPECT_EQ(movers[0].mins.x, -8.0);
        EXPECT_EQ(movers[0].maxs.z, 128.0);
        ASSERT_EQ(tree->moverStates().size(), 6u);
        EXPECT_EQ(tree->moverStates()[1].state.kind, rt::MoverState::Kind::Open);
    }
}

TEST(RuntimeMovers, QueriesAnswerAsTheQueryCommandsSceneAtRandomStates) {
    const Fixture& f = fixture();
    Rng rng(5);
    size_t moverHits = 0;
    for (int round = 0; round < 30; ++round) {
        std::vector<rt::MoverSetting> settings;
        std::map<int, MoverState> states;
        for (const rt::Mover& m : f.loaded.movers()) {
            const int pick = std::uniform_int_distribution<int>(0, 3)(rng);
            if (pick == 0) continue; // where it spawns
            const double fraction = uniform(rng, 0.0, 1.0);
            const rt::MoverState s = pick == 1   ? rt::MoverState::open()
                                     : pick == 2 ? rt::MoverState::at(fraction)
                                                 : rt::MoverState::atCorner(int(m.stops) - 1);
            states[m.entity] = pick == 1 ? MoverState::open() : pick == 2 ? MoverState::at(fraction)
                                                                         : MoverState::atCorner(int(m.stops) - 1);
            settings.push_back({m.entity, s});
        }
        const auto scene = reference(f, states);
        for (const rt::Tree* base : {&f.compiled, &f.loaded}) {
            const rt::Result<rt::Tree> placed = base->withMovers(settings);
            ASSERT_TRUE(placed) << placed.error;
            const rt::Tree& tree = placed.value;
            SceneScratch scratch;
            StageCounts counts;
            std::vector<double> from, to, delta;
            std::vector<rt::Hit> singles;
            std::vector<rt::Move> moves;
            const int player = tree.poseIndex("player");
            for (int k = 0; k < 40; ++k) {
                const Vec3 p(uniform(rng, -1024, 1024), uniform(rng, -512, 512), uniform(rng, -240, 256));
                const Vec3 q(uniform(rng, -1024, 1024), uniform(rng, -512, 512), uniform(rng, -240, 256));
                const Vec3 d = 0.2 * (q - p);
                const rt::Classification c = tree.classify(R(p)).value;
                EXPECT_EQ(c.leaf, f.tree.findLeaf(p));
                for (int pose = 0; pose < int(f.tree.poses.size()); ++pose)
                    EXPECT_EQ(c.solidFor(pose), scene->isSolid({pose, -1}, p, scratch, counts));
                const TraceResult want = scene->trace({player, -1}, p, q, scratch, counts);
                const int wantObject = want.hit || want.startSolid ? scratch.hitObject : -1;
                const rt::MoverHit got = tree.traceWithMover(player, R(p), R(q)).value;
                EXPECT_EQ(got.hit.hit, want.hit);
                EXPECT_EQ(got.hit.startSolid, want.startSolid);
                EXPECT_EQ(got.hit.allSolid, want.allSolid);
                EXPECT_EQ(got.hit.t, want.t);
                EXPECT_EQ(E(got.hit.point), want.point);
                if (want.hit) {
                    EXPECT_EQ(E(got.hit.normal), want.normal);
                }
                EXPECT_EQ(got.mover, wantObject >= 0 ? f.objects.movers.movers[size_t(wantObject)].entity : -1);
                moverHits += got.mover >= 0;
                const rt::Hit plain = tree.trace(player, R(p), R(q)).value;
                EXPECT_EQ(plain.t, got.hit.t);
                const rt::PoseBox& box = tree.poses()[size_t(player)];
                EXPECT_EQ(tree.traceBox(box.mins, box.maxs, R(p), R(q)).value.t, got.hit.t);
                const MoveResult wantMove = scene->move({player, -1}, p, d, 18.0, scratch, counts);
                const rt::Move m = tree.move(player, R(p), R(d), 18.0).value;
                EXPECT_EQ(E(m.end), wantMove.end);
                EXPECT_EQ(m.contacts.size(), wantMove.contacts.size());
                EXPECT_EQ(m.stepped, wantMove.stepped);
                for (int a = 0; a < 3; ++a) {
                    from.push_back(p[a]);
                    to.push_back(q[a]);
                    delta.push_back(d[a]);
                }
                singles.push_back(plain);
                moves.push_back(m);
            }
            // Batches answer as one by one.
            const size_t n = singles.size();
            std::vector<rt::Hit> batch(n);
            ASSERT_TRUE(tree.traceBatch(player, from.data(), to.data(), n, batch.data(), 2));
            std::vector<uint64_t> solid(n);
            ASSERT_TRUE(tree.classifyBatch(from.data(), n, solid.data()));
            std::vector<double> ends(3 * n);
            std::vector<char> startSolid(n), stepped(n);
            std::vector<uint32_t> contacts(n);
            bool* ss = reinterpret_cast<bool*>(startSolid.data());
            bool* st = reinterpret_cast<bool*>(stepped.data());
            ASSERT_TRUE(tree.moveBatch(player, from.data(), delta.data(), n, 18.0, {ends.data(), ss, st, contacts.data()}));
            for (size_t i = 0; i < n; ++i) {
                EXPECT_EQ(batch[i].t, singles[i].t);
                EXPECT_EQ(batch[i].hit, singles[i].hit);
                EXPECT_EQ(solid[i], tree.classify({from[3 * i], from[3 * i + 1], from[3 * i + 2]}).value.solid);
                EXPECT_EQ(ends[3 * i], moves[i].end.x);
                EXPECT_EQ(ends[3 * i + 2], moves[i].end.z);
                EXPECT_EQ(contacts[i], moves[i].contacts.size());
            }
        }
    }
    EXPECT_GT(moverHits, 30u);
}

// The door (entity 1) closed at spawn blocks the way from one half of the room to the
// other; open, it does not; a tree without withMovers is at the spawn states.
TEST(RuntimeMovers, TheDoorOpens) {
    const Fixture& f = fixture();
    const rt::Tree& spawn = f.loaded;
    const int player = spawn.poseIndex("player");
    const rt::MoverHit shut = spawn.traceWithMover(player, {-100, 0, 40}, {100, 0, 40}).value;
    EXPECT_TRUE(shut.hit.hit);
    EXPECT_EQ(shut.mover, 1);
    EXPECT_TRUE(spawn.classify({0, 0, 64}).value.solidFor(player));
    const rt::Tree open = spawn.withMovers({{1, rt::MoverState::open()}}).value;
    EXPECT_FALSE(open.traceWithMover(player, {-100, 0, 40}, {100, 0, 40}).value.hit.hit);
    EXPECT_FALSE(open.classify({0, 0, 64}).value.solidFor(player));
    EXPECT_EQ(open.move(player, {-100, 0, 40}, {200, 0, 0}, 18).value.end.x, 100.0);
    // Unnamed movers go back to where they spawn, whatever the tree's states were.
    EXPECT_TRUE(open.withMovers({}).value.classify({0, 0, 64}).value.solidFor(player));
    // The same through parsed states.
    EXPECT_EQ(rt::MoverState::parse("open").value.kind, rt::MoverState::Kind::Open);
    EXPECT_EQ(rt::MoverState::parse("corner 3").value.corner, 3);
    EXPECT_EQ(rt::MoverState::parse("0.25").value.fraction, 0.25);
    // A PVS keeps the movers and their states.
    const rt::Result<rt::Tree> withPvs = open.withPvs(false);
    ASSERT_TRUE(withPvs) << withPvs.error;
    EXPECT_EQ(withPvs.value.movers().size(), 6u);
    EXPECT_FALSE(withPvs.value.classify({0, 0, 64}).value.solidFor(player));
}

TEST(RuntimeMovers, BadStatesAreErrors) {
    const rt::Tree& tree = fixture().loaded;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(tree.withMovers({{0, rt::MoverState::open()}}).error, "no mover at entity 0");
    EXPECT_EQ(tree.withMovers({{99, rt::MoverState::open()}}).error, "no mover at entity 99");
    const std::string bad = "the state of entity 1 must be closed, open, a fraction in [0, 1] or a corner >= 0";
    EXPECT_EQ(tree.withMovers({{1, rt::MoverState::at(nan)}}).error, bad);
    EXPECT_EQ(tree.withMovers({{1, rt::MoverState::at(1.5)}}).error, bad);
    EXPECT_EQ(tree.withMovers({{1, rt::MoverState::at(-0.1)}}).error, bad);
    EXPECT_EQ(tree.withMovers({{1, rt::MoverState::atCorner(-1)}}).error, bad);
    rt::MoverState forged;
    forged.kind = rt::MoverState::Kind(200);
    EXPECT_EQ(tree.withMovers({{1, forged}}).error, bad);
    EXPECT_EQ(tree.withMovers({{1, rt::MoverState::open()}, {1, rt::MoverState::closed()}}).error,
              "entity 1 is named twice");
    for (const char* text : {"", "opened", "nan", "1.5", "-0.5", "corner", "corner -1", "corner x", "inf"})
        EXPECT_FALSE(rt::MoverState::parse(text)) << text;
    EXPECT_EQ(rt::MoverState::parse("wide").error,
              "a mover state is \"closed\", \"open\", a number in [0, 1] or \"corner N\", not \"wide\"");
    // A tree without movers (a file from before format version 6, or a level without
    // brush entities) lists none and refuses any.
    EXPECT_EQ(rt::Tree().withMovers({}).error, "no tree loaded");
    const rt::Result<rt::Tree> plain = rt::Tree::compileMap(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
    ASSERT_TRUE(plain) << plain.error;
    EXPECT_TRUE(plain.value.movers().empty());
    EXPECT_TRUE(plain.value.withMovers({}));
    EXPECT_EQ(plain.value.withMovers({{1, rt::MoverState::open()}}).error.rfind("no mover at entity 1", 0), 0u);
}

// reachWithMovers floods the world compiled with the movers placed at the tree's states:
// checked against the collision scene (per-object trees, independent of that compile) at
// random states: a start is placed (leaf >= 0) exactly where the scene has the pose free,
// and two points joined by a clear straight sweep are reachable. The .map's tree and the
// .obsp's (its stored brushes) answer alike; without the brushes it is an error.
TEST(RuntimeMovers, ReachWithMoversFloodsTheWorldWithTheMoversPlaced) {
    const Fixture& f = fixture();
    const int point = f.loaded.poseIndex("point"), player = f.loaded.poseIndex("player");
    // The point pose inside the closed door: in solid; with the door open, out in the room.
    const rt::Reach shut = f.loaded.reachWithMovers(point, {0, 0, 64}, {-600, 0, 24}).value;
    EXPECT_EQ(shut.fromLeaf, -1);
    EXPECT_FALSE(shut.reachable);
    EXPECT_TRUE(f.loaded.reach(point, {0, 0, 64}, {-600, 0, 24}).value.reachable); // the world alone
    const rt::Tree open = f.loaded.withMovers({{1, rt::MoverState::open()}}).value;
    EXPECT_TRUE(open.reachWithMovers(point, {0, 0, 64}, {-600, 0, 24}).value.reachable);

    Rng rng(41);
    size_t placedStarts = 0, clearSweeps = 0;
    for (int round = 0; round < 6; ++round) {
        std::vector<rt::MoverSetting> settings;
        std::map<int, MoverState> states;
        for (const rt::Mover& m : f.loaded.movers()) {
            if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) continue; // where it spawns
            const double fraction = uniform(rng, 0.0, 1.0);
            settings.push_back({m.entity, rt::MoverState::at(fraction)});
            states[m.entity] = MoverState::at(fraction);
        }
        const auto scene = reference(f, states);
        const rt::Tree fromMap = f.compiled.withMovers(settings).value;
        const rt::Tree fromObsp = f.loaded.withMovers(settings).value;
        SceneScratch scratch;
        StageCounts counts;
        for (int k = 0; k < 150; ++k) {
            const int pose = k % 2 ? player : point;
            const Vec3 p(uniform(rng, -1024, 1024), uniform(rng, -512, 512), uniform(rng, -240, 256));
            const Vec3 q = p + Vec3(uniform(rng, -300, 300), uniform(rng, -300, 300), uniform(rng, -60, 60));
            const rt::Result<rt::Reach> got = fromObsp.reachWithMovers(pose, R(p), R(q));
            ASSERT_TRUE(got) << got.error;
            const rt::Reach mapGot = fromMap.reachWithMovers(pose, R(p), R(q)).value;
            EXPECT_EQ(mapGot.reachable, got.value.reachable);
            EXPECT_EQ(mapGot.fromLeaf < 0, got.value.fromLeaf < 0);
            // Away from surfaces (the start may be nudged out by 1/8 unit): leaf -1 exactly
            // where the scene says the pose is in solid.
            bool sameAround = true;
            const bool solid = scene->isSolid({pose, -1}, p, scratch, counts);
            for (int a = 0; a < 3; ++a)
                for (double d : {-0.25, 0.25})
                    sameAround &= scene->isSolid({pose, -1}, p + d * Vec3::Unit(a), scratch, counts) == solid;
            if (sameAround) {
                EXPECT_EQ(got.value.fromLeaf < 0, solid) << p.transpose();
                placedStarts += !solid;
            }
            const TraceResult sweep = scene->trace({pose, -1}, p, q, scratch, counts);
            if (sameAround && !sweep.startSolid && !sweep.hit &&
                !scene->isSolid({pose, -1}, q, scratch, counts)) {
                EXPECT_TRUE(got.value.reachable) << p.transpose() << " -> " << q.transpose();
                ++clearSweeps;
            }
        }
    }
    EXPECT_GT(placedStarts, 100u);
    EXPECT_GT(clearSweeps, 50u);

    // Without the brushes; and a tree without movers answers as reach.
    const std::string bare = std::filesystem::path(f.path).replace_extension("bare.obsp").string();
    ASSERT_TRUE(f.compiled.save(bare, false));
    const rt::Tree loadedBare = rt::Tree::loadFile(bare).value;
    EXPECT_EQ(loadedBare.reachWithMovers(point, {0, 0, 64}, {-600, 0, 24}).error,
              "reach with movers needs the brushes: this tree was saved without them");
    const rt::Tree plain = rt::Tree::compileMap(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map").value;
    const rt::Reach a = plain.reachWithMovers(1, {400, 300, 24}, {200, 200, 24}).value,
                    b = plain.reach(1, {400, 300, 24}, {200, 200, 24}).value;
    EXPECT_EQ(a.reachable, b.reachable);
    EXPECT_EQ(a.fromLeaf, b.fromLeaf);
    EXPECT_EQ(a.toLeaf, b.toLeaf);
}

// Typed travel from the stored entities: through the door, and through the teleporter;
// without movers the route is the walking path.
TEST(RuntimeMovers, TravelPathsGoThroughTheDoorAndTheTeleporter) {
    const Fixture& f = fixture();
    const int player = f.loaded.poseIndex("player");
    auto types = [](const rt::Route& r) {
        std::vector<std::string> out;
        for (const rt::RouteStep& s : r.steps) out.push_back(s.type + (s.entity >= 0 ? " " + std::to_string(s.entity) : ""));
        return out;
    };
    const rt::Route door = f.loaded.travelPath(player, {-600, 0, 24}, {300, 0, 24}).value;
    ASSERT_TRUE(door.found);
    EXPECT_EQ(types(door), (std::vector<std::string>{"walk", "door 1", "walk"}));
    EXPECT_GT(door.seconds, door.length / 320.0); // walking at 320 and waiting for the door
    const rt::Route teleport = f.compiled.travelPath(player, {-868, 332, 24}, {900, 0, 24}).value;
    ASSERT_TRUE(teleport.found);
    EXPECT_EQ(types(teleport), (std::vector<std::string>{"teleport 8"}));
    const rt::Tree plain = rt::Tree::compileMap(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map").value;
    const int p = plain.poseIndex("player");
    Rng rng(3);
    int found = 0;
    for (int i = 0; i < 20; ++i) {
        // Around the player start (400 300 24).
        const rt::Vec3 a{uniform(rng, 200, 600), uniform(rng, 100, 500), 40}, b{uniform(rng, 200, 600), uniform(rng, 100, 500), 40};
        const rt::Route route = plain.travelPath(p, a, b).value;
        const rt::Path walk = plain.path(p, a, b).value;
        EXPECT_EQ(route.found, walk.found);
        found += walk.found;
        EXPECT_EQ(route.length, walk.length);
        ASSERT_EQ(route.points.size(), walk.points.size());
        for (size_t k = 0; k < walk.points.size(); ++k) EXPECT_EQ(E(route.points[k]), E(walk.points[k]));
    }
    EXPECT_GT(found, 5);
    EXPECT_EQ(f.loaded.travelPath(player, {std::nan(""), 0, 0}, {0, 0, 0}).error,
              "from and to must be 3 finite numbers within +-1e9");
}

// Trees at different states queried from several threads at once answer as one thread
// does (each thread has its own scratch for the movers' broad phase).
TEST(RuntimeMovers, ThreadsAtDifferentStatesAgree) {
    const Fixture& f = fixture();
    const rt::Tree open = f.loaded.withMovers({{1, rt::MoverState::open()}, {3, rt::MoverState::at(0.5)}}).value;
    const rt::Tree& shut = f.loaded;
    const int player = shut.poseIndex("player");
    std::vector<rt::Vec3> a, b;
    Rng rng(9);
    for (int i = 0; i < 400; ++i) {
        a.push_back({uniform(rng, -1024, 1024), uniform(rng, -512, 512), uniform(rng, -240, 256)});
        b.push_back({uniform(rng, -1024, 1024), uniform(rng, -512, 512), uniform(rng, -240, 256)});
    }
    auto answers = [&](const rt::Tree& tree) {
        std::vector<double> out;
        for (size_t i = 0; i < a.size(); ++i) out.push_back(tree.trace(player, a[i], b[i]).value.t);
        return out;
    };
    const std::vector<double> wantOpen = answers(open), wantShut = answers(shut);
    EXPECT_NE(wantOpen, wantShut);
    std::vector<std::vector<double>> got(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back([&, t] { got[size_t(t)] = answers(t % 2 ? open : shut); });
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < 4; ++t) EXPECT_EQ(got[size_t(t)], t % 2 ? wantOpen : wantShut);
}

} // namespace
} // namespace shallot

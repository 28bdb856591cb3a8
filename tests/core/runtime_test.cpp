// The runtime API (<shallot/runtime.h>): its answers are the core calls shallot-cli makes,
// box sweeps from a loaded file equal those from the .map, hostile buffers are error
// values, errors never throw, and concurrent queries agree with one thread.
#include "shallot/runtime.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/obsp_format.h"
#include "objects/obsp_movers.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/box_trace.h"
#include "query/point_visibility.h"
#include "query/slide_move.h"
#include "query/trace.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace shallot {
namespace {

using namespace test;
namespace rt = shallot::runtime;

rt::Vec3 v(const Vec3& p) { return {p.x(), p.y(), p.z()}; }
Vec3 e(const rt::Vec3& p) { return {p.x, p.y, p.z}; }

const std::string kRooms = SHALLOT_SAMPLE_MAPS "/figure1_rooms.map";

// figure1_rooms compiled here, and its .obsp bytes with and without brushes.
struct Level {
    World world;
    BspTree tree;
    std::string withBrushes, withoutBrushes;
    std::string asCompiled; // as shallot-cli compile -o writes it: brushes, movers and entities
};

const Level& level() {
    static const Level l = [] {
        Level out;
        out.world = loadMap(kRooms);
        out.tree = compileWorld(out.world).onion;
        std::ostringstream a, b;
        writeObsp(out.tree, a, &out.world.brushes);
        writeObsp(out.tree, b);
        out.withBrushes = a.str();
        out.withoutBrushes = b.str();
        const MapReadResult read = readMapFile(kRooms);
        const ObspMovers movers = obspMoversOf(*read.map, out.tree.poses, out.world.bounds, 1);
        std::ostringstream c;
        writeObsp(out.tree, c, &out.world.brushes, nullptr, nullptr, &movers);
        out.asCompiled = c.str();
        return out;
    }();
    return l;
}

rt::Tree loaded(const std::string& bytes) {
    rt::Result<rt::Tree> r = rt::Tree::loadBuffer(bytes.data(), bytes.size());
    EXPECT_TRUE(r.ok()) << r.error;
    return r.value;
}

void expectSameHit(const rt::Hit& h, const TraceResult& t) {
    EXPECT_EQ(h.startSolid, t.startSolid);
    EXPECT_EQ(h.allSolid, t.allSolid);
    EXPECT_EQ(h.hit, t.hit);
    EXPECT_EQ(h.t, t.t);
    EXPECT_EQ(e(h.point), t.point);
    EXPECT_EQ(e(h.normal), t.hit ? t.normal : Vec3::Zero());
}

TEST(Runtime, AnswersAreTheCoreCallsOfShallotCli) {
    const Level& l = level();
    const rt::Tree tree = loaded(l.withBrushes);
    ASSERT_EQ(tree.poses().size(), l.tree.poses.size());
    for (size_t i = 0; i < l.tree.poses.size(); ++i) {
        EXPECT_EQ(tree.poses()[i].name, l.tree.poses[i].name);
        EXPECT_EQ(e(tree.poses()[i].maxs), l.tree.poses[i].maxs);
        EXPECT_EQ(tree.poseIndex(l.tree.poses[i].name), int(i));
    }
    EXPECT_EQ(tree.poseIndex("nobody"), -1);
    EXPECT_TRUE(tree.hasBrushes());
    const Aabb box = l.tree.polygonBounds();
    Rng rng(3);
    auto point = [&] {
        return Vec3(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                    uniform(rng, box.mins.z(), box.maxs.z()));
    };
    for (int i = 0; i < 500; ++i) {
        const Vec3 a = point(), b = point();
        const int pose = int(rng() % l.tree.poses.size());
        const rt::Result<rt::Classification> c = tree.classify(v(a));
        ASSERT_TRUE(c.ok()) << c.error;
        EXPECT_EQ(c.value.leaf, l.tree.findLeaf(a));
        EXPECT_EQ(c.value.solid, l.tree.solidityAt(a));
        const rt::Result<rt::Hit> h = tree.trace(pose, v(a), v(b));
        ASSERT_TRUE(h.ok()) << h.error;
        expectSameHit(h.value, traceSegment(l.tree, pose, a, b));
        const rt::Result<rt::Move> m = tree.move(pose, v(a), v(b - a), 18.0);
        const MoveResult expected = slideMove(l.tree, pose, a, b - a, 18.0);
        ASSERT_TRUE(m.ok()) << m.error;
        EXPECT_EQ(e(m.value.end), expected.end);
        EXPECT_EQ(m.value.startSolid, expected.startSolid);
        EXPECT_EQ(m.value.stepped, expected.stepped);
        ASSERT_EQ(m.value.contacts.size(), expected.contacts.size());
        for (size_t k = 0; k < expected.contacts.size(); ++k) EXPECT_EQ(m.value.contacts[k].t, expected.contacts[k].t);
        const rt::Result<rt::Reach> r = tree.reach(pose, v(a), v(b));
        const ReachAnswer expectedReach = reachBetween(l.tree, pose, a, b);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(r.value.reachable, expectedReach.reachable);
        EXPECT_EQ(r.value.fromLeaf, expectedReach.fromLeaf);
        EXPECT_EQ(r.value.toLeaf, expectedReach.toLeaf);
    }
}

TEST(Runtime, ReachFromIsTheFloodOfShallotCliReach) {
    const Level& l = level();
    const rt::Tree tree = loaded(l.withoutBrushes);
    EXPECT_EQ(tree.leafCount(), l.tree.leafCount());
    Rng rng(8);
    int leaks = 0, solidStarts = 0;
    for (int i = 0; i < 40; ++i) {
        const int pose = int(rng() % l.tree.poses.size());
        const Vec3 p(uniform(rng, -100, 700), uniform(rng, -100, 700), uniform(rng, -50, 300));
        const rt::Result<rt::Region> r = tree.reachFrom(pose, v(p));
        ASSERT_TRUE(r.ok()) << r.error;
        const Flood f = flood(l.tree, pose, {p});
        EXPECT_EQ(r.value.startLeaf, f.starts[0].leaf);
        EXPECT_EQ(r.value.reachedLeaves, f.reachedLeaves);
        EXPECT_EQ(r.value.volume, f.volume);
        EXPECT_EQ(r.value.leak, f.leak);
        EXPECT_EQ(r.value.reached, f.reached);
        ASSERT_EQ(r.value.leakPath.size(), f.leakPath.size());
        for (size_t k = 0; k < f.leakPath.size(); ++k) EXPECT_EQ(e(r.value.leakPath[k]), f.leakPath[k]);
        leaks += r.value.leak;
        solidStarts += r.value.startLeaf < 0;
    }
    EXPECT_GT(leaks, 0);       // starts outside the level reach the world box
    EXPECT_LT(solidStarts, 40); // and most starts are somewhere
    EXPECT_EQ(tree.reachFrom(0, {0, 0, std::numeric_limits<double>::infinity()}).error,
              "from must be 3 finite numbers");
}

TEST(Runtime, BatchesAnswerAsOneByOne) {
    const rt::Tree tree = loaded(level().withoutBrushes);
    Rng rng(4);
    const size_t n = 3000; // more than kParallelTraceBatch: the threaded path runs
    std::vector<double> from(3 * n), to(3 * n);
    for (double& x : from) x = uniform(rng, -600, 600);
    for (double& x : to) x = uniform(rng, -600, 600);
    std::vector<uint64_t> solid(n), solidToo(n);
    std::vector<int32_t> leaves(n);
    ASSERT_TRUE(tree.classifyBatch(from.data(), n, solid.data()).ok());
    ASSERT_TRUE(tree.classifyBatch(from.data(), n, solidToo.data(), leaves.data()).ok());
    EXPECT_EQ(solid, solidToo);
    std::vector<rt::Hit> hits(n);
    ASSERT_TRUE(tree.traceBatch(1, from.data(), to.data(), n, hits.data(), 2).ok());
    for (size_t i = 0; i < n; ++i) {
        const rt::Vec3 a{from[3 * i], from[3 * i + 1], from[3 * i + 2]}, b{to[3 * i], to[3 * i + 1], to[3 * i + 2]};
        ASSERT_EQ(solid[i], tree.classify(a).value.solid) << i;
        ASSERT_EQ(leaves[i], tree.classify(a).value.leaf) << i;
        const rt::Hit one = tree.trace(1, a, b).value;
        ASSERT_EQ(hits[i].hit, one.hit) << i;
        ASSERT_EQ(hits[i].t, one.t) << i;
        ASSERT_EQ(hits[i].startSolid, one.startSolid) << i;
    }
    // Moves: many agents, one step each.
    std::vector<double> delta(3 * n), ends(3 * n);
    for (double& x : delta) x = uniform(rng, -64, 64);
    std::vector<char> startSolid(n), stepped(n); // char: std::vector<bool> has no data()
    std::vector<uint32_t> contacts(n);
    const rt::Tree::MoveColumns columns{ends.data(), reinterpret_cast<bool*>(startSolid.data()),
                                        reinterpret_cast<bool*>(stepped.data()), contacts.data()};
    ASSERT_TRUE(tree.moveBatch(1, from.data(), delta.data(), n, 18.0, columns).ok());
    for (size_t i = 0; i < n; i += 7) {
        const rt::Move m = tree.move(1, {from[3 * i], from[3 * i + 1], from[3 * i + 2]},
                                     {delta[3 * i], delta[3 * i + 1], delta[3 * i + 2]}, 18.0).value;
        ASSERT_EQ(e(m.end), Vec3(ends[3 * i], ends[3 * i + 1], ends[3 * i + 2])) << i;
        ASSERT_EQ(bool(startSolid[i]), m.startSolid) << i;
        ASSERT_EQ(bool(stepped[i]), m.stepped) << i;
        ASSERT_EQ(contacts[i], m.contacts.size()) << i;
    }
    // One bad row fails the batch and names it.
    from[3 * 17 + 1] = std::numeric_limits<double>::quiet_NaN();
    const rt::Status s = tree.traceBatch(1, from.data(), to.data(), n, hits.data());
    EXPECT_EQ(s.error, "row 17: from and to must be 3 finite numbers within +-1e9");
    EXPECT_EQ(tree.classifyBatch(from.data(), n, solid.data()).error, "point 17 must be 3 finite numbers");
    EXPECT_EQ(tree.moveBatch(1, from.data(), delta.data(), n, 0.0, columns).error,
              "row 17: from and delta must be 3 finite numbers within +-1e9");
}

TEST(Runtime, AnyBoxNeedsTheBrushesAndMatchesTheMapsSweeps) {
    const Level& l = level();
    const rt::Tree with = loaded(l.withBrushes), without = loaded(l.withoutBrushes);
    EXPECT_FALSE(without.hasBrushes());
    const BoxTraceWorld mapWorld = BoxTraceWorld::build(l.world); // shallot-cli query on the .map
    const rt::Vec3 lo{-10, -10, -10}, hi{10, 10, 20}, a{-200, 40, 40}, b{400, 60, 50};
    EXPECT_EQ(without.traceBox(lo, hi, a, b).error,
              "boxes other than the poses need the brushes: this tree was saved without them");
    // A pose's box is the tree's answer, with or without brushes.
    const Pose& player = l.tree.poses[1];
    for (const rt::Tree* t : {&with, &without}) {
        const rt::Result<rt::Hit> h = t->traceBox(v(player.mins), v(player.maxs), a, b);
        ASSERT_TRUE(h.ok()) << h.error;
        expectSameHit(h.value, traceSegment(l.tree, 1, e(a), e(b)));
    }
    Rng rng(9);
    for (int i = 0; i < 400; ++i) {
        const Vec3 half(uniform(rng, 0, 30), uniform(rng, 0, 30), uniform(rng, 0, 40));
        const Vec3 p(uniform(rng, -300, 700), uniform(rng, -300, 700), uniform(rng, -50, 300));
        const Vec3 q(uniform(rng, -300, 700), uniform(rng, -300, 700), uniform(rng, -50, 300));
        const rt::Result<rt::Hit> h = with.traceBox(v(-half), v(half), v(p), v(q));
        ASSERT_TRUE(h.ok()) << h.error;
        expectSameHit(h.value, traceBox(mapWorld, -half, half, p, q));
    }
}

TEST(Runtime, ErrorsAreValues) {
    const rt::Tree tree = loaded(level().withoutBrushes);
    const rt::Vec3 o{0, 0, 0}, x{1, 0, 0};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(tree.trace(3, o, x).error, "pose index 3 out of range (the tree has 3 poses)");
    EXPECT_EQ(tree.trace(-1, o, x).error, "pose index -1 out of range (the tree has 3 poses)");
    EXPECT_EQ(tree.trace(0, {nan, 0, 0}, x).error, "from must be 3 finite numbers within +-1e9");
    EXPECT_EQ(tree.trace(0, o, {2e9, 0, 0}).error, "to must be 3 finite numbers within +-1e9");
    EXPECT_EQ(tree.move(0, o, x, -1).error, "stepHeight must be a number in [0, 1e9]");
    EXPECT_EQ(tree.move(0, o, {0, nan, 0}).error, "delta must be 3 finite numbers within +-1e9");
    EXPECT_EQ(tree.classify({0, 0, nan}).error, "point must be 3 finite numbers");
    EXPECT_EQ(tree.reach(0, o, {nan, 0, 0}).error, "from and to must be 3 finite numbers each");
    EXPECT_EQ(tree.traceBox({1, 0, 0}, {0, 0, 0}, o, x).error, "the box must have finite mins <= maxs within +-1e9");
    const rt::Tree empty;
    EXPECT_EQ(empty.classify(o).error, "no tree loaded");
    EXPECT_EQ(empty.trace(0, o, x).error, "no tree loaded");
    EXPECT_EQ(empty.save("/tmp/never.obsp").error, "no tree loaded");
    EXPECT_TRUE(empty.poses().empty());
    EXPECT_FALSE(tree.trace(0, o, x).error.size()); // a valid query still answers
}

TEST(Runtime, HostileBuffersAreErrors) {
    const std::string& good = level().withBrushes;
    EXPECT_EQ(rt::Tree::loadBuffer(nullptr, 10).error, "obsp: null buffer");
    EXPECT_FALSE(rt::Tree::loadBuffer(nullptr, 0).ok());
    EXPECT_FALSE(rt::Tree::loadBuffer("OBSP", 4).ok());
    // Truncations at every 97th byte and the last 200 (in the brushes section).
    for (size_t length = 0; length < good.size(); length += (length + 200 < good.size() ? 97 : 1)) {
        const rt::Result<rt::Tree> r = rt::Tree::loadBuffer(good.data(), length);
        ASSERT_FALSE(r.ok()) << length;
        ASSERT_EQ(r.error.rfind("obsp: ", 0), 0u) << r.error;
    }
    // Huge counts in the header and the brushes section: refused before allocating.
    for (const auto& [at, value] : std::vector<std::pair<size_t, uint32_t>>{{12, 64}, {16, 0x7ffffffe}, {20, 0x7fffffff},
                                                                           {24, 0x7fffffff}, {28, 0xffffffff}}) {
        std::string bytes = good;
        for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = char((value >> (8 * i)) & 0xff);
        const rt::Result<rt::Tree> r = rt::Tree::loadBuffer(bytes.data(), bytes.size());
        EXPECT_FALSE(r.ok()) << at;
        EXPECT_EQ(r.error.find("out of memory"), std::string::npos) << r.error;
    }
    // Random bytes flipped anywhere: an error (the checksums catch it), never a crash.
    Rng rng(12);
    for (int i = 0; i < 300; ++i) {
        std::string bytes = good;
        bytes[rng() % bytes.size()] ^= char(1 + rng() % 255);
        EXPECT_FALSE(rt::Tree::loadBuffer(bytes.data(), bytes.size()).ok());
    }
}

TEST(Runtime, FilesAreMappedSavedAndReloaded) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "shallot_runtime_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "rooms.obsp").string();
    rt::Result<rt::Tree> compiled = rt::Tree::compileMap(kRooms);
    ASSERT_TRUE(compiled.ok()) << compiled.error;
    ASSERT_TRUE(compiled.value.save(path).ok());
    const rt::Result<rt::Tree> r = rt::Tree::loadFile(path);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.value.hasBrushes());
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(bytes == level().asCompiled); // compileMap is the compile shallot-cli runs
    ASSERT_TRUE(compiled.value.save(path, false).ok());
    EXPECT_FALSE(rt::Tree::loadFile(path).value.hasBrushes());

    EXPECT_EQ(rt::Tree::loadFile((dir / "missing.obsp").string()).error,
              (dir / "missing.obsp").string() + ": obsp: cannot open '" + (dir / "missing.obsp").string() +
                  "': No such file or directory");
    EXPECT_EQ(rt::Tree::loadFile(dir.string()).error, dir.string() + ": obsp: '" + dir.string() + "' is not a regular file");
    std::ofstream(dir / "empty.obsp").close();
    EXPECT_FALSE(rt::Tree::loadFile((dir / "empty.obsp").string()).ok());
    EXPECT_EQ(rt::Tree::compileMap((dir / "missing.map").string()).error.find((dir / "missing.map").string()), 0u);
    // Poses given to the compile replace the map's.
    const rt::Result<rt::Tree> crouch = rt::Tree::compileMap(kRooms, {{"crouch", {-16, -16, -12}, {16, 16, 12}}});
    ASSERT_TRUE(crouch.ok()) << crouch.error;
    ASSERT_EQ(crouch.value.poses().size(), 1u);
    EXPECT_EQ(crouch.value.poses()[0].name, "crouch");
    std::filesystem::remove_all(dir);
}

// visible() and its batch are the core's pointVisibility (shallot-cli query's "visible"
// op) with the stored PVS; without one nothing is known; withPvs computes what vis stores;
// a damaged PVS loads the tree with a warning.
TEST(Runtime, VisibleIsTheQueryOpsAnswer) {
    const Level& l = level();
    TreePvsSettings settings;
    settings.threads = 2;
    const std::optional<TreePvs> pvs = computeTreePvs(l.tree, l.world.brushes, settings).pvs;
    ASSERT_TRUE(pvs);
    std::ostringstream out;
    writeObsp(l.tree, out, &l.world.brushes, &*pvs);
    const rt::Tree stored = loaded(out.str()), bare = loaded(l.withBrushes);
    EXPECT_TRUE(stored.hasPvs());
    EXPECT_FALSE(bare.hasPvs());
    const rt::Result<rt::Tree> computed = bare.withPvs(true, 2);
    ASSERT_TRUE(computed.ok()) << computed.error;
    EXPECT_TRUE(computed.value.hasPvs());
    const int sight = sightPose(l.tree);
    Rng rng(31);
    const size_t n = 3000; // more than kParallelTraceBatch: the threaded path runs
    std::vector<double> from(3 * n), to(3 * n);
    for (size_t i = 0; i < 3 * n; ++i) {
        from[i] = uniform(rng, -100, 900);
        to[i] = i % 30 < 3 ? from[i] : uniform(rng, -100, 900);
    }
    std::vector<char> seen(n), known(n), clear(n); // char: std::vector<bool> has no data()
    std::vector<int32_t> fromLeaf(n), toLeaf(n);
    const rt::Tree::VisibilityColumns columns{reinterpret_cast<bool*>(seen.data()), reinterpret_cast<bool*>(known.data()),
                                              reinterpret_cast<bool*>(clear.data()), fromLeaf.data(), toLeaf.data()};
    ASSERT_TRUE(stored.visibleBatch(from.data(), to.data(), n, columns, 2).ok());
    int culled = 0, clearCount = 0;
    for (size_t i = 0; i < n; ++i) {
        const Vec3 a(from[3 * i], from[3 * i + 1], from[3 * i + 2]), b(to[3 * i], to[3 * i + 1], to[3 * i + 2]);
        const PointVisibility expected = pointVisibility(l.tree, sight, &*pvs, a, b);
        const rt::Result<rt::Visibility> one = stored.visible(v(a), v(b));
        ASSERT_TRUE(one.ok()) << one.error;
        ASSERT_EQ(one.value.pvs, expected.pvs) << i;
        ASSERT_EQ(one.value.pvsKnown, expected.pvsKnown) << i;
        ASSERT_EQ(one.value.clear, expected.clear) << i;
        ASSERT_EQ(one.value.fromLeaf, expected.fromLeaf) << i;
        ASSERT_EQ(one.value.toLeaf, expected.toLeaf) << i;
        ASSERT_EQ(bool(seen[i]), expected.pvs) << i;
        ASSERT_EQ(bool(known[i]), expected.pvsKnown) << i;
        ASSERT_EQ(bool(clear[i]), expected.clear) << i;
        ASSERT_EQ(fromLeaf[i], expected.fromLeaf) << i;
        ASSERT_EQ(toLeaf[i], expected.toLeaf) << i;
        const rt::Visibility fresh = computed.value.visible(v(a), v(b)).value;
        ASSERT_EQ(fresh.pvs, expected.pvs) << i; // withPvs is what vis stores
        const rt::Visibility none = bare.visible(v(a), v(b)).value;
        ASSERT_TRUE(none.pvs && !none.pvsKnown) << i;
        ASSERT_EQ(none.clear, expected.clear) << i;
        culled += expected.pvsKnown && !expected.pvs;
        clearCount += expected.clear;
    }
    EXPECT_GT(culled, 100);
    EXPECT_GT(clearCount, 100);
    from[3 * 5] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(stored.visibleBatch(from.data(), to.data(), n, columns).error,
              "row 5: from and to must be 3 finite numbers within +-1e9");
    EXPECT_EQ(stored.visible({0, 0, 0}, {0, 0, 2e9}).error, "to must be 3 finite numbers within +-1e9");
    EXPECT_EQ(loaded(l.withoutBrushes).withPvs().error, "a PVS needs the brushes: this tree was saved without them");
    EXPECT_EQ(rt::Tree().visible({0, 0, 0}, {1, 1, 1}).error, "no tree loaded");
    const rt::Result<rt::Tree> eyeless = rt::Tree::compileMap(kRooms, {{"crouch", {-16, -16, -12}, {16, 16, 12}}});
    ASSERT_TRUE(eyeless.ok()) << eyeless.error;
    EXPECT_EQ(eyeless.value.visible({0, 0, 0}, {1, 1, 1}).error,
              "the tree has no sight pose (a point pose at the reference point): nothing sees");
    EXPECT_EQ(eyeless.value.withPvs().error, "no pose is a point at the reference point (what the eye sees)");
    // Saved with the PVS; cut short inside it: the tree loads, the PVS does not, a warning says why.
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "shallot_runtime_pvs_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "rooms.obsp").string();
    ASSERT_TRUE(computed.value.save(path).ok());
    const rt::Result<rt::Tree> reloaded = rt::Tree::loadFile(path);
    ASSERT_TRUE(reloaded.ok()) << reloaded.error;
    EXPECT_TRUE(reloaded.value.hasPvs());
    const std::string cut = out.str().substr(0, out.str().size() - 10);
    const rt::Tree damaged = loaded(cut);
    EXPECT_FALSE(damaged.hasPvs());
    ASSERT_EQ(damaged.warnings().size(), 1u);
    EXPECT_EQ(damaged.warnings()[0].find("obsp: section 'visibility'"), 0u) << damaged.warnings()[0];
    EXPECT_EQ(damaged.leafCount(), l.tree.leafCount());
    std::filesystem::remove_all(dir);
}

TEST(Runtime, ConcurrentQueriesAgreeWithOneThread) {
    const rt::Tree tree = loaded(level().withBrushes); // its box world is built by the first traceBox
    Rng rng(21);
    struct Query {
        rt::Vec3 half, a, b;
    };
    std::vector<Query> queries(2000);
    for (Query& q : queries)
        q = {{uniform(rng, 0, 30), uniform(rng, 0, 30), uniform(rng, 0, 30)},
             {uniform(rng, -300, 700), uniform(rng, -300, 700), uniform(rng, -50, 300)},
             {uniform(rng, -300, 700), uniform(rng, -300, 700), uniform(rng, -50, 300)}};
    auto run = [&](std::vector<double>& out) {
        for (const Query& q : queries) {
            const rt::Vec3 lo{-q.half.x, -q.half.y, -q.half.z};
            out.push_back(tree.traceBox(lo, q.half, q.a, q.b).value.t);
            out.push_back(tree.trace(2, q.a, q.b).value.t);
            out.push_back(double(tree.classify(q.a).value.solid));
        }
    };
    std::vector<std::vector<double>> results(4);
    std::vector<std::thread> threads;
    for (auto& r : results) threads.emplace_back(run, std::ref(r));
    for (std::thread& t : threads) t.join();
    std::vector<double> alone;
    run(alone);
    for (const auto& r : results) EXPECT_EQ(r, alone);
}

} // namespace
} // namespace shallot

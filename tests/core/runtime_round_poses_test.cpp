// Round poses in the runtime (<shallot/runtime.h>: RoundPose, withRoundPoses): on id_e1m1,
// compiled by compileMap or loaded from its .obsp (the stored brushes), an ellipsoid and a
// capsule answer classify, trace, move and their batches exactly as the round pose world
// of the .map's world and its movers' brushes where they spawn (query/round_pose_world.h;
// shallot-cli query's tree in front gives the same answers: RoundPoseLevels); bad shapes
// and misuse are errors.
#include "shallot/runtime.h"

#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/build_movers.h"
#include "movers/placed_movers.h"
#include "query/round_pose_world.h"
#include "random_world.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <limits>

namespace shallot {
namespace {

namespace rt = shallot::runtime;
using namespace test;

rt::Vec3 R(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 E(const rt::Vec3& v) { return {v.x, v.y, v.z}; }

const std::string kE1m1 = SHALLOT_SHARED_MAPS "/id_e1m1.map";

struct Fixture {
    World world;
    LevelMovers movers;
    rt::Tree compiled, loaded;

    // The world with the movers' brushes where `states` (by entity) or their spawn put them.
    World placed(const std::map<int, MoverState>& states = {}) const {
        std::vector<Vec3> offsets;
        for (const Mover& m : movers.movers) {
            const auto it = states.find(m.entity);
            offsets.push_back(m.offsetAt(it != states.end() ? it->second : m.spawn));
        }
        return worldWithMovers(world, movers.movers, offsets);
    }
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture out;
        MapReadResult read = readMapFile(kE1m1);
        EXPECT_TRUE(read.ok());
        out.world = worldFromMap(*read.map);
        out.movers = buildMovers(*read.map);
        out.compiled = rt::Tree::compileMap(kE1m1).value;
        // One file per process: CTest runs this suite's tests side by side, each building it.
        const std::string path =
            (std::filesystem::temp_directory_path() / ("shallot_runtime_round_" + std::to_string(::getpid()) + ".obsp")).string();
        EXPECT_TRUE(out.compiled.save(path));
        out.loaded = rt::Tree::loadFile(path).value;
        return out;
    }();
    return f;
}

const std::vector<rt::RoundPose> kShapes = {rt::RoundPose::parse("egg", "ellipsoid:16,28").value,
                                            rt::RoundPose::parse("cap", "capsule:16,56").value};

TEST(RuntimeRoundPoses, AnswersEqualTheExactRoundPoseWorld) {
    const Fixture& f = fixture();
    const World spawned = f.placed();
    const std::vector<RoundPoseWorld> exact = {RoundPoseWorld(spawned, Pose::round("egg", PoseShape::ellipsoid(16, 28))),
                                               RoundPoseWorld(spawned, Pose::round("cap", PoseShape::capsule(16, 56)))};
    const RoundPoseWorld worldAlone(f.world, Pose::round("cap", PoseShape::capsule(16, 56)));
    Rng rng(42);
    size_t solid = 0, hits = 0, moverHits = 0;
    for (const rt::Tree* base : {&f.compiled, &f.loaded}) {
        const rt::Result<rt::Tree> r = base->withRoundPoses(kShapes);
        ASSERT_TRUE(r) << r.error;
        const rt::Tree& tree = r.value;
        ASSERT_EQ(tree.poses().size(), 5u);
        EXPECT_EQ(tree.poses()[3].name, "egg");
        EXPECT_EQ(tree.poses()[4].maxs.z, 28.0); // the capsule's bounding box
        EXPECT_EQ(tree.poseIndex("cap"), 4);
        EXPECT_EQ(tree.roundPoses().size(), 2u);
        std::vector<double> from, to;
        for (int k = 0; k < 300; ++k) {
            // Around the player start's hall and the first doors, where floors and walls are near.
            const Vec3 p(uniform(rng, 100, 700), uniform(rng, -600, 700), uniform(rng, -40, 200));
            const Vec3 q = p + Vec3(uniform(rng, -200, 200), uniform(rng, -200, 200), uniform(rng, -200, 200));
            const rt::Classification c = tree.classify(R(p)).value;
            for (int i = 0; i < 2; ++i) {
                const int pose = 3 + i;
                EXPECT_EQ(c.solidFor(pose), exact[size_t(i)].isSolid(p));
                solid += c.solidFor(pose);
                const TraceResult want = exact[size_t(i)].trace(p, q);
                const rt::Hit got = tree.trace(pose, R(p), R(q)).value;
                EXPECT_EQ(got.startSolid, want.startSolid);
                EXPECT_EQ(got.hit, want.hit);
                EXPECT_EQ(got.t, want.t);
                EXPECT_EQ(E(got.point), want.point);
                hits += got.hit;
                const rt::MoverHit withMover = tree.traceWithMover(pose, R(p), R(q)).value;
                EXPECT_EQ(withMover.hit.t, got.t);
                if (withMover.mover >= 0 && i == 1 && !got.startSolid) { // a door's, met before any wall
                    const TraceResult alone = worldAlone.trace(p, q);
                    EXPECT_TRUE(!alone.hit || alone.t > got.t);
                }
                moverHits += withMover.mover >= 0;
                const Vec3 d = 0.25 * (q - p);
                const MoveResult wantMove = slideMove(exact[size_t(i)], p, d, 18.0);
                const rt::Move m = tree.move(pose, R(p), R(d), 18.0).value;
                EXPECT_EQ(E(m.end), wantMove.end);
                EXPECT_EQ(m.contacts.size(), wantMove.contacts.size());
                EXPECT_EQ(m.stepped, wantMove.stepped);
            }
            for (int a = 0; a < 3; ++a) {
                from.push_back(p[a]);
                to.push_back(q[a]);
            }
        }
        // Batches: as one by one.
        const size_t n = from.size() / 3;
        std::vector<rt::Hit> batch(n);
        ASSERT_TRUE(tree.traceBatch(4, from.data(), to.data(), n, batch.data(), 2));
        std::vector<uint64_t> bits(n);
        ASSERT_TRUE(tree.classifyBatch(from.data(), n, bits.data()));
        for (size_t i = 0; i < n; ++i) {
            const rt::Vec3 a{from[3 * i], from[3 * i + 1], from[3 * i + 2]}, b{to[3 * i], to[3 * i + 1], to[3 * i + 2]};
            EXPECT_EQ(batch[i].t, tree.trace(4, a, b).value.t);
            EXPECT_EQ(bits[i], tree.classify(a).value.solid);
        }
        // The box poses answer as before.
        EXPECT_EQ(tree.trace(1, {480, -352, 88}, {480, -352, -100}).value.t,
                  base->trace(1, {480, -352, 88}, {480, -352, -100}).value.t);
        // The first door (entity 14) stops the capsule where it spawns, shut; opened with
        // its twin (15), the capsule passes as through the world with them open.
        const rt::MoverHit shut = tree.traceWithMover(4, {300, 540, 40}, {100, 540, 40}).value;
        EXPECT_TRUE(shut.hit.hit);
        EXPECT_EQ(shut.mover, 14);
        const rt::Tree open = tree.withMovers({{14, rt::MoverState::open()}, {15, rt::MoverState::open()}}).value;
        EXPECT_EQ(open.roundPoses().size(), 2u);
        const RoundPoseWorld opened(f.placed({{14, MoverState::open()}, {15, MoverState::open()}}),
                                    Pose::round("cap", PoseShape::capsule(16, 56)));
        EXPECT_FALSE(open.trace(4, {300, 540, 40}, {100, 540, 40}).value.hit);
        EXPECT_EQ(open.trace(4, {300, 540, 40}, {100, 540, 40}).value.t, opened.trace({300, 540, 40}, {100, 540, 40}).t);
    }
    EXPECT_GT(solid, 50u);
    EXPECT_GT(hits, 100u);
    EXPECT_GT(moverHits, 0u); // 4: the random segments seldom reach a door
}

// The movers' shapes are kept per pose shape, not per name: the same level given a thin
// capsule, then a fat one under the same name, meets the shut door 14 where each shape's
// exact world with the door does (the fat one sooner), not where the other would.
TEST(RuntimeRoundPoses, AShapeGivenAgainUnderItsNameMeetsTheMoversAsItself) {
    const Fixture& f = fixture();
    const World spawned = f.placed();
    const Vec3 from(300, 540, 40), to(100, 540, 40);
    double thinT = 0;
    for (const auto& [radius, height] : {std::pair{16.0, 56.0}, std::pair{28.0, 60.0}, std::pair{16.0, 56.0}}) {
        const rt::Tree tree = f.loaded.withRoundPoses({rt::RoundPose{"cap", rt::RoundPose::Shape::Capsule, radius, height}}).value;
        const RoundPoseWorld exact(spawned, Pose::round("cap", PoseShape::capsule(radius, height)));
        const rt::MoverHit got = tree.traceWithMover(tree.poseIndex("cap"), R(from), R(to)).value;
        EXPECT_EQ(got.mover, 14);
        EXPECT_EQ(got.hit.t, exact.trace(from, to).t) << radius;
        if (radius == 16.0) thinT = got.hit.t;
        else EXPECT_LT(got.hit.t, thinT);
    }
}

TEST(RuntimeRoundPoses, BadShapesAndMisuseAreErrors) {
    const rt::Tree& tree = fixture().loaded;
    EXPECT_EQ(rt::RoundPose::parse("cap", "capsule:16,20").error, "capsule height 20 is shorter than its diameter 32");
    EXPECT_FALSE(rt::RoundPose::parse("cap", "capsule:0,56"));
    EXPECT_FALSE(rt::RoundPose::parse("cap", "ellipsoid:nan,28"));
    EXPECT_FALSE(rt::RoundPose::parse("cap", "box"));
    EXPECT_FALSE(rt::RoundPose::parse("cap", "sphere:16"));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const rt::RoundPose& bad : {rt::RoundPose{"a", rt::RoundPose::Shape::Capsule, -16, 56},
                                     rt::RoundPose{"a", rt::RoundPose::Shape::Ellipsoid, 16, nan},
                                     rt::RoundPose{"a", rt::RoundPose::Shape::Capsule, 16, 20},
                                     rt::RoundPose{"a", rt::RoundPose::Shape::Ellipsoid, 1e9, 16}}) {
        const rt::Result<rt::Tree> r = tree.withRoundPoses({bad});
        EXPECT_FALSE(r);
        EXPECT_EQ(r.error.rfind("round pose 0 (\"a\"): ", 0), 0u) << r.error;
    }
    rt::RoundPose forged = kShapes[1];
    forged.shape = rt::RoundPose::Shape(9);
    EXPECT_EQ(tree.withRoundPoses({forged}).error, "round pose 0 (\"cap\"): unknown shape");
    EXPECT_EQ(tree.withRoundPoses({rt::RoundPose{"player", rt::RoundPose::Shape::Capsule, 16, 56}}).error,
              "round pose 0 (\"player\"): the name is taken");
    EXPECT_EQ(tree.withRoundPoses({kShapes[1], kShapes[1]}).error, "round pose 1 (\"cap\"): the name is taken");
    EXPECT_EQ(tree.withRoundPoses({rt::RoundPose{"", rt::RoundPose::Shape::Capsule, 16, 56}}).error,
              "round pose 0 (\"\"): it needs a name");
    const rt::Tree round = tree.withRoundPoses(kShapes).value;
    EXPECT_EQ(round.reach(4, {480, -352, 88}, {480, 0, 88}).error,
              "pose 4 (\"cap\") is round: reach and paths need a pose of the tree");
    EXPECT_FALSE(round.path(3, {480, -352, 88}, {480, 0, 88}));
    EXPECT_FALSE(round.reachFrom(3, {480, -352, 88}));
    EXPECT_EQ(round.trace(5, {0, 0, 0}, {1, 1, 1}).error, "pose index 5 out of range (the tree has 5 poses)");
    EXPECT_FALSE(round.trace(4, {nan, 0, 0}, {1, 1, 1}));
    EXPECT_FALSE(round.move(4, {0, 0, 0}, {nan, 1, 1}, 18));
    // An empty list takes the round poses away again.
    EXPECT_EQ(round.withRoundPoses({}).value.poses().size(), 3u);
    // Without brushes there is nothing to test a round shape against.
    const std::string path =
        (std::filesystem::temp_directory_path() / ("shallot_runtime_round_bare_" + std::to_string(::getpid()) + ".obsp")).string();
    ASSERT_TRUE(tree.save(path, false));
    EXPECT_EQ(rt::Tree::loadFile(path).value.withRoundPoses(kShapes).error,
              "round poses need the brushes: this tree was saved without them");
    EXPECT_EQ(rt::Tree().withRoundPoses(kShapes).error, "no tree loaded");
}

} // namespace
} // namespace shallot

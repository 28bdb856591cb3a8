// Round poses and boxes other than the poses meet the movers (objects/mover_shapes.h,
// objects/placed_move_spaces.h): each mover's brushes exact in its own frame at its offset,
// with the world's space, answer as one exact space over the world and the moved brushes
// together (random worlds, random movers at random states, random shapes and boxes).
#include "compile/compiler.h"
#include "movers/brush_bounds.h"
#include "movers/placed_movers.h"
#include "objects/level_objects.h"
#include "objects/mover_shapes.h"
#include "random_movers.h"

#include <gtest/gtest.h>

#include <map>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr double kSpread = 200.0;
constexpr double kSameT = 1e-9; // one sweep through the same brushes, so the same arithmetic

struct MoversWorld {
    World world;
    LevelMovers movers;
    std::vector<Vec3> offsets;
    World moved; // the world plus every mover's brushes where the states put them
};

MoversWorld randomMoversWorld(Rng& rng) {
    MoversWorld out;
    out.world = randomWorld(rng, 40, kSpread, 1);
    std::map<int, MoverState> states;
    for (int i = 0; i < 8; ++i) {
        out.movers.movers.push_back(randomDoor(rng, i + 1, kSpread));
        states[i + 1] = randomMoverState(rng);
    }
    for (const Mover& m : out.movers.movers) out.offsets.push_back(m.offsetAt(states.at(m.entity)));
    out.moved = worldWithMovers(out.world, out.movers.movers, out.offsets);
    return out;
}

// A segment starting near a random mover's placed brushes.
std::pair<Vec3, Vec3> segmentNearAMover(Rng& rng, const MoversWorld& w) {
    const size_t i = rng() % w.movers.movers.size();
    const Aabb b = brushesBounds(w.movers.movers[i].brushes);
    const Vec3 centre = 0.5 * (b.mins + b.maxs) + w.offsets[i];
    const Vec3 s = centre + Vec3(uniform(rng, -80, 80), uniform(rng, -80, 80), uniform(rng, -80, 80));
    return {s, s + uniform(rng, 1, 250) * randomUnit(rng)};
}

// The answer of the parts against the answer over the whole world: the same start, the same
// contact; a mover's answer named exactly when the world alone meets nothing as early.
void expectSame(const PlacedMoveSpaces::Answer& got, const TraceResult& want, const TraceResult& worldAlone,
                const std::string& what) {
    ASSERT_EQ(got.result.startSolid, want.startSolid) << what;
    ASSERT_EQ(got.result.hit, want.hit) << what;
    if (want.hit) {
        ASSERT_NEAR(got.result.t, want.t, kSameT) << what;
        ASSERT_LT((got.result.normal - want.normal).norm(), 1e-9) << what;
    }
    if (got.part >= 0 && !want.startSolid) {
        ASSERT_TRUE(!worldAlone.hit || worldAlone.t > got.result.t) << what << ": the world met it first";
    }
    if (got.part < 0 && want.hit) {
        ASSERT_TRUE(worldAlone.hit) << what;
        ASSERT_NEAR(worldAlone.t, want.t, kSameT) << what;
    }
}

} // namespace

TEST(PlacedMoveSpaces, RoundPosesMeetTheMoversAsTheWholeWorld) {
    int moverContacts = 0, compared = 0;
    for (int w = 0; w < 6; ++w) {
        Rng rng(4200 + uint64_t(w));
        const MoversWorld level = randomMoversWorld(rng);
        const MoverShapes shapes(level.movers.movers, level.world.bounds);
        for (const PoseShape shape : {PoseShape::capsule(uniform(rng, 8, 24), uniform(rng, 50, 90)),
                                      PoseShape::ellipsoid(uniform(rng, 8, 24), uniform(rng, 10, 40))}) {
            const Pose pose = Pose::round("round", shape);
            const RoundPoseWorld world(level.world, pose), whole(level.moved, pose);
            const PlacedMoveSpaces placed(world, shapes.roundParts(pose, level.offsets));
            for (int i = 0; i < 300; ++i) {
                const auto [s, e] = segmentNearAMover(rng, level);
                ASSERT_EQ(placed.isSolid(s), whole.isSolid(s)) << s.transpose();
                const PlacedMoveSpaces::Answer got = placed.traceWhich(s, e);
                expectSame(got, whole.trace(s, e), world.trace(s, e), "world " + std::to_string(w) + " segment " + std::to_string(i));
                moverContacts += got.part >= 0;
                ++compared;
            }
            // Moves slide along the placed movers as along the whole world.
            for (int i = 0; i < 40; ++i) {
                const auto [s, e] = segmentNearAMover(rng, level);
                const MoveResult a = slideMove(placed, s, e - s, 18.0), b = slideMove(whole, s, e - s, 18.0);
                ASSERT_EQ(a.startSolid, b.startSolid);
                ASSERT_LT((a.end - b.end).norm(), 1e-6) << s.transpose() << " -> " << e.transpose();
            }
        }
    }
    EXPECT_GT(moverContacts, compared / 10);
}

TEST(PlacedMoveSpaces, BoxesMeetTheMoversAsTheWholeWorld) {
    int moverContacts = 0, compared = 0;
    for (int w = 0; w < 6; ++w) {
        Rng rng(4300 + uint64_t(w));
        const MoversWorld level = randomMoversWorld(rng);
        const MoverShapes shapes(level.movers.movers, level.world.bounds);
        const BoxTraceWorld world = BoxTraceWorld::build(level.world), whole = BoxTraceWorld::build(level.moved);
        for (int i = 0; i < 400; ++i) {
            const Vec3 half(uniform(rng, 0, 24), uniform(rng, 0, 24), uniform(rng, 0, 40));
            const Vec3 mins = -half, maxs = half + Vec3(0, 0, uniform(rng, 0, 16));
            const BoxMoveSpace box(world, mins, maxs);
            std::vector<BoxMoveSpace> spaces;
            const PlacedMoveSpaces placed(box, shapes.boxParts(mins, maxs, level.offsets, spaces));
            const auto [s, e] = segmentNearAMover(rng, level);
            const PlacedMoveSpaces::Answer got = placed.traceWhich(s, e);
            expectSame(got, traceBox(whole, mins, maxs, s, e), traceBox(world, mins, maxs, s, e),
                       "world " + std::to_string(w) + " box " + std::to_string(i));
            ASSERT_EQ(placed.isSolid(s), traceBox(whole, mins, maxs, s, s).startSolid);
            moverContacts += got.part >= 0;
            ++compared;
        }
    }
    EXPECT_GT(moverContacts, compared / 10);
}

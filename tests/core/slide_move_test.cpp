#include "brute_force.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "query/slide_move.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

std::string describe(const Vec3& from, const Vec3& delta, double step) {
    std::ostringstream s;
    s << "move from " << from.transpose() << " by " << delta.transpose() << " step " << step;
    return s.str();
}

struct MoveTally {
    int moves = 0, withContacts = 0, stepped = 0, bruteChecked = 0, startSolid = 0;
    int shortWithoutContact = 0; // no contact, yet the end is not from + delta
};

// Random chains of moves (each starts where the previous one ended, like a walking agent)
// from random empty points; every end must be empty for the tree and for brute force.
// Chains start at one of `seeds` (e.g. a map's entities), an empty leaf's interior point
// (near geometry) or anywhere in `box`, where empty.
void expectMovesNeverEndInSolid(const World& world, const BspTree& tree, int pose, Rng& rng, int chains,
                                int movesPerChain, const Aabb& box, const std::vector<Vec3>& seeds,
                                MoveTally& tally) {
    const BruteForce brute(world);
    const uint64_t bit = uint64_t(1) << pose;
    std::vector<int32_t> emptyLeaves;
    for (size_t i = 0; i < tree.leafCount(); ++i)
        if (!(tree.leafSolid[i] & bit) && !tree.leaves[i].degenerate) emptyLeaves.push_back(int32_t(i));
    ASSERT_FALSE(emptyLeaves.empty());
    for (int chain = 0; chain < chains; ++chain) {
        Vec3 pos;
        for (int attempt = 0;; ++attempt) {
            ASSERT_LT(attempt, 10000);
            const int kind = int(rng() % 4);
            if (kind < 2 && !seeds.empty()) pos = seeds[rng() % seeds.size()];
            else if (kind < 3) pos = tree.leaves[size_t(emptyLeaves[rng() % emptyLeaves.size()])].interiorPoint;
            else
                pos = Vec3(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                           uniform(rng, box.mins.z(), box.maxs.z()));
            const std::optional<bool> solid = brute.solid(pos, size_t(pose));
            if (solid && !*solid && !tree.isSolid(pos, pose)) break;
        }
        for (int k = 0; k < movesPerChain; ++k) {
            Vec3 dir = randomUnit(rng);
            const int kind = int(rng() % 4);
            if (kind == 0) { // walking: across with a little gravity
                dir.z() = -0.2;
                dir.normalize();
            } else if (kind == 1) { // axial
                dir = Vec3::Zero();
                dir[int(rng() % 3)] = rng() % 2 ? 1.0 : -1.0;
            }
            const double length = rng() % 3 == 0 ? uniform(rng, 0.1, 8) : uniform(rng, 8, 300);
            const Vec3 delta = length * dir;
            const double step = rng() % 2 ? 18.0 : 0.0;
            const MoveResult r = slideMove(tree, pose, pos, delta, step);
            const std::string what = describe(pos, delta, step) + " pose " + world.poses[size_t(pose)].name;
            ++tally.moves;
            if (r.startSolid) {
                ++tally.startSolid;
                ASSERT_EQ(r.end, pos) << what;
                break;
            }
            ASSERT_TRUE(r.end.allFinite()) << what;
            ASSERT_FALSE(tree.isSolid(r.end, pose)) << what << " ends at " << r.end.transpose();
            const std::optional<bool> solid = brute.solid(r.end, size_t(pose));
            if (solid) {
                ++tally.bruteChecked;
                ASSERT_FALSE(*solid) << what << " ends at " << r.end.transpose() << " (brute force)";
            }
            // Sliding never lengthens the motion: at most delta, the climb and the back-offs.
            ASSERT_LE((r.end - pos).norm(), length + 2 * step + (kSlideBumps + 3) * kSlideBackoff) << what;
            if (r.contacts.empty() && (r.end - (pos + delta)).norm() > 1e-9) ++tally.shortWithoutContact;
            double last = 0.0;
            for (const Contact& contact : r.contacts) {
                ASSERT_TRUE(contact.point.allFinite()) << what;
                ASSERT_NEAR(contact.normal.norm(), 1.0, 1e-9) << what;
                ASSERT_GE(contact.t, last) << what;
                ASSERT_LE(contact.t, 1.0) << what;
                last = contact.t;
            }
            tally.withContacts += !r.contacts.empty();
            tally.stepped += r.stepped;
            pos = r.end;
        }
    }
    std::printf("  %s: %d moves, %d with contacts, %d stepped, %d checked by brute force, %d start solid, "
                "%d short without a contact\n",
                world.poses[size_t(pose)].name.c_str(), tally.moves, tally.withContacts, tally.stepped,
                tally.bruteChecked, tally.startSolid, tally.shortWithoutContact);
    EXPECT_LE(tally.shortWithoutContact, tally.moves / 1000);
}

struct SharedMap {
    World world;
    CompileResult result;
    std::vector<Vec3> entities; // origins of the point entities (inside the level)
};

// id_e1m1 from the shared maps, compiled once for the tests below (null when missing).
const SharedMap* sharedE1m1() {
    static std::unique_ptr<SharedMap> map = [] {
        const std::filesystem::path path = std::filesystem::path(SHALLOT_SHARED_MAPS) / "id_e1m1.map";
        if (!std::filesystem::exists(path)) return std::unique_ptr<SharedMap>();
        MapReadResult read = readMapFile(path.string());
        if (!read.ok()) return std::unique_ptr<SharedMap>();
        auto m = std::make_unique<SharedMap>();
        m->world = worldFromMap(*read.map);
        for (const PointEntity& e : pointEntities(*read.map)) m->entities.push_back(e.origin);
        m->result = compileWorld(m->world);
        return m;
    }();
    return map.get();
}

} // namespace

TEST(SlideMove, QuakeMapMovesNeverEndInSolid) {
    const SharedMap* map = sharedE1m1();
    if (!map) GTEST_SKIP() << "id_e1m1.map not found in " << SHALLOT_SHARED_MAPS;
    ASSERT_TRUE(map->result.error.empty()) << map->result.error;
    const Aabb box = map->result.onion.polygonBounds();
    Rng rng(101);
    for (size_t pose = 0; pose < map->world.poses.size(); ++pose) {
        SCOPED_TRACE(map->world.poses[pose].name);
        MoveTally tally;
        expectMovesNeverEndInSolid(map->world, map->result.onion, int(pose), rng, 1000, 10, box, map->entities, tally);
        EXPECT_EQ(tally.moves, 10000);
        EXPECT_EQ(tally.startSolid, 0);
        EXPECT_GT(tally.bruteChecked, tally.moves * 9 / 10);
        EXPECT_GT(tally.withContacts, tally.moves / 4);
        EXPECT_GT(tally.stepped, 20);
    }
}

TEST(SlideMove, MapTreeMovesNeverEndInSolid) {
    const SharedMap* map = sharedE1m1();
    if (!map) GTEST_SKIP() << "id_e1m1.map not found in " << SHALLOT_SHARED_MAPS;
    const Aabb box = map->result.onion.polygonBounds();
    Rng rng(102);
    for (size_t pose = 0; pose < map->world.poses.size(); ++pose) {
        // A map tree's one pose is 0; the brute force reads the world's pose `pose`.
        World single = map->world;
        single.poses = {map->world.poses[pose]};
        MoveTally tally;
        expectMovesNeverEndInSolid(single, map->result.mapTrees[pose], 0, rng, 200, 10, box, map->entities, tally);
        EXPECT_EQ(tally.startSolid, 0);
        EXPECT_GT(tally.withContacts, tally.moves / 6);
    }
}

// Rotated boxes, slivers, thin rods, clip brushes: acute corners and creases everywhere.
TEST(SlideMove, RandomWorldMovesNeverEndInSolid) {
    for (int w = 0; w < 2; ++w) {
        Rng rng(200 + uint64_t(w));
        const World world = randomWorld(rng, 150, 200, 3);
        const CompileResult c = compileWorld(world);
        ASSERT_TRUE(c.error.empty()) << c.error;
        for (size_t pose = 0; pose < world.poses.size(); ++pose) {
            SCOPED_TRACE(world.poses[pose].name);
            MoveTally tally;
            expectMovesNeverEndInSolid(world, c.onion, int(pose), rng, 200, 10,
                                       {Vec3::Constant(-260), Vec3::Constant(260)}, {}, tally);
            EXPECT_LE(tally.startSolid, 2);
            EXPECT_GT(tally.withContacts, tally.moves / 20);
        }
    }
}

namespace {

struct Built {
    World world;
    CompileResult c;
};

Built build(std::vector<Brush> brushes) {
    Built b;
    b.world.poses = quakePoses();
    b.world.brushes = std::move(brushes);
    b.c = compileWorld(b.world);
    EXPECT_TRUE(b.c.error.empty()) << b.c.error;
    return b;
}

} // namespace

TEST(SlideMove, SlidingAlongAWallKeepsTheTangentialMotion) {
    const Built b = build({Brush::box(Vec3(100, -512, -512), Vec3(120, 512, 512))});
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(pose);
        const double face = 100 - b.world.poses[size_t(pose)].maxs.x();
        const MoveResult r = slideMove(b.c.onion, pose, Vec3::Zero(), Vec3(200, 80, 0), 0.0);
        EXPECT_FALSE(r.startSolid);
        EXPECT_NEAR(r.end.x(), face - kSlideBackoff, 1e-9);
        EXPECT_NEAR(r.end.y(), 80, 1e-9);
        EXPECT_NEAR(r.end.z(), 0, 1e-9);
        ASSERT_EQ(r.contacts.size(), 1u);
        EXPECT_EQ(r.contacts[0].normal, Vec3(-1, 0, 0));
        EXPECT_NEAR(r.contacts[0].point.x(), face, 1e-9);
        EXPECT_NEAR(r.contacts[0].t, face / 200, 1e-12);
        // The pose's map tree answers the same.
        const MoveResult m = slideMove(b.c.mapTrees[size_t(pose)], 0, Vec3::Zero(), Vec3(200, 80, 0), 0.0);
        EXPECT_NEAR((m.end - r.end).norm(), 0, 1e-9);
        // Moving away from the wall, or along it, touches nothing.
        const MoveResult along = slideMove(b.c.onion, pose, r.end, Vec3(0, -300, 10), 0.0);
        EXPECT_TRUE(along.contacts.empty());
        EXPECT_NEAR((along.end - (r.end + Vec3(0, -300, 10))).norm(), 0, 1e-9);
    }
}

TEST(SlideMove, ACornerStops) {
    const Built b = build({Brush::box(Vec3(100, -512, -512), Vec3(120, 120, 512)),
                           Brush::box(Vec3(-512, 100, -512), Vec3(120, 120, 512))});
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(pose);
        const Pose& p = b.world.poses[size_t(pose)];
        const Vec3 corner(100 - p.maxs.x() - kSlideBackoff, 100 - p.maxs.y() - kSlideBackoff, 0);
        for (const Vec3& delta : {Vec3(300, 250, 0), Vec3(250, 300, 0), Vec3(400, 160, 0)}) {
            const MoveResult r = slideMove(b.c.onion, pose, Vec3::Zero(), delta, 18.0);
            EXPECT_NEAR((r.end - corner).norm(), 0, 1e-6) << delta.transpose() << ": " << r.end.transpose();
            EXPECT_EQ(r.contacts.size(), 2u);
            EXPECT_FALSE(r.stepped);
        }
        // From the corner, further into it: no motion.
        const MoveResult again = slideMove(b.c.onion, pose, corner, Vec3(50, 50, 0), 0.0);
        EXPECT_NEAR((again.end - corner).norm(), 0, 1e-6);
    }
}

// Into the crease of a floor and a wall: the motion along the crease survives.
TEST(SlideMove, SlidingAlongACrease) {
    const Built b = build({Brush::box(Vec3(-512, -512, -64), Vec3(512, 512, 0)),
                           Brush::box(Vec3(100, -512, 0), Vec3(120, 512, 256))});
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(pose);
        const Pose& p = b.world.poses[size_t(pose)];
        const double floor = -p.mins.z(), wall = 100 - p.maxs.x();
        const MoveResult r = slideMove(b.c.onion, pose, Vec3(0, 0, floor + 10), Vec3(200, 60, -40), 0.0);
        EXPECT_NEAR(r.end.x(), wall - kSlideBackoff, 1e-9);
        EXPECT_NEAR(r.end.y(), 60, 1e-9);
        EXPECT_NEAR(r.end.z(), floor + kSlideBackoff, 1e-9);
        EXPECT_EQ(r.contacts.size(), 2u);
    }
}

TEST(SlideMove, StepUpClimbsStairsUpToTheStepHeight) {
    for (const double height : {8.0, 16.0, 18.0, 18.5, 24.0}) {
        SCOPED_TRACE(height);
        const Built b = build({Brush::box(Vec3(-512, -512, -64), Vec3(512, 512, 0)),
                               Brush::box(Vec3(64, -512, 0), Vec3(512, 512, height))});
        const int player = 1;
        const Pose& p = b.world.poses[size_t(player)];
        const double floor = -p.mins.z();
        for (const double startZ : {floor, floor + kSlideBackoff}) { // on the floor, resting above it
            const Vec3 from(0, 0, startZ);
            const MoveResult r = slideMove(b.c.onion, player, from, Vec3(100, 0, 0), 18.0);
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(b.c.onion.isSolid(r.end, player));
            if (height <= 18.0) {
                EXPECT_TRUE(r.stepped);
                EXPECT_NEAR(r.end.x(), 100, 1e-9);
                EXPECT_NEAR(r.end.z(), floor + height + kSlideBackoff, 1e-9);
                ASSERT_FALSE(r.contacts.empty());
                EXPECT_EQ(r.contacts.back().normal, Vec3(0, 0, 1)); // landed on the step
            } else {
                EXPECT_FALSE(r.stepped);
                EXPECT_NEAR(r.end.x(), 64 - p.maxs.x() - kSlideBackoff, 1e-9);
                EXPECT_NEAR(r.end.z(), startZ, 1e-9);
            }
            // Without a step height the stair is a wall.
            const MoveResult flat = slideMove(b.c.onion, player, from, Vec3(100, 0, 0), 0.0);
            EXPECT_FALSE(flat.stepped);
            EXPECT_NEAR(flat.end.x(), 64 - p.maxs.x() - kSlideBackoff, 1e-9);
        }
    }
}

// A ceiling lower than the step height above the start: the climb is what fits.
TEST(SlideMove, StepUpUnderALowCeiling) {
    const Built b = build({Brush::box(Vec3(-512, -512, -64), Vec3(512, 512, 0)),
                           Brush::box(Vec3(64, -512, 0), Vec3(512, 512, 8)),
                           Brush::box(Vec3(-512, -512, 66), Vec3(512, 512, 128))});
    const int player = 1; // 56 tall: 10 units of headroom, 2 above the step
    const MoveResult r = slideMove(b.c.onion, player, Vec3(0, 0, 24 + kSlideBackoff), Vec3(100, 0, 0), 18.0);
    EXPECT_TRUE(r.stepped);
    EXPECT_NEAR(r.end.x(), 100, 1e-9);
    EXPECT_NEAR(r.end.z(), 32 + kSlideBackoff, 1e-9);
    EXPECT_FALSE(b.c.onion.isSolid(r.end, player));
}

TEST(SlideMove, StartInSolid) {
    const Built b = build({Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64))});
    for (int pose = 0; pose < 3; ++pose) {
        const Vec3 from(32, 32, 32);
        for (const Vec3& delta : {Vec3(100, 0, 0), Vec3(0, 0, 0)}) {
            const MoveResult r = slideMove(b.c.onion, pose, from, delta, 18.0);
            EXPECT_TRUE(r.startSolid);
            EXPECT_EQ(r.end, from);
            EXPECT_TRUE(r.contacts.empty());
        }
    }
}

// On a face moving in: a contact at t = 0, and the box backs off the face.
TEST(SlideMove, StartOnAFace) {
    const Built b = build({Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64))});
    for (int pose = 0; pose < 3; ++pose) {
        const Vec3 from(-b.world.poses[size_t(pose)].maxs.x(), 32, 32);
        const MoveResult r = slideMove(b.c.onion, pose, from, Vec3(10, 0, 0), 0.0);
        EXPECT_FALSE(r.startSolid);
        ASSERT_EQ(r.contacts.size(), 1u);
        EXPECT_EQ(r.contacts[0].t, 0.0);
        EXPECT_FALSE(b.c.onion.isSolid(r.end, pose));
        EXPECT_NEAR(r.end.x(), from.x() - kSlideBackoff, 1e-9);
    }
}

TEST(SlideMove, NonFiniteInputNeverGivesNaN) {
    const Built b = build({Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64))});
    const Vec3 from(-100, 0, 0);
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    MoveResult r = slideMove(b.c.onion, 1, from, Vec3(nan, 0, 0), 18.0);
    EXPECT_FALSE(r.startSolid);
    EXPECT_EQ(r.end, from);
    r = slideMove(b.c.onion, 1, from, Vec3(10, 0, 0), inf);
    EXPECT_NEAR(r.end.x(), -90, 1e-12);
    r = slideMove(b.c.onion, 1, Vec3(nan, 0, 0), Vec3(10, 0, 0), 0.0);
    EXPECT_TRUE(r.startSolid);
    EXPECT_TRUE(r.contacts.empty());
}

TEST(SlideMove, EmptyWorld) {
    const Built b = build({});
    const MoveResult r = slideMove(b.c.onion, 2, Vec3(1, 2, 3), Vec3(400, 5, 6), 18.0);
    EXPECT_FALSE(r.startSolid);
    EXPECT_TRUE(r.contacts.empty());
    EXPECT_NEAR((r.end - Vec3(401, 7, 9)).norm(), 0, 1e-12);
}

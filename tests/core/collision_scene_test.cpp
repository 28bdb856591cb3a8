// The collision world (core/objects): the static tree plus placed objects and agent boxes,
// against brute force over the world's brushes, the objects' brushes moved to their
// placements and the agents' boxes as brushes.
#include "brute_force.h"
#include "brute_trace.h"
#include "objects/box_obstacle_trace.h"
#include "objects/collision_scene.h"
#include "objects/level_objects.h"
#include "objects/uniform_grid.h"
#include "random_movers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

using namespace shallot;
using namespace shallot::test;

namespace {

constexpr double kSpread = 200.0;

struct Scene {
    World world;                 // the static world
    CompileResult compiled;
    std::vector<std::vector<Brush>> objectBrushes; // own frame
    std::vector<CollisionObject> objects;
    std::vector<Vec3> offsets;
    std::vector<Vec3> agentPositions;
    std::vector<int> agentPoses;
    std::unique_ptr<CollisionScene> scene;
    World combined; // world + moved object brushes + agent boxes: what brute force sees
    World objectsOnly; // the moved object brushes alone

    // The query box of an agent `self` is left out of the brute world.
    World bruteWorld(int self) const {
        World w = combined;
        if (self >= 0) w.brushes.erase(w.brushes.begin() + std::ptrdiff_t(world.brushes.size() + objectBrushCount() + size_t(self)));
        return w;
    }
    size_t objectBrushCount() const {
        size_t n = 0;
        for (const auto& b : objectBrushes) n += b.size();
        return n;
    }
};

// A random world of `brushes` brushes, `objectCount` objects of one to three random brushes
// each (built around the origin of their frame, placed at random offsets), `agentCount`
// agents of the non-point poses at random places.
std::unique_ptr<Scene> randomScene(uint64_t seed, int brushes, int objectCount, int agentCount) {
    Rng rng(seed);
    auto s = std::make_unique<Scene>();
    s->world = randomWorld(rng, brushes, kSpread, 2);
    s->compiled = compileWorld(s->world);
    for (int i = 0; i < objectCount; ++i) {
        std::vector<Brush> brushesOfObject;
        const int count = 1 + int(rng() % 3);
        const Vec3 centre(uniform(rng, -60, 60), uniform(rng, -60, 60), uniform(rng, -60, 60));
        for (int k = 0; k < count; ++k) {
            const Vec3 c = centre + Vec3(uniform(rng, -30, 30), uniform(rng, -30, 30), uniform(rng, -30, 30));
            brushesOfObject.push_back(randomBrush(rng, c, uniform(rng, 8, 48), BrushShape(rng() % 3)));
        }
        s->objects.push_back(compileCollisionObject(brushesOfObject, s->world.poses, s->world.bounds));
        s->objectBrushes.push_back(std::move(brushesOfObject));
        s->offsets.emplace_back(uniform(rng, -kSpread, kSpread), uniform(rng, -kSpread, kSpread), uniform(rng, -100, 100));
    }
    for (int i = 0; i < agentCount; ++i) {
        s->agentPoses.push_back(1 + int(rng() % (s->world.poses.size() - 1)));
        s->agentPositions.emplace_back(uniform(rng, -kSpread, kSpread), uniform(rng, -kSpread, kSpread),
                                       uniform(rng, -kSpread, kSpread));
    }
    std::vector<const CollisionObject*> pointers;
    for (const CollisionObject& o : s->objects) pointers.push_back(&o);
    s->scene = std::make_unique<CollisionScene>(s->compiled.onion, pointers, 64.0);
    for (size_t i = 0; i < s->objects.size(); ++i) s->scene->setObjectOffset(i, s->offsets[i]);
    s->scene->setAgents(s->agentPositions, s->agentPoses);

    s->combined = s->world;
    s->objectsOnly.poses = s->world.poses;
    for (size_t i = 0; i < s->objects.size(); ++i)
        for (const Brush& b : s->objectBrushes[i]) {
            s->combined.brushes.push_back(translatedBrush(b, s->offsets[i]));
            s->objectsOnly.brushes.push_back(translatedBrush(b, s->offsets[i]));
        }
    for (size_t i = 0; i < s->agentPositions.size(); ++i) {
        const Aabb box = s->scene->agentBox(i);
        s->combined.brushes.push_back(Brush::box(box.mins, box.maxs));
    }
    return s;
}

// A random point: anywhere, or near an object or an agent (where the broad phase matters).
Vec3 randomPoint(Rng& rng, const Scene& s) {
    const int kind = int(rng() % 3);
    const Vec3 jitter(uniform(rng, -60, 60), uniform(rng, -60, 60), uniform(rng, -60, 60));
    if (kind == 0 && !s.objects.empty()) {
        const size_t i = rng() % s.objects.size();
        return s.objects[i].centre + s.offsets[i] + jitter;
    }
    if (kind == 1 && !s.agentPositions.empty()) return s.agentPositions[rng() % s.agentPositions.size()] + jitter;
    return Vec3(uniform(rng, -kSpread, kSpread), uniform(rng, -kSpread, kSpread), uniform(rng, -kSpread, kSpread));
}

std::pair<Vec3, Vec3> randomSegment(Rng& rng, const Scene& s) {
    const Vec3 from = randomPoint(rng, s);
    Vec3 dir = randomUnit(rng);
    if (rng() % 4 == 0) {
        dir = Vec3::Zero();
        dir[int(rng() % 3)] = rng() % 2 ? 1.0 : -1.0;
    }
    return {from, from + uniform(rng, 1, 250) * dir};
}

void expectCountsAddUp(const StageCounts& c) {
    EXPECT_EQ(c.settledTotal(), c.pairs);
    EXPECT_EQ(c.tested[0], c.pairs);
    for (int stage = 1; stage < kCollisionStages; ++stage)
        EXPECT_EQ(c.tested[size_t(stage)], c.tested[size_t(stage - 1)] - c.settled[size_t(stage - 1)]) << stage;
}

constexpr int kScenes = 3;
constexpr int kQueriesPerPose = 1500;

} // namespace

TEST(CollisionScene, TracesMatchBruteForce) {
    for (int w = 0; w < kScenes; ++w) {
        SCOPED_TRACE(w);
        const auto s = randomScene(900 + uint64_t(w), 60, 8, 10);
        Rng rng(31 + uint64_t(w));
        SceneScratch scratch;
        StageCounts counts;
        for (size_t pose = 0; pose < s->world.poses.size(); ++pose) {
            const BruteWorld brute(s->combined, s->world.poses[pose]);
            // allSolid is per part (the world, one object, one agent): each part's brute force.
            std::vector<BruteWorld> parts{BruteWorld(s->world, s->world.poses[pose])};
            for (size_t o = 0; o < s->objects.size(); ++o) {
                World part;
                for (const Brush& b : s->objectBrushes[o]) part.brushes.push_back(translatedBrush(b, s->offsets[o]));
                parts.emplace_back(part, s->world.poses[pose]);
            }
            for (size_t a = 0; a < s->agentPositions.size(); ++a) {
                World part;
                part.brushes.push_back(Brush::box(s->scene->agentBox(a).mins, s->scene->agentBox(a).maxs));
                parts.emplace_back(part, s->world.poses[pose]);
            }
            Tally tally;
            int allSolid = 0;
            for (int i = 0; i < kQueriesPerPose; ++i) {
                const auto [from, to] = randomSegment(rng, *s);
                const TraceResult r = s->scene->trace({int(pose), -1}, from, to, scratch, counts);
                bool partAllSolid = false, ambiguous = false;
                for (const BruteWorld& part : parts) {
                    const bool grown = part.sweep(from, to, kTolerance).allSolid, shrunk = part.sweep(from, to, -kTolerance).allSolid;
                    ambiguous |= grown != shrunk;
                    partAllSolid |= part.sweep(from, to, 0.0).allSolid;
                }
                if (r.startSolid && !ambiguous) {
                    ASSERT_EQ(r.allSolid, partAllSolid) << from.transpose() << " -> " << to.transpose();
                    allSolid += partAllSolid;
                }
                TraceResult unionAllSolid = r; // the rest against the brute force of the whole
                unionAllSolid.allSolid = brute.sweep(from, to, 0.0).allSolid;
                ASSERT_EQ(checkAgainstBrute(unionAllSolid, brute, from, to, tally), "") << "pose " << s->world.poses[pose].name;
            }
            EXPECT_GT(allSolid, 0);
            EXPECT_GT(tally.compared, kQueriesPerPose * 9 / 10) << tally.skipped;
            EXPECT_GT(tally.hits, kQueriesPerPose / 10);
            EXPECT_GT(tally.startSolid, kQueriesPerPose / 40);
        }
        expectCountsAddUp(counts);
        EXPECT_GT(counts.settled[size_t(CollisionStage::Exact)], 100u); // objects and agents were met
        EXPECT_GT(counts.exactHits, 50u);
    }
}

TEST(CollisionScene, PointsMatchBruteForce) {
    for (int w = 0; w < kScenes; ++w) {
        SCOPED_TRACE(w);
        const auto s = randomScene(1900 + uint64_t(w), 60, 8, 10);
        const BruteForce brute(s->combined);
        Rng rng(41 + uint64_t(w));
        SceneScratch scratch;
        StageCounts counts;
        int compared = 0, solid = 0;
        for (int i = 0; i < kQueriesPerPose; ++i) {
            const Vec3 p = randomPoint(rng, *s);
            for (size_t pose = 0; pose < s->world.poses.size(); ++pose) {
                const std::optional<bool> expected = brute.solid(p, pose);
                if (!expected) continue;
                ++compared;
                solid += *expected;
                ASSERT_EQ(s->scene->isSolid({int(pose), -1}, p, scratch, counts), *expected)
                    << "pose " << s->world.poses[pose].name << " at " << p.transpose();
            }
        }
        EXPECT_GT(compared, kQueriesPerPose * 2);
        EXPECT_GT(solid, compared / 10);
        expectCountsAddUp(counts);
    }
}

// The grid only ever throws away pairs that share no cell, so cannot overlap: what reaches
// the exact test is exactly the objects and agents whose spheres and boxes both overlap
// the query's (against every pair, n squared).
TEST(CollisionScene, BroadPhaseKeepsEveryOverlappingPair) {
    const auto s = randomScene(2900, 20, 40, 200);
    Rng rng(51);
    SceneScratch scratch;
    StageCounts counts;
    uint64_t expectedPairs = 0;
    for (int i = 0; i < 3000; ++i) {
        const int pose = 1 + int(rng() % 2);
        const int self = rng() % 2 ? int(rng() % s->agentPositions.size()) : -1;
        expectedPairs += s->objects.size() + s->agentPositions.size() - (self >= 0 ? 1 : 0);
        Aabb region;
        region.add(randomPoint(rng, *s));
        region.add(randomPoint(rng, *s) * uniform(rng, 0, 0.3));
        s->scene->gather({pose, self}, region, scratch, counts);
        const Pose& p = s->world.poses[size_t(pose)];
        const Aabb box{region.mins + p.mins, region.maxs + p.maxs};
        // Every pair whose spheres and boxes both overlap (the sphere holds the object's
        // brushes, not its whole box, so a box overlap alone may be no contact).
        const Vec3 centre = 0.5 * (box.mins + box.maxs);
        const double radius = 0.5 * (box.maxs - box.mins).norm();
        auto spheresMeet = [&](const Vec3& c, double r) { return (c - centre).norm() <= r + radius + 1e-9; };
        std::vector<uint32_t> objects, agents;
        for (size_t o = 0; o < s->objects.size(); ++o) {
            const Aabb& b = s->objects[o].bounds;
            if (box.overlaps(Aabb{b.mins + s->offsets[o], b.maxs + s->offsets[o]}) &&
                spheresMeet(s->objects[o].centre + s->offsets[o], s->objects[o].radius))
                objects.push_back(uint32_t(o));
        }
        for (size_t a = 0; a < s->agentPositions.size(); ++a) {
            const Aabb b = s->scene->agentBox(a);
            if (int(a) != self && box.overlaps(b) && spheresMeet(0.5 * (b.mins + b.maxs), 0.5 * (b.maxs - b.mins).norm()))
                agents.push_back(uint32_t(a));
        }
        std::vector<uint32_t> gotObjects = scratch.objects, gotAgents = scratch.agents;
        std::sort(gotObjects.begin(), gotObjects.end());
        std::sort(gotAgents.begin(), gotAgents.end());
        ASSERT_EQ(gotObjects, objects) << i;
        ASSERT_EQ(gotAgents, agents) << i;
    }
    expectCountsAddUp(counts);
    EXPECT_EQ(counts.pairs, expectedPairs);
    for (int stage = 0; stage < kCollisionStages; ++stage) EXPECT_GT(counts.settled[size_t(stage)], 0u) << stage;
}

// Moves never end in solid for brute force, and a move without contacts goes all the way
// along a segment brute force finds clear.
TEST(CollisionScene, MovesNeverEndInSolid) {
    for (int w = 0; w < kScenes; ++w) {
        SCOPED_TRACE(w);
        const auto s = randomScene(3900 + uint64_t(w), 60, 8, 10);
        const BruteForce brute(s->combined);
        Rng rng(61 + uint64_t(w));
        SceneScratch scratch;
        StageCounts counts;
        int moves = 0, withContacts = 0;
        for (int i = 0; i < 2000; ++i) {
            const int pose = int(rng() % s->world.poses.size());
            const Vec3 from = randomPoint(rng, *s);
            const std::optional<bool> startSolid = brute.solid(from, size_t(pose));
            if (!startSolid || *startSolid) continue;
            const Vec3 delta = uniform(rng, 1, 200) * randomUnit(rng);
            const double step = rng() % 2 ? 18.0 : 0.0;
            const MoveResult r = s->scene->move({pose, -1}, from, delta, step, scratch, counts);
            ++moves;
            if (r.startSolid) continue; // on a surface that reads solid: stays put
            ASSERT_FALSE(s->scene->isSolid({pose, -1}, r.end, scratch, counts)) << r.end.transpose();
            const std::optional<bool> endSolid = brute.solid(r.end, size_t(pose));
            if (endSolid) {
                ASSERT_FALSE(*endSolid) << "from " << from.transpose() << " by " << delta.transpose();
            }
            if (r.contacts.empty()) {
                if (!r.stepped) {
                    EXPECT_LT((r.end - (from + delta)).norm(), 1e-6);
                }
                EXPECT_FALSE(brute.segmentEntersSolid(from, r.end, size_t(pose))) << from.transpose();
            } else {
                ++withContacts;
            }
        }
        EXPECT_GT(moves, 500);
        EXPECT_GT(withContacts, moves / 5);
        expectCountsAddUp(counts);
    }
}

// The seed's Colliding(entity): agent boxes against each other and the placed objects.
TEST(CollisionScene, CollidingMatchesBruteForce) {
    const auto s = randomScene(4900, 10, 12, 300);
    const BruteForce objects(s->objectsOnly);
    Rng rng(71);
    SceneScratch scratch;
    StageCounts counts;
    int compared = 0, hits = 0;
    for (int i = 0; i < 3000; ++i) {
        const int self = int(rng() % s->agentPositions.size());
        const int pose = s->agentPoses[size_t(self)];
        const Vec3 p = randomPoint(rng, *s);
        const Pose& box = s->world.poses[size_t(pose)];
        // Brute force: another agent's box overlapping this one's (margins kept clear), or
        // the reference point inside a moved object brush grown by the pose's box.
        bool expected = false, ambiguous = false;
        for (size_t a = 0; a < s->agentPositions.size(); ++a) {
            if (int(a) == self) continue;
            const Aabb other = s->scene->agentBox(a);
            const Aabb obstacle = obstacleBox(box.mins, box.maxs, other);
            double depth = INFINITY;
            for (int k = 0; k < 3; ++k) depth = std::min({depth, p[k] - obstacle.mins[k], obstacle.maxs[k] - p[k]});
            if (std::abs(depth) < kBoundaryMargin) ambiguous = true;
            expected |= depth > 0.0;
        }
        const std::optional<bool> inObject = objects.solid(p, size_t(pose));
        if (!inObject || ambiguous) continue;
        expected |= *inObject;
        ++compared;
        hits += expected;
        ASSERT_EQ(s->scene->colliding(self, p, scratch, counts), expected) << p.transpose();
    }
    EXPECT_GT(compared, 2500);
    EXPECT_GT(hits, compared / 20);
    expectCountsAddUp(counts);
}

TEST(BoxObstacleTrace, ConventionsOfTraceSegment) {
    const Aabb box{Vec3(0, 0, 0), Vec3(10, 10, 10)};
    // Straight in through the x = 0 face.
    TraceResult r = traceObstacleBox(box, Vec3(-5, 5, 5), Vec3(5, 5, 5));
    EXPECT_TRUE(r.hit);
    EXPECT_NEAR(r.t, 0.5, 1e-12);
    EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
    // Along a face: touching, no hit.
    r = traceObstacleBox(box, Vec3(-5, 0, 5), Vec3(15, 0, 5));
    EXPECT_FALSE(r.hit);
    EXPECT_FALSE(r.startSolid);
    // Starting on a face, leaving: nothing.
    r = traceObstacleBox(box, Vec3(0, 5, 5), Vec3(-5, 5, 5));
    EXPECT_FALSE(r.hit || r.startSolid);
    // Starting on a face, entering: a hit at t = 0.
    r = traceObstacleBox(box, Vec3(0, 5, 5), Vec3(5, 5, 5));
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.t, 0.0);
    // Deep inside: start solid, all solid when it never leaves.
    r = traceObstacleBox(box, Vec3(5, 5, 5), Vec3(6, 5, 5));
    EXPECT_TRUE(r.startSolid && r.allSolid && !r.hit);
    r = traceObstacleBox(box, Vec3(5, 5, 5), Vec3(15, 5, 5));
    EXPECT_TRUE(r.startSolid && !r.allSolid);
    // Zero length.
    EXPECT_TRUE(traceObstacleBox(box, Vec3(5, 5, 5), Vec3(5, 5, 5)).startSolid);
    EXPECT_FALSE(traceObstacleBox(box, Vec3(0, 5, 5), Vec3(0, 5, 5)).startSolid);
}

// Random doors (the mover model's) at random states: classify and trace against brute force
// over the world and each door's brushes moved to its state.
TEST(CollisionScene, RandomMoversAtRandomStatesMatchBruteForce) {
    for (int w = 0; w < kScenes; ++w) {
        SCOPED_TRACE(w);
        Rng rng(5900 + uint64_t(w));
        World world = randomWorld(rng, 50, kSpread, 2);
        const CompileResult compiled = compileWorld(world);
        LevelMovers movers;
        std::map<int, MoverState> states;
        for (int i = 0; i < 8; ++i) {
            movers.movers.push_back(randomDoor(rng, i + 1, kSpread));
            states[i + 1] = randomMoverState(rng);
        }
        const LevelObjects level = buildLevelObjects(movers, compiled.onion.poses, world.bounds, 1);
        CollisionScene scene(compiled.onion, level.pointers());
        const std::vector<Vec3> offsets = level.offsets(states);
        for (size_t i = 0; i < offsets.size(); ++i) scene.setObjectOffset(i, offsets[i]);
        scene.rebuildGrid();
        World moved = world;
        for (const Mover& m : level.movers.movers)
            for (const Brush& b : m.brushes) moved.brushes.push_back(translatedBrush(b, m.offsetAt(states.at(m.entity))));
        const BruteForce brute(moved);
        SceneScratch scratch;
        StageCounts counts;
        int compared = 0;
        for (size_t pose = 0; pose < world.poses.size(); ++pose) {
            const BruteWorld bruteTraces(moved, world.poses[pose]);
            Tally tally;
            for (int i = 0; i < 600; ++i) {
                const size_t near = rng() % level.movers.movers.size();
                const Vec3 s = level.objects[near].centre + offsets[near] +
                               Vec3(uniform(rng, -80, 80), uniform(rng, -80, 80), uniform(rng, -80, 80));
                const Vec3 e = s + uniform(rng, 1, 200) * randomUnit(rng);
                const std::optional<bool> solid = brute.solid(s, pose);
                if (solid) {
                    ++compared;
                    ASSERT_EQ(scene.isSolid({int(pose), -1}, s, scratch, counts), *solid) << s.transpose();
                }
                TraceResult r = scene.trace({int(pose), -1}, s, e, scratch, counts);
                r.allSolid = bruteTraces.sweep(s, e, 0.0).allSolid; // per part; TracesMatchBruteForce checks it
                ASSERT_EQ(checkAgainstBrute(r, bruteTraces, s, e, tally), "") << "pose " << world.poses[pose].name;
            }
            EXPECT_GT(tally.hits, 60);
        }
        EXPECT_GT(compared, 1000);
        expectCountsAddUp(counts);
    }
}

// A hostile .obsp can give movers bounds near +-DBL_MAX: the grid must neither overflow its
// cell count (the fuzzers' finding) nor lose a pair.
TEST(UniformGrid, HugeAndOverflowingExtentsKeepEveryPair) {
    const double big = std::numeric_limits<double>::max();
    const std::vector<Aabb> boxes = {Aabb{Vec3(-big, -big, 0), Vec3(-big / 2, 0, 1)},
                                     Aabb{Vec3(1e300, 1e300, 0), Vec3(big, big, 1)},
                                     Aabb{Vec3(0, 0, 0), Vec3(1, 1, 1)}};
    const std::vector<Aabb> extents = {Aabb{Vec3(-big, -big, 0), Vec3(big, big, 1)},
                                       Aabb{Vec3(-1e300, -1e300, 0), Vec3(1e300, 1e300, 1)},
                                       Aabb{Vec3(0, 0, 0), Vec3(1e18, 1e18, 1)}};
    for (const Aabb& extent : extents) {
        UniformGrid grid;
        grid.build(extent, 1.0, boxes);
        std::vector<uint32_t> stamps(boxes.size(), 0);
        uint32_t stamp = 0;
        for (size_t i = 0; i < boxes.size(); ++i) {
            std::vector<uint32_t> near;
            grid.forEachNear(boxes[i], stamps, ++stamp, [&](uint32_t id) { near.push_back(id); });
            EXPECT_NE(std::find(near.begin(), near.end(), uint32_t(i)), near.end()) << "box " << i;
        }
    }
}

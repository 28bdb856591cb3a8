#include "compile/compiler.h"
#include "query/box_trace.h"
#include "query/trace.h"
#include "query/trace_batch.h"
#include "brute_trace.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

std::pair<Vec3, Vec3> randomSegment(Rng& rng, double spread) {
    const Vec3 s(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread));
    Vec3 dir = randomUnit(rng);
    if (rng() % 4 == 0) { // axial moves are the common case in games
        dir = Vec3::Zero();
        dir[int(rng() % 3)] = rng() % 2 ? 1.0 : -1.0;
    }
    const int kind = int(rng() % 10);
    const double length = kind < 3 ? uniform(rng, 0.5, 20) : kind < 8 ? uniform(rng, 20, 200) : uniform(rng, 200, 800);
    return {s, s + length * dir};
}

struct Compiled {
    World world;
    CompileResult result;
    BoxTraceWorld boxes;
    std::vector<BruteWorld> brute; // per pose
};

// Random worlds are compiled once and shared by the tests below.
const Compiled& randomCompiled(int index) {
    static std::map<int, std::unique_ptr<Compiled>> cache;
    auto& slot = cache[index];
    if (!slot) {
        Rng rng(7000 + uint64_t(index));
        slot = std::make_unique<Compiled>();
        slot->world = randomWorld(rng, 100 + 50 * index, 200, 3);
        slot->result = compileWorld(slot->world);
        slot->boxes = BoxTraceWorld::build(slot->world);
        for (const Pose& p : slot->world.poses) slot->brute.emplace_back(slot->world, p);
    }
    return *slot;
}

constexpr int kRandomWorlds = 3;
constexpr int kSegmentsPerPose = 2500;

} // namespace

// ---------------------------------------------------------------------------------------

TEST(TraceSegment, OnionTreeMatchesBruteForce) {
    for (int w = 0; w < kRandomWorlds; ++w) {
        SCOPED_TRACE(w);
        const Compiled& c = randomCompiled(w);
        ASSERT_TRUE(c.result.error.empty()) << c.result.error;
        Rng rng(11 + uint64_t(w));
        for (size_t pose = 0; pose < c.world.poses.size(); ++pose) {
            Tally tally;
            for (int i = 0; i < kSegmentsPerPose; ++i) {
                const auto [s, e] = randomSegment(rng, 250);
                const TraceResult r = traceSegment(c.result.onion, int(pose), s, e);
                ASSERT_EQ(checkAgainstBrute(r, c.brute[pose], s, e, tally), "") << "pose " << c.world.poses[pose].name;
            }
            EXPECT_GT(tally.compared, kSegmentsPerPose * 9 / 10) << tally.skipped;
            EXPECT_GT(tally.hits, kSegmentsPerPose / 15);
            EXPECT_GT(tally.startSolid, kSegmentsPerPose / 40);
            EXPECT_GT(tally.normals, tally.hits / 2);
        }
    }
}

TEST(TraceSegment, MapTreesMatchBruteForceAndTheOnionTree) {
    for (int w = 0; w < kRandomWorlds; ++w) {
        SCOPED_TRACE(w);
        const Compiled& c = randomCompiled(w);
        Rng rng(21 + uint64_t(w));
        for (size_t pose = 0; pose < c.world.poses.size(); ++pose) {
            Tally tally;
            for (int i = 0; i < kSegmentsPerPose; ++i) {
                const auto [s, e] = randomSegment(rng, 250);
                const TraceResult m = traceSegment(c.result.mapTrees[pose], 0, s, e);
                const Tally before = tally;
                ASSERT_EQ(checkAgainstBrute(m, c.brute[pose], s, e, tally), "") << "pose " << c.world.poses[pose].name;
                if (tally.compared == before.compared) continue;
                const TraceResult o = traceSegment(c.result.onion, int(pose), s, e);
                ASSERT_EQ(checkSame(m, o, (e - s).norm(), tally.normals > before.normals), "")
                    << s.transpose() << " -> " << e.transpose();
            }
            EXPECT_GT(tally.hits, kSegmentsPerPose / 15);
        }
    }
}

TEST(TraceSegment, OnionPoseMatchesBoxTraceOfThePoseBox) {
    for (int w = 0; w < kRandomWorlds; ++w) {
        SCOPED_TRACE(w);
        const Compiled& c = randomCompiled(w);
        Rng rng(31 + uint64_t(w));
        for (size_t pose = 0; pose < c.world.poses.size(); ++pose) {
            const Pose& p = c.world.poses[pose];
            Tally tally;
            for (int i = 0; i < kSegmentsPerPose; ++i) {
                const auto [s, e] = randomSegment(rng, 250);
                const TraceResult b = traceBox(c.boxes, p.mins, p.maxs, s, e);
                const Tally before = tally;
                ASSERT_EQ(checkAgainstBrute(b, c.brute[pose], s, e, tally), "") << "pose " << p.name;
                if (tally.compared == before.compared) continue;
                const TraceResult o = traceSegment(c.result.onion, int(pose), s, e);
                ASSERT_EQ(checkSame(o, b, (e - s).norm(), tally.normals > before.normals), "")
                    << s.transpose() << " -> " << e.transpose();
            }
            EXPECT_GT(tally.hits, kSegmentsPerPose / 15);
        }
    }
}

// Segments lying exactly in split planes of the onion tree take Listing 5's coplanar path.
TEST(TraceSegment, SegmentsInSplitPlanesMatchBruteForce) {
    const Compiled& c = randomCompiled(0);
    const BspTree& tree = c.result.onion;
    Rng rng(41);
    Tally tally;
    for (int i = 0; i < 4000; ++i) {
        const Plane& plane = tree.planes[size_t(tree.nodes[rng() % tree.nodes.size()].plane)];
        const Vec3 p(uniform(rng, -380, 380), uniform(rng, -380, 380), uniform(rng, -380, 380));
        const Vec3 s = p - plane.signedDistance(p) * plane.normal;
        Vec3 dir = randomUnit(rng);
        dir -= dir.dot(plane.normal) * plane.normal;
        if (dir.norm() < 0.1) continue;
        const Vec3 e = s + uniform(rng, 1, 300) * dir.normalized();
        for (size_t pose = 0; pose < c.world.poses.size(); ++pose) {
            const TraceResult o = traceSegment(tree, int(pose), s, e);
            ASSERT_EQ(checkAgainstBrute(o, c.brute[pose], s, e, tally), "") << "onion, pose " << pose;
            const TraceResult m = traceSegment(c.result.mapTrees[pose], 0, s, e);
            ASSERT_EQ(checkAgainstBrute(m, c.brute[pose], s, e, tally), "") << "map tree, pose " << pose;
        }
    }
    EXPECT_GT(tally.hits, 2000);
}

namespace {

// A floor (top at z = 0), a wall on it at x in [100, 120], and the floor's edge (a ledge)
// at x = -256.
World floorAndWall() {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(-256, -256, -64), Vec3(256, 256, 0)));
    w.brushes.push_back(Brush::box(Vec3(100, -256, 0), Vec3(120, 256, 128)));
    return w;
}

bool hasSplitPlane(const BspTree& tree, const Plane& plane) {
    for (const BspNode& n : tree.nodes) {
        const Plane& p = tree.planes[size_t(n.plane)];
        if ((p.normal - plane.normal).norm() < 1e-12 && std::abs(p.dist - plane.dist) < 1e-12) return true;
        if ((p.normal + plane.normal).norm() < 1e-12 && std::abs(p.dist + plane.dist) < 1e-12) return true;
    }
    return false;
}

// Every way of tracing one pose: onion tree, the pose's map tree, arbitrary box.
std::vector<TraceResult> traceAllWays(const CompileResult& c, const BoxTraceWorld& boxes, const std::vector<Pose>& poses,
                                      int pose, const Vec3& s, const Vec3& e) {
    return {traceSegment(c.onion, pose, s, e), traceSegment(c.mapTrees[size_t(pose)], 0, s, e),
            traceBox(boxes, poses[size_t(pose)].mins, poses[size_t(pose)].maxs, s, e)};
}

} // namespace

TEST(TraceSegment, SlidingInTheFloorPlane) {
    const World w = floorAndWall();
    const CompileResult c = compileWorld(w);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(w.poses[size_t(pose)].name);
        const double floor = -w.poses[size_t(pose)].mins.z();  // the expanded floor's top
        const double wall = 100 - w.poses[size_t(pose)].maxs.x(); // the expanded wall's face
        ASSERT_TRUE(hasSplitPlane(c.onion, {Vec3::UnitZ(), floor}));
        // Into the wall. For the point the segment runs in the seam between the wall and the
        // floor it stands on: not a gap.
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, Vec3(0, 0, floor), Vec3(200, 0, floor))) {
            EXPECT_FALSE(r.startSolid);
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.t, wall / 200, 1e-12);
            EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
        }
        // Diagonally along the floor into the wall.
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, Vec3(0, 0, floor), Vec3(200, 200, floor))) {
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.point.x(), wall, 1e-9);
            EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
        }
        // Off the ledge: the floor ends, nothing is entered.
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, Vec3(0, 0, floor), Vec3(-400, 30, floor))) {
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
            EXPECT_EQ(r.t, 1.0);
        }
        // Along the wall's face, and along the edge where the wall meets the floor: touching.
        for (const auto& [s, e] : {std::pair{Vec3(wall, -100, 50), Vec3(wall, 100, 50)},
                                   std::pair{Vec3(wall, -100, floor), Vec3(wall, 100, floor)},
                                   std::pair{Vec3(wall, 0, floor), Vec3(wall, 10, floor + 60)}}) {
            for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, s, e)) {
                EXPECT_FALSE(r.startSolid) << s.transpose();
                EXPECT_FALSE(r.hit) << s.transpose();
            }
        }
        // Down through the floor from just above it.
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, Vec3(0, 0, floor + 8), Vec3(0, 0, floor - 8))) {
            ASSERT_TRUE(r.hit);
            EXPECT_NEAR(r.t, 0.5, 1e-12);
            EXPECT_EQ(r.normal, Vec3(0, 0, 1));
        }
    }
}

// Cells of a grid filled with touching boxes: for the point and a box flat in z, the faces
// between neighbours are seams in configuration space. Segments lying in the grid planes
// run along them; the trees see the interior of the union, and traceBox must too.
TEST(TraceSegment, SeamsBetweenTouchingBrushesAgreeWithBoxTrace) {
    constexpr double kCell = 32;
    constexpr int kCells = 6;
    Rng rng(81);
    World w;
    w.poses = {{"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu},
               {"flat", Vec3(-8, -8, 0), Vec3(8, 8, 0), 0xffffffffu},
               {"cube", Vec3(-4, -4, -4), Vec3(4, 4, 4), 0xffffffffu}};
    for (int x = 0; x < kCells; ++x)
        for (int y = 0; y < kCells; ++y)
            for (int z = 0; z < kCells; ++z)
                if (rng() % 5 < 2) w.brushes.push_back(Brush::box(kCell * Vec3(x, y, z), kCell * Vec3(x + 1, y + 1, z + 1)));
    const CompileResult c = compileWorld(w);
    ASSERT_TRUE(c.error.empty()) << c.error;
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    int hits = 0, seamStarts = 0;
    for (int pose = 0; pose < 3; ++pose) {
        const Pose& p = w.poses[size_t(pose)];
        // Is coordinate v (of axis a) on a face plane of some expanded cell?
        auto onGrid = [&](double v, int a) {
            for (const double offset : {-p.maxs[a], -p.mins[a]}) {
                const double k = std::round((v - offset) / kCell);
                if (std::abs(v - offset - k * kCell) < kTolerance) return true;
            }
            return false;
        };
        for (int i = 0; i < 3000; ++i) {
            const int axis = int(rng() % 3);
            Vec3 s(uniform(rng, -16, 208), uniform(rng, -16, 208), uniform(rng, -16, 208));
            s[axis] = kCell * double(rng() % (kCells + 1)) - (rng() % 2 ? p.maxs[axis] : p.mins[axis]);
            Vec3 dir = randomUnit(rng);
            dir[axis] = 0;
            if (dir.norm() < 0.1) continue;
            const Vec3 e = s + uniform(rng, 5, 200) * dir.normalized();
            const std::vector<TraceResult> r = traceAllWays(c, boxes, w.poses, pose, s, e);
            int gridCoords = 0;
            for (int a = 0; a < 3; ++a) gridCoords += onGrid(r[0].point[a], a);
            for (size_t k = 1; k < r.size(); ++k) {
                ASSERT_EQ(r[k].startSolid, r[0].startSolid) << p.name << " " << s.transpose() << " -> " << e.transpose();
                ASSERT_EQ(r[k].hit, r[0].hit) << p.name << " " << s.transpose() << " -> " << e.transpose();
                ASSERT_LE(std::abs(r[k].t - r[0].t) * (e - s).norm(), kTolerance) << p.name << " " << s.transpose();
                if (r[0].hit && gridCoords < 3) {
                    ASSERT_EQ(r[k].normal, r[0].normal) << p.name << " " << s.transpose();
                }
            }
            hits += r[0].hit;
            seamStarts += r[0].startSolid;
        }
    }
    EXPECT_GT(hits, 1500);
    EXPECT_GT(seamStarts, 300);
}

TEST(TraceSegment, StartOnAFace) {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    const CompileResult c = compileWorld(w);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (int pose = 0; pose < 3; ++pose) {
        SCOPED_TRACE(w.poses[size_t(pose)].name);
        const double face = -w.poses[size_t(pose)].maxs.x(); // the expanded -x face
        const Vec3 s(face, 32, 32);
        auto all = [&](const Vec3& from, const Vec3& to) { return traceAllWays(c, boxes, w.poses, pose, from, to); };
        for (const TraceResult& r : all(s, s + Vec3(-10, 3, 0))) { // moving away
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
            EXPECT_EQ(r.t, 1.0);
        }
        for (const Vec3& into : {Vec3(10, 0, 0), Vec3(10, 8, -5)}) {
            for (const TraceResult& r : all(s, s + into)) {
                EXPECT_FALSE(r.startSolid);
                ASSERT_TRUE(r.hit);
                EXPECT_EQ(r.t, 0.0);
                EXPECT_EQ(r.point, s);
                EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
            }
        }
        for (const TraceResult& r : all(s, s + Vec3(0, 20, 10))) { // along the face
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
        }
        // Within kTraceOnPlaneEpsilon inside is on the face.
        const Vec3 hair = s + Vec3(0.5 * kTraceOnPlaneEpsilon, 0, 0);
        for (const TraceResult& r : all(hair, hair + Vec3(-10, 0, 0))) {
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
        }
        // Deeper, within the nudge: moving in is a contact at t = 0 (the article's retry),
        // moving out is a start in solid.
        const Vec3 nudge = s + Vec3(0.5 * kStartSolidNudge, 0, 0);
        for (const TraceResult& r : all(nudge, nudge + Vec3(10, 0, 0))) {
            EXPECT_FALSE(r.startSolid);
            ASSERT_TRUE(r.hit);
            EXPECT_EQ(r.t, 0.0);
            EXPECT_EQ(r.normal, Vec3(-1, 0, 0));
        }
        for (const TraceResult& r : all(nudge, nudge + Vec3(-10, 0, 0))) {
            EXPECT_TRUE(r.startSolid);
            EXPECT_FALSE(r.allSolid);
        }
    }
}

TEST(TraceSegment, StartDeepInside) {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    w.brushes.push_back(Brush::box(Vec3(64, 0, 0), Vec3(128, 64, 64))); // shares the x = 64 face
    const CompileResult c = compileWorld(w);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (int pose = 0; pose < 3; ++pose) {
        const Vec3 s(32, 32, 32);
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, s, Vec3(100, 40, 20))) {
            EXPECT_TRUE(r.startSolid);
            EXPECT_TRUE(r.allSolid);
            EXPECT_FALSE(r.hit);
            EXPECT_EQ(r.t, 0.0);
            EXPECT_EQ(r.point, s);
        }
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, s, Vec3(300, 32, 32))) {
            EXPECT_TRUE(r.startSolid);
            EXPECT_FALSE(r.allSolid);
            EXPECT_FALSE(r.hit);
        }
    }
}

// from == to: startSolid is the point's solidity (a point on a surface is not solid), never a hit.
TEST(TraceSegment, ZeroLengthSegment) {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    const CompileResult c = compileWorld(w);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (int pose = 0; pose < 3; ++pose) {
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, Vec3(32, 32, 32), Vec3(32, 32, 32))) {
            EXPECT_TRUE(r.startSolid);
            EXPECT_TRUE(r.allSolid);
            EXPECT_FALSE(r.hit);
        }
        const Vec3 out(-100, 32, 32);
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, out, out)) {
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
            EXPECT_EQ(r.t, 1.0);
            EXPECT_EQ(r.point, out);
        }
        const Vec3 face(-w.poses[size_t(pose)].maxs.x(), 32, 32);
        for (const TraceResult& r : traceAllWays(c, boxes, w.poses, pose, face, face)) {
            EXPECT_FALSE(r.startSolid);
            EXPECT_FALSE(r.hit);
        }
    }
}

TEST(TraceSegment, EmptyWorld) {
    World w;
    w.poses = quakePoses();
    const CompileResult c = compileWorld(w);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (const TraceResult& r : traceAllWays(c, boxes, w.poses, 1, Vec3(1, 2, 3), Vec3(400, 5, 6))) {
        EXPECT_FALSE(r.startSolid);
        EXPECT_FALSE(r.hit);
        EXPECT_EQ(r.point, Vec3(400, 5, 6));
    }
}

TEST(TraceBatch, MatchesSequentialTraces) {
    const Compiled& c = randomCompiled(0);
    Rng rng(51);
    for (size_t count : {size_t(100), size_t(5000)}) {
        std::vector<TraceRequest> requests;
        for (size_t i = 0; i < count; ++i) {
            const auto [s, e] = randomSegment(rng, 250);
            requests.push_back({int(rng() % c.world.poses.size()), s, e});
        }
        const std::vector<TraceResult> batch = traceBatch(c.result.onion, requests, 2);
        ASSERT_EQ(batch.size(), count);
        for (size_t i = 0; i < count; ++i) {
            const TraceResult r = traceSegment(c.result.onion, requests[i].pose, requests[i].from, requests[i].to);
            ASSERT_EQ(batch[i].startSolid, r.startSolid) << i;
            ASSERT_EQ(batch[i].allSolid, r.allSolid) << i;
            ASSERT_EQ(batch[i].hit, r.hit) << i;
            ASSERT_EQ(batch[i].t, r.t) << i;
            ASSERT_EQ(batch[i].point, r.point) << i;
            ASSERT_EQ(batch[i].normal, r.normal) << i;
            ASSERT_EQ(batch[i].plane, r.plane) << i;
        }
    }
}

// ---------------------------------------------------------------------------------------

TEST(BoxTrace, CachedPlanesAreTheExpandedPlanes) {
    Rng rng(61);
    const World w = randomWorld(rng, 40, 300, 0);
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    for (int i = 0; i < 20; ++i) {
        const Pose box = randomPose(rng, "box");
        for (size_t b = 0; b < boxes.brushes.size(); ++b) {
            const std::vector<Plane> expected = expandedPlanes(boxes.geometry[b], box);
            ASSERT_EQ(expected.size(), boxes.brushes[b].planeCount);
            for (size_t k = 0; k < expected.size(); ++k) {
                const Plane& cached = boxes.planes[boxes.brushes[b].firstPlane + k];
                ASSERT_EQ(cached.normal, expected[k].normal);
                ASSERT_EQ(cached.dist + poseSupport(box, cached.normal), expected[k].dist);
            }
        }
    }
}

TEST(BoxTrace, RandomBoxesMatchBruteForce) {
    const Compiled& c = randomCompiled(1);
    Rng rng(71);
    Tally tally;
    for (int i = 0; i < 150; ++i) {
        Pose box = randomPose(rng, "box");
        const int kind = int(rng() % 10);
        if (kind == 0) box.mins = box.maxs = Vec3::Zero();                       // the point
        if (kind == 1) box.mins = box.maxs = Vec3(uniform(rng, -9, 9), 0, 3);    // an offset point
        if (kind == 2) { // flat along one axis
            const int axis = int(rng() % 3);
            box.mins[axis] = box.maxs[axis] = uniform(rng, -5, 5);
        }
        const BruteWorld brute(c.world, box);
        for (int k = 0; k < 40; ++k) {
            const auto [s, e] = randomSegment(rng, 250);
            const TraceResult r = traceBox(c.boxes, box.mins, box.maxs, s, e);
            ASSERT_EQ(checkAgainstBrute(r, brute, s, e, tally), "")
                << "box " << box.mins.transpose() << " .. " << box.maxs.transpose();
        }
    }
    EXPECT_GT(tally.hits, 600);
    EXPECT_GT(tally.startSolid, 600);
}

TEST(BoxTrace, ClipBrushesBlockBoxesButNotPoints) {
    World w;
    w.poses = quakePoses();
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)));
    w.brushes.back().contents = BrushContents::Clip;
    w.brushes.push_back(Brush::box(Vec3(200, 0, 0), Vec3(264, 64, 64)));
    w.brushes.back().contents = BrushContents::NonSolid;
    const BoxTraceWorld boxes = BoxTraceWorld::build(w);
    const Vec3 s(-50, 32, 32), e(300, 32, 32);
    EXPECT_FALSE(traceBox(boxes, Vec3::Zero(), Vec3::Zero(), s, e).hit);
    const TraceResult r = traceBox(boxes, Vec3(-1, -1, -1), Vec3(1, 1, 1), s, e);
    ASSERT_TRUE(r.hit);
    EXPECT_NEAR(r.point.x(), -1, 1e-12);
}

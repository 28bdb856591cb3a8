// Round poses (ellipsoids and capsules): their shapes, the exact per-brush classify, trace
// and move against brute force (round_brute_force.h), and the onion tree in front of them.
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"
#include "io/obsp_format.h"
#include "query/round_pose_queries.h"
#include "query/round_pose_world.h"
#include "query/round_shape_overlap.h"
#include "query/round_shape_trace.h"
#include "random_world.h"
#include "round_brute_force.h"
#include "world/round_pose_boxes.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shallot;
using namespace shallot::test;

namespace {

PoseShape randomRoundShape(Rng& rng) {
    // One in eight is extreme: a disc, a needle, a thin tall capsule.
    switch (rng() % 16) {
    case 0: return PoseShape::ellipsoid(uniform(rng, 40, 80), uniform(rng, 0.5, 2));
    case 1: return PoseShape::ellipsoid(uniform(rng, 0.5, 2), uniform(rng, 40, 80));
    default: break;
    }
    if (rng() % 8 == 0) {
        const double r = uniform(rng, 0.5, 2);
        return PoseShape::capsule(r, uniform(rng, 60, 160));
    }
    if (rng() % 2) return PoseShape::ellipsoid(uniform(rng, 3, 30), uniform(rng, 3, 40));
    const double r = uniform(rng, 3, 24);
    return PoseShape::capsule(r, 2 * r + (rng() % 4 == 0 ? 0.0 : uniform(rng, 0, 60)));
}

BrushGeometry randomGeometry(Rng& rng) {
    for (;;) {
        const Brush b = randomBrush(rng, Vec3::Zero(), uniform(rng, 8, 64), BrushShape(rng() % 5));
        if (auto g = buildBrushGeometry(b, defaultWorldBounds()).geometry) return *g;
    }
}

Vec3 randomPointNear(Rng& rng, double spread) {
    return {uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread)};
}

std::string describe(const PoseShape& s) { return poseShapeText(s); }

} // namespace

// ---- shapes ----

TEST(RoundPoseShape, HostileSizesAreRefusedWithClearErrors) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    EXPECT_NE(poseShapeProblem(PoseShape::ellipsoid(0, 5)).find("must be positive"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::ellipsoid(5, -1)).find("radius up must be positive"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::ellipsoid(nan, 5)).find("finite"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::capsule(inf, 5)).find("finite"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::capsule(-3, 50)).find("capsule radius must be positive"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::capsule(16, 20)).find("shorter than its diameter"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::capsule(1e9, 3e9)).find("at most"), std::string::npos);
    EXPECT_NE(poseShapeProblem(PoseShape::ellipsoid(0.01, 5)).find("at least 0.1"), std::string::npos);
    EXPECT_EQ(poseShapeProblem(PoseShape::capsule(16, 32)), ""); // a sphere
    EXPECT_EQ(poseShapeProblem(PoseShape::ellipsoid(16, 28)), "");

    EXPECT_FALSE(parsePoseShape("capsule:16,20").shape);
    EXPECT_NE(parsePoseShape("capsule:16,20").error.find("shorter than its diameter"), std::string::npos);
    EXPECT_NE(parsePoseShape("ellipsoid:nan,3").error.find("finite"), std::string::npos);
    EXPECT_NE(parsePoseShape("ellipsoid:5").error.find("two numbers"), std::string::npos);
    EXPECT_NE(parsePoseShape("ellipsoid:5,x").error.find("two numbers"), std::string::npos);
    EXPECT_NE(parsePoseShape("sphere:1,2").error.find("unknown pose shape"), std::string::npos);
    EXPECT_NE(parsePoseShape("capsule:0,0").error.find("positive"), std::string::npos);
    ASSERT_TRUE(parsePoseShape("capsule:16,56").shape);
    EXPECT_EQ(*parsePoseShape("capsule:16,56").shape, PoseShape::capsule(16, 56));
    EXPECT_EQ(poseShapeText(PoseShape::ellipsoid(16, 28.5)), "ellipsoid:16,28.5");

    Pose bad = Pose::round("bad", PoseShape::capsule(16, 20));
    EXPECT_FALSE(bad.isValid());
    EXPECT_THROW(RoundPoseWorld(World{}, bad), std::invalid_argument);
    Pose moved = Pose::round("moved", PoseShape::capsule(16, 40));
    EXPECT_TRUE(moved.isValid());
    moved.maxs.z() += 1; // a round pose's box is its shape's bounding box
    EXPECT_FALSE(moved.isValid());
    World w;
    w.brushes.push_back(Brush::box(Vec3::Zero(), Vec3::Constant(64)));
    const RoundPoseWorld round(w, Pose::round("capsule", PoseShape::capsule(16, 56)));
    const Vec3 hostile(nan, 0, 0);
    EXPECT_TRUE(round.isSolid(hostile));
    const TraceResult t = round.trace(hostile, Vec3(200, 0, 0));
    EXPECT_TRUE(t.startSolid);
    EXPECT_FALSE(t.hit);
    EXPECT_TRUE(round.trace(Vec3(200, 0, 0), Vec3(inf, 0, 0)).startSolid);
    const MoveResult m = slideMove(round, Vec3(200, 32, 32), Vec3(nan, 0, 0), 18);
    EXPECT_TRUE(m.end.allFinite());
    EXPECT_EQ(m.end, Vec3(200, 32, 32));
    // A tree compiled without the round pose's boxes cannot stand in front of it.
    World boxes = w;
    boxes.poses = {Pose::round("capsule", PoseShape::capsule(16, 56))};
    const BspTree withoutInscribed = compileWorld(boxes).onion;
    EXPECT_THROW(RoundPoseQueries(round, withoutInscribed), std::invalid_argument);
    boxes.poses = treePoses(boxes.poses);
    const BspTree withBoth = compileWorld(boxes).onion;
    EXPECT_NO_THROW(RoundPoseQueries(round, withBoth));
}

// The inscribed boxes fit, and no box with a larger volume does (a grid over the boxes
// whose corner is on the shape).
TEST(RoundPoseShape, InscribedBoxesFitAndAreTheLargest) {
    Rng rng(5);
    auto fits = [](const PoseShape& s, const Vec3& half) {
        if (s.kind == PoseShapeKind::Ellipsoid)
            return (half.x() * half.x() + half.y() * half.y()) / (s.radius * s.radius) +
                       half.z() * half.z() / (s.height * s.height) <=
                   1 + 1e-12;
        const double L = 0.5 * s.height - s.radius;
        const double up = std::max(0.0, half.z() - L);
        return half.x() * half.x() + half.y() * half.y() + up * up <= s.radius * s.radius * (1 + 1e-12);
    };
    for (int i = 0; i < 200; ++i) {
        const PoseShape s = randomRoundShape(rng);
        SCOPED_TRACE(describe(s));
        const Vec3 in = inscribedHalfExtents(s), out = boundingHalfExtents(s);
        EXPECT_TRUE(fits(s, in));
        EXPECT_TRUE((in.array() <= out.array()).all());
        const double volume = in.prod();
        // Every box with a corner on the shape: square section a (x = y is best for a
        // section inside a circle), height c.
        for (int k = 1; k < 400; ++k) {
            const double c = out.z() * k / 400.0;
            double lo = 0, hi = out.x();
            for (int b = 0; b < 60; ++b) {
                const double a = 0.5 * (lo + hi);
                (fits(s, {a, a, c}) ? lo : hi) = a;
            }
            EXPECT_LE(lo * lo * c, volume * (1 + 1e-9));
        }
    }
    const Vec3 sphere = inscribedHalfExtents(PoseShape::capsule(12, 24));
    EXPECT_NEAR(sphere.x(), 12 / std::sqrt(3.0), 1e-12);
    EXPECT_NEAR(sphere.z(), 12 / std::sqrt(3.0), 1e-12);
    const Vec3 ell = inscribedHalfExtents(PoseShape::ellipsoid(10, 30));
    EXPECT_NEAR(ell.x(), 10 / std::sqrt(3.0), 1e-12);
    EXPECT_NEAR(ell.z(), 30 / std::sqrt(3.0), 1e-12);
}

TEST(RoundPoseShape, PoseKeysKeepTheShapeAndObspRefusesIt) {
    World w;
    w.brushes.push_back(Brush::box(Vec3::Zero(), Vec3::Constant(64)));
    w.poses = {Pose::round("ell", PoseShape::ellipsoid(16, 28)), Pose::round("cap", PoseShape::capsule(16, 56.5))};
    w.poses[1].blocking = BrushContents::Solid;
    const MapFile map = mapFromWorld(w, {}, {});
    const std::string text = writeMap(map);
    EXPECT_NE(text.find("shape=capsule:16,56.5"), std::string::npos) << text;
    const MapReadResult back = readMap(text, "round.map");
    ASSERT_TRUE(back.ok()) << back.error.format();
    const World read = worldFromMap(*back.map);
    ASSERT_EQ(read.poses.size(), 2u);
    EXPECT_TRUE(samePoseBoxes(read.poses, w.poses));
    EXPECT_EQ(read.poses[1].shape, PoseShape::capsule(16, 56.5));
    // A key with a bad shape, or a box that is not its shape's, is skipped with a warning.
    for (const char* key : {"cap -16 -16 -10 16 16 10 shape=capsule:16,20", "cap -16 -16 -28 16 16 29 shape=capsule:16,56"}) {
        const MapReadResult bad = readMap(std::string("{\n\"classname\" \"worldspawn\"\n\"_shallot_pose1\" \"") + key +
                                              "\"\n}\n",
                                          "bad.map");
        ASSERT_TRUE(bad.ok()) << bad.error.format();
        std::vector<std::string> warnings;
        const World badWorld = worldFromMap(*bad.map, {}, &warnings);
        ASSERT_EQ(warnings.size(), 1u) << key;
        EXPECT_NE(warnings[0].find("shape=ellipsoid:R,H|capsule:R,HEIGHT"), std::string::npos);
        for (const Pose& p : badWorld.poses) EXPECT_NE(p.name, "cap");
    }
    // The shape is part of what samePoseBoxes compares.
    std::vector<Pose> asBoxes = w.poses;
    asBoxes[0].shape = {};
    EXPECT_FALSE(samePoseBoxes(asBoxes, w.poses));

    // A tree of round poses cannot go to .obsp; one of their boxes can.
    BspTree tree = compileWorld(World{w.brushes, treePoses(w.poses), w.bounds}).onion;
    ASSERT_EQ(tree.poses.size(), 4u);
    EXPECT_EQ(tree.poses[2].name, "ell~inscribed");
    EXPECT_EQ(obspWriteProblem(tree), "");
    tree.poses[0] = w.poses[0];
    EXPECT_NE(obspWriteProblem(tree).find("round pose"), std::string::npos);
}

// ---- one brush: classify, trace, move against brute force ----

TEST(RoundPoseExact, ClassifyMatchesBruteForceOnRandomBrushes) {
    Rng rng(11);
    int overlaps = 0, apart = 0;
    for (int i = 0; i < 600; ++i) {
        const PoseShape s = randomRoundShape(rng);
        const BrushGeometry g = randomGeometry(rng);
        const RoundShapeFrame frame = RoundShapeFrame::of(s);
        const RoundBrush b = RoundBrush::of(g, frame);
        for (int k = 0; k < 6; ++k) {
            const Vec3 p = randomPointNear(rng, 70);
            const double brute = bruteClearance(g, s, p);
            const double exact = roundShapeClearance(frame, b, frame.toShape(p));
            SCOPED_TRACE(describe(s) + " at " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " +
                         std::to_string(p.z()));
            EXPECT_EQ(exact < 0, brute < 0) << "exact " << exact << " brute " << brute;
            (brute < 0 ? overlaps : apart)++;
            // The same distance from the core, when the core is outside the brush.
            if (exact > -frame.radius + 1e-9) {
                EXPECT_NEAR(exact, brute, 1e-9 * (1 + std::abs(brute)));
            }
        }
    }
    EXPECT_GT(overlaps, 400);
    EXPECT_GT(apart, 500);
}

// A sweep's exact first contact against brute force: the shape touches there (clearance
// 0), overlaps at no sample before it and, when it misses, at no sample at all; where the
// brute force sees an overlapping sample, bisection between samples finds the same t.
TEST(RoundPoseExact, TraceMatchesBisectionOnRandomBrushes) {
    constexpr int kSamples = 40;
    Rng rng(12);
    int hits = 0, misses = 0, bisected = 0;
    for (int i = 0; i < 500; ++i) {
        const PoseShape s = randomRoundShape(rng);
        const BrushGeometry g = randomGeometry(rng);
        const RoundShapeFrame frame = RoundShapeFrame::of(s);
        const RoundBrush b = RoundBrush::of(g, frame);
        const Vec3 from = randomPointNear(rng, 120);
        if (bruteClearance(g, s, from) < 0.01) continue; // starts touching or inside
        // Aimed near the brush, so that most sweeps hit (faces, edges and corners).
        const Vec3 delta = randomPointNear(rng, 40) - from * uniform(rng, 0.8, 1.6);
        auto clearance = [&](double t) { return bruteClearance(g, s, from + t * delta); };
        const RoundSweep sweep = sweepRoundShape(frame, b, frame.toShape(from), frame.toShape(delta), contactBandOf(frame));
        SCOPED_TRACE(describe(s) + " sweep " + std::to_string(i));
        ASSERT_FALSE(sweep.startSolid);
        const double end = sweep.hit ? sweep.t : 1.0;
        for (int k = 0; k < kSamples; ++k) EXPECT_GT(clearance(end * k / kSamples), -1e-9) << "overlaps before";
        if (!sweep.hit) {
            EXPECT_GT(clearance(1.0), -1e-9);
            ++misses;
            continue;
        }
        ++hits;
        EXPECT_NEAR(clearance(sweep.t), 0.0, 1e-9) << "the contact touches";
        // Bisection from the last sample that is clear to the first that overlaps.
        double lo = 0, hi = -1;
        for (int k = 1; k <= kSamples && hi < 0; ++k) {
            const double t = double(k) / kSamples;
            if (clearance(t) < 0) hi = t;
            else lo = t;
        }
        if (hi > 0) {
            while ((hi - lo) * delta.norm() > 1e-9) {
                const double mid = 0.5 * (lo + hi);
                (clearance(mid) < 0 ? hi : lo) = mid;
            }
            EXPECT_NEAR(sweep.t * delta.norm(), hi * delta.norm(), 1e-6);
            ++bisected;
        }
        // The normal separates: the brush lies behind the plane through the shape's
        // support point along -normal (a gap of 0 along it), and faces against the motion.
        const Vec3 n = frame.normalToWorld(sweep.normal);
        EXPECT_LT(n.dot(delta), 0.0);
        EXPECT_NEAR(gapAlong(g, s, from + sweep.t * delta, -n), 0.0, 1e-6) << "normal " << n.transpose();
    }
    EXPECT_GT(hits, 150);
    EXPECT_GT(misses, 30);
    EXPECT_GT(bisected, 120);
    std::cout << hits << " hits (" << bisected << " bisected), " << misses << " misses\n";
}

// Edges and corners: the case the plane-shifting capsule gets wrong. A capsule beside a
// box's vertical edge, diagonally: it fits where the shifted planes say it does not.
TEST(RoundPoseExact, CapsuleFitsBesideAnEdgeWhereShiftedPlanesWouldRefuseIt) {
    World w;
    w.brushes.push_back(Brush::box(Vec3(-64, -64, -64), Vec3(0, 0, 64)));
    const Pose cap = Pose::round("cap", PoseShape::capsule(16, 56));
    const RoundPoseWorld round(w, cap);
    const double d = 16 / std::sqrt(2.0); // on the diagonal, 16 from the edge
    EXPECT_FALSE(round.isSolid(Vec3(d + 0.01, d + 0.01, 0)));
    EXPECT_TRUE(round.isSolid(Vec3(d - 0.01, d - 0.01, 0)));
    // Shifted planes (x <= 16, y <= 16) would call anything with x, y < 16 solid.
    // A sweep along the diagonal hits the edge's cylinder with the normal along it.
    const TraceResult t = round.trace(Vec3(40, 40, 0), Vec3(0, 0, 0));
    ASSERT_TRUE(t.hit);
    EXPECT_NEAR(t.point.x(), d, 1e-9);
    EXPECT_NEAR(t.normal.x(), std::sqrt(0.5), 1e-9);
    EXPECT_NEAR(t.normal.z(), 0, 1e-12);
    // Above the box: the lower cap meets its top corner.
    const TraceResult down = round.trace(Vec3(10, 10, 200), Vec3(10, 10, 0));
    ASSERT_TRUE(down.hit);
    EXPECT_NEAR(down.point.z(), 64 + 12 + std::sqrt(256 - 200.0), 1e-9);
}

// Moves against one or a few brushes: never end overlapping, contacts touch, never longer
// than asked, never against the move; a clear sweep ends where it was aimed.
TEST(RoundPoseExact, MovesNeverEndInsideAndSlideAlongContacts) {
    Rng rng(13);
    int contacts = 0, stepped = 0, moves = 0;
    for (int i = 0; i < 150; ++i) {
        World w;
        for (int k = 0; k < 6; ++k) {
            Brush b = randomBrush(rng, randomPointNear(rng, 70), uniform(rng, 16, 64), BrushShape(rng() % 3));
            w.brushes.push_back(std::move(b));
        }
        w.brushes.push_back(Brush::box(Vec3(-200, -200, -140), Vec3(200, 200, -100))); // a floor
        std::vector<BrushGeometry> geometry;
        for (const Brush& b : w.brushes)
            if (auto g = buildBrushGeometry(b, w.bounds).geometry) geometry.push_back(*g);
        const Pose pose = Pose::round("round", randomRoundShape(rng));
        const RoundPoseWorld round(w, pose);
        SCOPED_TRACE(describe(pose.shape) + " world " + std::to_string(i));
        auto gap = [&](const Vec3& p) {
            double least = std::numeric_limits<double>::infinity();
            for (const BrushGeometry& g : geometry) least = std::min(least, bruteClearance(g, pose.shape, p));
            return least;
        };
        Vec3 from = randomPointNear(rng, 100);
        if (round.isSolid(from)) continue;
        for (int step = 0; step < 4; ++step, ++moves) {
            const Vec3 delta = randomPointNear(rng, 120);
            const MoveResult m = slideMove(round, from, delta, step % 2 ? 18.0 : 0.0);
            ASSERT_FALSE(m.startSolid);
            EXPECT_GE(gap(m.end), -1e-6) << "end " << m.end.transpose();
            for (const Contact& c : m.contacts) EXPECT_NEAR(gap(c.point), 0.0, 2e-3);
            contacts += int(m.contacts.size());
            stepped += m.stepped;
            if (!m.stepped) {
                EXPECT_LE((m.end - from).norm(), delta.norm() + 1e-9);
                EXPECT_GE((m.end - from).dot(delta), -1e-9);
            }
            const TraceResult straight = round.trace(from, from + delta);
            if (!straight.hit && !straight.startSolid) {
                EXPECT_LT((m.end - from - delta).norm(), 1e-9);
            }
            from = m.end;
        }
    }
    EXPECT_GT(contacts, 80);
    std::cout << moves << " moves, " << contacts << " contacts, " << stepped << " stepped\n";
}

// Slides that can be worked out by hand: a capsule pushed diagonally into a floor keeps
// its across motion at kSlideBackoff above the floor; an ellipsoid into a wall likewise.
TEST(RoundPoseExact, SlidesAlongAFloorAndAWall) {
    World w;
    w.brushes.push_back(Brush::box(Vec3(-500, -500, -64), Vec3(500, 500, 0)));
    w.brushes.push_back(Brush::box(Vec3(100, -500, 0), Vec3(164, 500, 200)));
    const RoundPoseWorld cap(w, Pose::round("cap", PoseShape::capsule(16, 56)));
    MoveResult m = slideMove(cap, Vec3(0, 0, 40), Vec3(50, 30, -100), 0);
    ASSERT_FALSE(m.contacts.empty());
    EXPECT_NEAR(m.end.z(), 28 + kSlideBackoff, 1e-9);
    EXPECT_NEAR(m.end.x(), 50, 1e-9);
    EXPECT_NEAR(m.end.y(), 30, 1e-9);
    EXPECT_NEAR(m.contacts[0].normal.z(), 1, 1e-12);
    const RoundPoseWorld ell(w, Pose::round("ell", PoseShape::ellipsoid(10, 20)));
    m = slideMove(ell, Vec3(0, 0, 50), Vec3(150, 40, 0), 0);
    EXPECT_NEAR(m.end.x(), 90 - kSlideBackoff, 1e-9);
    EXPECT_NEAR(m.end.y(), 40, 1e-9);
    EXPECT_NEAR(m.end.z(), 50, 1e-9);
    // Steps: a capsule walks onto a 16-unit ledge with stepHeight 18, not onto a 40-unit one
    // (whose edge meets the side of its core, not its cap).
    for (const double ledge : {16.0, 40.0}) {
        World steps = w;
        steps.brushes.push_back(Brush::box(Vec3(40, -500, 0), Vec3(100, 500, ledge)));
        const RoundPoseWorld stairs(steps, Pose::round("cap", PoseShape::capsule(16, 56)));
        m = slideMove(stairs, Vec3(0, 0, 28 + kSlideBackoff), Vec3(70, 0, 0), 18);
        EXPECT_EQ(m.stepped, ledge < 18);
        if (m.stepped) {
            EXPECT_NEAR(m.end.x(), 70, 1e-9);
            EXPECT_NEAR(m.end.z(), ledge + 28 + kSlideBackoff, 1e-6);
        } else {
            EXPECT_NEAR(m.end.x(), 24 - kSlideBackoff, 1e-9);
        }
    }
}

// A world of several brushes: its trace is the earliest of the per-brush sweeps (checked
// against brute force above), whatever order the brushes are finished in; a start inside
// one is startSolid; allSolid only where brute force finds every sample of the segment
// inside some brush, and otherwise brute force finds the segment clear where the brushes'
// stretches leave it uncovered.
TEST(RoundPoseExact, WorldTraceIsTheEarliestBrushAndAllSolidCoversTheSegment) {
    Rng rng(14);
    int hits = 0, startSolid = 0, allSolid = 0;
    for (int i = 0; i < 60; ++i) {
        World w;
        for (int k = 0; k < 8; ++k)
            w.brushes.push_back(randomBrush(rng, randomPointNear(rng, 60), uniform(rng, 16, 48), BrushShape(rng() % 5)));
        const Pose pose = Pose::round("round", randomRoundShape(rng));
        const RoundPoseWorld round(w, pose);
        const RoundShapeFrame& frame = round.frame();
        std::vector<BrushGeometry> geometry;
        std::vector<RoundBrush> brushes;
        for (const Brush& b : w.brushes)
            if (auto g = buildBrushGeometry(b, w.bounds).geometry) {
                geometry.push_back(*g);
                brushes.push_back(RoundBrush::of(*g, frame));
            }
        SCOPED_TRACE(describe(pose.shape) + " world " + std::to_string(i));
        for (int k = 0; k < 20; ++k) {
            const Vec3 from = randomPointNear(rng, 90), to = randomPointNear(rng, 90);
            const TraceResult t = round.trace(from, to);
            bool solid = false, hit = false;
            double first = 1.0;
            for (const RoundBrush& b : brushes) {
                const RoundSweep s = sweepRoundShape(frame, b, frame.toShape(from), frame.toShape(to - from),
                                                     contactBandOf(frame));
                solid |= s.startSolid;
                if (s.hit && s.t < first) {
                    hit = true;
                    first = s.t;
                }
            }
            ASSERT_EQ(t.startSolid, solid);
            if (solid) {
                ++startSolid;
                auto bruteLeast = [&](double u) {
                    double least = std::numeric_limits<double>::infinity();
                    for (const BrushGeometry& g : geometry)
                        least = std::min(least, bruteClearance(g, pose.shape, from + u * (to - from)));
                    return least;
                };
                if (t.allSolid) {
                    // Brute force: every sample is inside some brush.
                    for (int j = 0; j <= 100; ++j) EXPECT_LT(bruteLeast(j / 100.0), 1e-9) << "sample " << j;
                    ++allSolid;
                } else {
                    // Not all solid: the first point the per-brush stretches leave uncovered
                    // (a gap can be far narrower than any sampling) is clear for brute force.
                    const Vec3 o = frame.toShape(from), d = frame.toShape(to) - o;
                    std::vector<std::pair<double, double>> stretches;
                    for (const RoundBrush& b : brushes) {
                        const auto in = lineEntry(frame, b, o, d), out = lineEntry(frame, b, o, -d);
                        if (in && out) stretches.emplace_back(in->t, -out->t);
                    }
                    std::sort(stretches.begin(), stretches.end());
                    double covered = 0.0, gap = -1.0;
                    for (const auto& [lo, hi] : stretches) {
                        if (lo > covered) {
                            gap = 0.5 * (covered + std::min(lo, 1.0));
                            break;
                        }
                        covered = std::max(covered, hi);
                    }
                    if (gap < 0.0) gap = 0.5 * (covered + 1.0);
                    ASSERT_LT(covered, 1.0);
                    EXPECT_GT(bruteLeast(gap), -1e-9) << "gap at " << gap;
                }
                continue;
            }
            EXPECT_FALSE(t.allSolid);
            ASSERT_EQ(t.hit, hit);
            if (hit) {
                ++hits;
                EXPECT_NEAR(t.t, first, 1e-12);
            }
        }
    }
    EXPECT_GT(hits, 300);
    EXPECT_GT(startSolid, 100);
    EXPECT_GT(allSolid, 10);
    std::cout << hits << " hits, " << startSolid << " start solid, " << allSolid << " all solid\n";
}

#include "edit/brush_operations.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// Recomputed .map points must give back their side's plane within this: normals, and
// the points' distance to the side's plane. The plane distances themselves are compared
// relative to the points' coordinates: three points on a 0.02-wide sliver face 800 units
// from the origin are off by rounding (1e-13), which tilts their plane by 1e-11 and moves
// its distance from the origin by ~1e-8.
constexpr double kPointsMatch = 1e-9;
// Transforms that should be the identity (4 rotations, 2 mirrors) within rounding.
constexpr double kIdentityMatch = 1e-9;
// Volumes computed along different routes agree up to rounding and up to slivers below
// buildBrushGeometry's minimum volume (1e-6) being dropped.
constexpr double kVolumeMatch = 1e-5;
// Relative volume change under rigid motions: rounding of vertices (slivers amplify it).
constexpr double kRigidVolumeMatch = 1e-7;
// Points closer than this to a plane are not classified in the sampling tests.
constexpr double kSampleMargin = 1e-6;
// Vertices computed by different routes agree within this.
constexpr double kVertexMatch = 1e-6;

BrushGeometry geometry(const Brush& b) {
    BrushGeometryResult g = buildBrushGeometry(b, defaultWorldBounds());
    EXPECT_TRUE(g.geometry) << g.error;
    return g.geometry ? std::move(*g.geometry) : BrushGeometry{};
}

double volume(const Brush& b) { return geometry(b).hull.volume(); }

double halfSpacesVolume(const std::vector<Plane>& planes) {
    const ConvexPolyhedron p = intersectHalfSpaces(planes, 2 * kDefaultWorldExtent).polyhedron;
    return p.empty() ? 0.0 : p.volume();
}

std::vector<Plane> planesOf(const Brush& b) {
    std::vector<Plane> planes;
    for (const BrushSide& s : b.sides) planes.push_back(s.plane);
    return planes;
}

void expectPointsReproducePlane(const BrushSide& s) {
    ASSERT_TRUE(s.hasPoints);
    const std::optional<Plane> p = Plane::fromPoints(s.points[0], s.points[1], s.points[2]);
    ASSERT_TRUE(p);
    EXPECT_LE((p->normal - s.plane.normal).cwiseAbs().maxCoeff(), kPointsMatch) << s.plane.normal.transpose();
    double scale = 1.0;
    for (const Vec3& v : s.points) {
        EXPECT_NEAR(s.plane.signedDistance(v), 0.0, kPointsMatch);
        scale = std::max(scale, v.cwiseAbs().maxCoeff());
    }
    EXPECT_NEAR(p->dist, s.plane.dist, kPointsMatch * scale);
}

bool identicalPlanes(const Brush& a, const Brush& b) {
    if (a.sides.size() != b.sides.size()) return false;
    for (size_t i = 0; i < a.sides.size(); ++i)
        if (a.sides[i].plane.normal != b.sides[i].plane.normal || a.sides[i].plane.dist != b.sides[i].plane.dist) return false;
    return true;
}

// Volume of the intersection of both brushes (0 when empty).
double intersectionVolume(const Brush& a, const Brush& b) {
    std::vector<Plane> planes = planesOf(a);
    for (const BrushSide& s : b.sides) planes.push_back(s.plane);
    return halfSpacesVolume(planes);
}

// Sides that contribute a face have points that reproduce their plane.
void expectPointsOnFaces(const Brush& b) {
    for (const ConvexFace& f : geometry(b).hull.faces) {
        const BrushSide& s = b.sides[size_t(f.tag)];
        expectPointsReproducePlane(s);
    }
}

double maxSignedDistance(const Brush& b, const Vec3& p) {
    double d = -INFINITY;
    for (const BrushSide& s : b.sides) d = std::max(d, s.plane.signedDistance(p));
    return d;
}

double nearestPlane(const Brush& b, const Vec3& p) {
    double d = INFINITY;
    for (const BrushSide& s : b.sides) d = std::min(d, std::abs(s.plane.signedDistance(p)));
    return d;
}

bool integral(const Vec3& v) { return v.array().round().matrix() == v; }

// A result of an operation: valid, every side contributes a face, and every side's
// points reproduce its plane (and are integral when `grid`).
void expectGoodBrush(const Brush& b, bool grid) {
    const BrushGeometryResult g = buildBrushGeometry(b, defaultWorldBounds());
    ASSERT_TRUE(g.geometry) << g.error;
    EXPECT_EQ(g.geometry->hull.faces.size(), b.sides.size());
    for (const BrushSide& s : b.sides) {
        expectPointsReproducePlane(s);
        if (grid) {
            for (const Vec3& v : s.points) EXPECT_TRUE(integral(v)) << v.transpose();
        }
    }
}

void expectBounds(const Brush& b, const Vec3& mins, const Vec3& maxs) {
    const Aabb box = bounds(b);
    EXPECT_EQ(box.mins, mins);
    EXPECT_EQ(box.maxs, maxs);
}

int sideWithNormal(const Brush& b, const Vec3& n) {
    for (size_t i = 0; i < b.sides.size(); ++i)
        if (b.sides[i].plane.normal == n) return int(i);
    return -1;
}

void expectSamePlanes(const Brush& a, const Brush& b) {
    ASSERT_EQ(a.sides.size(), b.sides.size());
    for (size_t i = 0; i < a.sides.size(); ++i) {
        EXPECT_LE((a.sides[i].plane.normal - b.sides[i].plane.normal).cwiseAbs().maxCoeff(), kIdentityMatch);
        EXPECT_NEAR(a.sides[i].plane.dist, b.sides[i].plane.dist, kIdentityMatch);
    }
}

Brush gridBox(const Vec3& mins, const Vec3& maxs) {
    std::optional<Brush> b = boxBrush(mins, maxs, "wall");
    EXPECT_TRUE(b);
    return b ? *b : Brush{};
}

Brush randomOperand(Rng& rng, int i, const Vec3& centre = Vec3::Zero()) {
    return randomBrush(rng, centre, uniform(rng, 8, 64), BrushShape(i % 5));
}

} // namespace

// ---- Exact results on grid boxes ----

TEST(BrushOperations, BoxBrush) {
    const std::optional<Brush> b = boxBrush(Vec3(0, 0, 0), Vec3(64, 32, 16), "rock");
    ASSERT_TRUE(b);
    expectGoodBrush(*b, true);
    expectBounds(*b, Vec3(0, 0, 0), Vec3(64, 32, 16));
    for (const BrushSide& s : b->sides) {
        EXPECT_EQ(s.texture, "rock");
        EXPECT_EQ(s.textureParams, "0 0 0 1 1");
    }
    std::string reason;
    EXPECT_FALSE(boxBrush(Vec3(0, 0, 0), Vec3(64, 0, 16), "rock", &reason));
    EXPECT_FALSE(reason.empty());
    EXPECT_FALSE(boxBrush(Vec3(0, 0, 0), Vec3(-1, 8, 8), "rock"));
    EXPECT_FALSE(boxBrush(Vec3(0, 0, 0), Vec3(NAN, 8, 8), "rock"));
    EXPECT_FALSE(boxBrush(Vec3(0, 0, 0), Vec3(1e6, 8, 8), "rock")); // beyond the world
}

TEST(BrushOperations, TranslatedBox) {
    const Brush b = translated(gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64)), Vec3(16, -8, 32));
    expectGoodBrush(b, true);
    expectBounds(b, Vec3(16, -8, 32), Vec3(80, 56, 96));
    // Sides without points get them; those with points keep them, moved.
    const Brush fromPlanes = translated(Brush::box(Vec3(0, 0, 0), Vec3(8, 8, 8)), Vec3(1, 2, 3));
    expectGoodBrush(fromPlanes, true);
}

TEST(BrushOperations, FaceMovedOnBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    const int east = sideWithNormal(box, Vec3::UnitX());
    ASSERT_GE(east, 0);
    const std::optional<Brush> grown = withFaceMoved(box, east, 16);
    ASSERT_TRUE(grown);
    expectGoodBrush(*grown, true);
    expectBounds(*grown, Vec3(0, 0, 0), Vec3(80, 64, 64));
    EXPECT_EQ(grown->sides[size_t(east)].texture, "wall");

    const std::optional<Brush> shrunk = withFaceMoved(box, east, -63);
    ASSERT_TRUE(shrunk);
    expectGoodBrush(*shrunk, true);
    expectBounds(*shrunk, Vec3(0, 0, 0), Vec3(1, 64, 64));

    std::string reason;
    EXPECT_FALSE(withFaceMoved(box, east, -64, &reason));
    EXPECT_FALSE(reason.empty());
    EXPECT_FALSE(withFaceMoved(box, east, -100));
    EXPECT_FALSE(withFaceMoved(box, -1, 8));
    EXPECT_FALSE(withFaceMoved(box, 6, 8));
    EXPECT_FALSE(withFaceMoved(box, east, NAN));
}

TEST(BrushOperations, WithBoundsOnBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    EXPECT_EQ(bounds(box).mins, Vec3(0, 0, 0));
    const std::optional<Brush> r = withBounds(box, {Vec3(-8, 16, 0), Vec3(100, 50, 30)});
    ASSERT_TRUE(r);
    expectGoodBrush(*r, true);
    expectBounds(*r, Vec3(-8, 16, 0), Vec3(100, 50, 30));
    // A wedge (box cut on its diagonal) scales exactly on its axial faces.
    Brush wedge = box;
    wedge.sides.push_back({*planeFromPoints(Vec3(64, 0, 0), Vec3(0, 64, 0), Vec3(0, 64, 64)), {}, false, "w", "", 0});
    const std::optional<Brush> w = withBounds(wedge, {Vec3(0, 0, 0), Vec3(32, 128, 64)});
    ASSERT_TRUE(w);
    expectGoodBrush(*w, true);
    expectBounds(*w, Vec3(0, 0, 0), Vec3(32, 128, 64));
    EXPECT_NEAR(volume(*w), 32 * 128 * 64 / 2.0, kVolumeMatch);

    EXPECT_FALSE(withBounds(box, {Vec3(0, 0, 0), Vec3(0, 8, 8)}));
    EXPECT_FALSE(withBounds(box, {Vec3(0, 0, 0), Vec3(-8, 8, 8)}));
    EXPECT_FALSE(withBounds(box, Aabb{}));
    EXPECT_FALSE(withBounds(Brush::fromPlanes({{Vec3::UnitX(), 1}}), {Vec3(0, 0, 0), Vec3(8, 8, 8)}));
}

TEST(BrushOperations, ClipBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    const ClipResult c = clipBrush(box, {Vec3::UnitX(), 16});
    ASSERT_TRUE(c.front && c.back) << c.error;
    expectGoodBrush(*c.front, true);
    expectGoodBrush(*c.back, true);
    expectBounds(*c.front, Vec3(16, 0, 0), Vec3(64, 64, 64));
    expectBounds(*c.back, Vec3(0, 0, 0), Vec3(16, 64, 64));
    for (const BrushSide& s : c.front->sides) EXPECT_EQ(s.texture, "wall");

    // A diagonal clip through grid points writes grid points.
    const std::optional<Plane> diag = planeFromPoints(Vec3(64, 0, 0), Vec3(0, 64, 0), Vec3(0, 64, 64));
    ASSERT_TRUE(diag);
    const ClipResult d = clipBrush(box, *diag);
    ASSERT_TRUE(d.front && d.back);
    expectGoodBrush(*d.front, true);
    expectGoodBrush(*d.back, true);
    EXPECT_NEAR(volume(*d.front), 64 * 64 * 64 / 2.0, kVolumeMatch);

    // A plane that misses: one part is the whole brush, the other is empty.
    const ClipResult miss = clipBrush(box, {Vec3::UnitX(), 100});
    EXPECT_FALSE(miss.front);
    ASSERT_TRUE(miss.back);
    EXPECT_EQ(miss.back->sides.size(), 6u);
    expectBounds(*miss.back, Vec3(0, 0, 0), Vec3(64, 64, 64));
    // Touching a face counts as missing.
    EXPECT_FALSE(clipBrush(box, {Vec3::UnitX(), 64}).front);

    const ClipResult bad = clipBrush(box, {Vec3::Zero(), 0});
    EXPECT_FALSE(bad.front || bad.back);
    EXPECT_FALSE(bad.error.empty());
    EXPECT_FALSE(planeFromPoints(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2)));
}

TEST(BrushOperations, PlaneThroughLine) {
    const std::optional<Plane> p = planeThroughLine(Vec3(0, 0, 0), Vec3(64, 0, 0), 2);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->normal, Vec3(0, -1, 0));
    EXPECT_EQ(p->dist, 0.0);
    const std::optional<Plane> q = planeThroughLine(Vec3(0, 0, 5), Vec3(0, 32, 32), 0);
    ASSERT_TRUE(q);
    for (const Vec3& v : {Vec3(0, 0, 5), Vec3(0, 32, 32), Vec3(100, 0, 5)}) EXPECT_NEAR(q->signedDistance(v), 0, 1e-12);
    EXPECT_FALSE(planeThroughLine(Vec3(0, 0, 0), Vec3(0, 0, 64), 2)); // along the view axis
    EXPECT_FALSE(planeThroughLine(Vec3(0, 0, 0), Vec3(0, 0, 0), 1));
    EXPECT_FALSE(planeThroughLine(Vec3(0, 0, 0), Vec3(1, 0, 0), 3));
    EXPECT_FALSE(planeThroughLine(Vec3(0, 0, 0), Vec3(NAN, 0, 0), 2));
}

TEST(BrushOperations, SubtractBoxes) {
    const Brush from = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    // A hole right through: four pieces.
    Brush cutter = gridBox(Vec3(16, 16, -16), Vec3(48, 48, 80));
    for (BrushSide& s : cutter.sides) s.texture = "cut";
    std::string reason;
    const std::vector<Brush> pieces = subtractBrush(from, cutter, &reason);
    EXPECT_TRUE(reason.empty());
    ASSERT_EQ(pieces.size(), 4u);
    double sum = 0;
    for (const Brush& p : pieces) {
        expectGoodBrush(p, true);
        sum += volume(p);
        EXPECT_EQ(intersectionVolume(p, cutter), 0.0);
        // Faces of `from` keep its texture; the new faces take the cutter's.
        for (const BrushSide& s : p.sides)
            EXPECT_EQ(s.texture, sideWithNormal(from, s.plane.normal) >= 0 &&
                                         from.sides[size_t(sideWithNormal(from, s.plane.normal))].plane.dist == s.plane.dist
                                     ? "wall"
                                     : "cut");
    }
    EXPECT_NEAR(sum, 64.0 * 64 * 64 - 32.0 * 32 * 64, kVolumeMatch);

    // Apart or touching: unchanged.
    for (const Brush& other : {gridBox(Vec3(100, 0, 0), Vec3(120, 8, 8)), gridBox(Vec3(64, 0, 0), Vec3(128, 64, 64))}) {
        const std::vector<Brush> same = subtractBrush(from, other);
        ASSERT_EQ(same.size(), 1u);
        expectSamePlanes(same[0], from);
    }
    // Swallowed: nothing left, and no error.
    reason.clear();
    EXPECT_TRUE(subtractBrush(from, gridBox(Vec3(-8, -8, -8), Vec3(72, 72, 72)), &reason).empty());
    EXPECT_TRUE(reason.empty());
    // Invalid operands.
    EXPECT_TRUE(subtractBrush(from, Brush::fromPlanes({{Vec3::UnitX(), 1}}), &reason).empty());
    EXPECT_FALSE(reason.empty());
    reason.clear();
    EXPECT_TRUE(subtractBrush(Brush{}, from, &reason).empty());
    EXPECT_FALSE(reason.empty());
}

TEST(BrushOperations, HollowBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    const std::vector<Brush> walls = hollowBrush(box, 8);
    ASSERT_EQ(walls.size(), 6u);
    double sum = 0;
    Aabb all;
    for (const Brush& w : walls) {
        expectGoodBrush(w, true);
        sum += volume(w);
        all.add(bounds(w));
        for (const BrushSide& s : w.sides) EXPECT_EQ(s.texture, "wall");
    }
    EXPECT_NEAR(sum, 64.0 * 64 * 64 - 48.0 * 48 * 48, kVolumeMatch);
    EXPECT_EQ(all.mins, Vec3(0, 0, 0));
    EXPECT_EQ(all.maxs, Vec3(64, 64, 64));

    for (double t : {32.0, 40.0, 0.0, -1.0, double(NAN)}) {
        std::string reason;
        EXPECT_TRUE(hollowBrush(box, t, &reason).empty()) << t;
        EXPECT_FALSE(reason.empty()) << t;
    }
}

TEST(BrushOperations, RotateAndFlipBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 32, 16));
    const Brush ccw = rotated90(box, 2, Vec3::Zero(), false);
    expectGoodBrush(ccw, true);
    expectBounds(ccw, Vec3(-32, 0, 0), Vec3(0, 64, 16));
    const Brush cw = rotated90(box, 2, Vec3::Zero(), true);
    expectGoodBrush(cw, true);
    expectBounds(cw, Vec3(0, -64, 0), Vec3(32, 0, 16));
    const Brush aboutX = rotated90(box, 0, Vec3(0, 16, 8), false);
    expectGoodBrush(aboutX, true);
    expectBounds(aboutX, Vec3(0, 8, -8), Vec3(64, 24, 24));
    const Brush mirrored = flipped(box, 0, Vec3(8, 0, 0));
    expectGoodBrush(mirrored, true);
    expectBounds(mirrored, Vec3(-48, 0, 0), Vec3(16, 32, 16));
    // Out-of-range axes leave the brush alone.
    expectSamePlanes(rotated90(box, 3, Vec3::Zero(), false), box);
    expectSamePlanes(flipped(box, -1, Vec3::Zero()), box);
}

TEST(BrushOperations, RayPickOnBox) {
    const Brush box = gridBox(Vec3(0, 0, 0), Vec3(64, 64, 64));
    EXPECT_EQ(rayHitBrush(box, Vec3(-10, 32, 32), Vec3(1, 0, 0)), 10.0);
    EXPECT_EQ(rayHitBrush(box, Vec3(-10, 32, 32), Vec3(2, 0, 0)), 5.0);
    EXPECT_EQ(pickFace(box, Vec3(-10, 32, 32), Vec3(1, 0, 0)), sideWithNormal(box, -Vec3::UnitX()));
    EXPECT_EQ(pickFace(box, Vec3(32, 32, 100), Vec3(0.1, 0, -1)), sideWithNormal(box, Vec3::UnitZ()));
    EXPECT_FALSE(rayHitBrush(box, Vec3(-10, 32, 32), Vec3(-1, 0, 0))); // pointing away
    EXPECT_FALSE(rayHitBrush(box, Vec3(-10, 100, 32), Vec3(1, 0, 0))); // parallel, outside
    EXPECT_FALSE(rayHitBrush(box, Vec3(32, 32, 32), Vec3(1, 0, 0)));   // starts inside
    EXPECT_FALSE(rayHitBrush(box, Vec3(-10, 32, 32), Vec3(0, 0, 0)));
    EXPECT_FALSE(rayHitBrush(box, Vec3(NAN, 32, 32), Vec3(1, 0, 0)));
    EXPECT_EQ(pickFace(box, Vec3(-10, 100, 32), Vec3(1, 0, 0)), -1);
}

// ---- Properties on random brushes ----

TEST(BrushOperations, TranslatedRandomBrushes) {
    Rng rng(101);
    for (int i = 0; i < 200; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i, Vec3(uniform(rng, -300, 300), 0, 0));
        const Vec3 delta(uniform(rng, -500, 500), uniform(rng, -500, 500), uniform(rng, -500, 500));
        const Brush t = translated(b, delta);
        const BrushGeometry g0 = geometry(b), g1 = geometry(t);
        EXPECT_NEAR(g1.hull.volume(), g0.hull.volume(), kRigidVolumeMatch * g0.hull.volume());
        ASSERT_EQ(g1.vertices.size(), g0.vertices.size());
        for (const Vec3& v : g0.vertices) {
            double nearest = INFINITY;
            for (const Vec3& w : g1.vertices) nearest = std::min(nearest, (w - (v + delta)).norm());
            EXPECT_LT(nearest, kVertexMatch);
        }
        expectPointsOnFaces(t);
    }
}

TEST(BrushOperations, FaceMovedRandomBrushes) {
    Rng rng(102);
    int moved = 0, failed = 0;
    for (int i = 0; i < 300; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i);
        const int side = int(rng() % b.sides.size());
        const double distance = uniform(rng, -40, 40);
        Brush expected = b;
        expected.sides[size_t(side)].plane.dist += distance;
        const double expectedVolume = halfSpacesVolume(planesOf(expected));
        const std::optional<Brush> r = withFaceMoved(b, side, distance);
        if (!r) {
            ++failed;
            EXPECT_LT(expectedVolume, kVolumeMatch);
            continue;
        }
        ++moved;
        expectGoodBrush(*r, false);
        EXPECT_NEAR(volume(*r), expectedVolume, kVolumeMatch * std::max(1.0, expectedVolume));
        if (distance > 0) {
            EXPECT_GE(volume(*r), volume(b) - kVolumeMatch);
        }
    }
    EXPECT_GT(moved, 100);
    EXPECT_GT(failed, 10);
}

TEST(BrushOperations, WithBoundsRandomBrushes) {
    Rng rng(103);
    for (int i = 0; i < 300; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i);
        const Aabb old = bounds(b);
        const Vec3 scale(uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2));
        const Vec3 mins(uniform(rng, -200, 200), uniform(rng, -200, 200), uniform(rng, -200, 200));
        const Aabb target{mins, mins + (old.maxs - old.mins).cwiseProduct(scale)};
        std::string reason;
        const std::optional<Brush> r = withBounds(b, target, &reason);
        ASSERT_TRUE(r) << reason << " scale " << scale.transpose() << " volume " << volume(b) << " shape " << i % 5;
        expectGoodBrush(*r, false);
        const Aabb got = bounds(*r);
        EXPECT_LT((got.mins - target.mins).cwiseAbs().maxCoeff(), kVertexMatch);
        EXPECT_LT((got.maxs - target.maxs).cwiseAbs().maxCoeff(), kVertexMatch);
        const double expected = volume(b) * scale.prod();
        EXPECT_NEAR(volume(*r), expected, 1e-6 * expected);
    }
}

TEST(BrushOperations, ClipRandomBrushes) {
    Rng rng(104);
    for (int i = 0; i < 300; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i);
        const BrushGeometry g = geometry(b);
        const Vec3 through = g.hull.vertexCentroid() + 0.3 * Vec3(uniform(rng, -8, 8), uniform(rng, -8, 8), uniform(rng, -8, 8));
        const Vec3 n = randomUnit(rng);
        const ClipResult c = clipBrush(b, {n, n.dot(through)});
        ASSERT_TRUE(c.error.empty());
        double sum = 0;
        if (c.front) {
            expectGoodBrush(*c.front, false);
            sum += volume(*c.front);
            for (const Vec3& v : geometry(*c.front).vertices) EXPECT_GE(n.dot(v) - n.dot(through), -kVertexMatch);
        }
        if (c.back) {
            expectGoodBrush(*c.back, false);
            sum += volume(*c.back);
            for (const Vec3& v : geometry(*c.back).vertices) EXPECT_LE(n.dot(v) - n.dot(through), kVertexMatch);
        }
        EXPECT_NEAR(sum, g.hull.volume(), kVolumeMatch * std::max(1.0, g.hull.volume() * 1e-3));
    }
}

TEST(BrushOperations, SubtractRandomBrushes) {
    Rng rng(105);
    int overlapping = 0;
    for (int i = 0; i < 200; ++i) {
        SCOPED_TRACE(i);
        const Brush from = randomOperand(rng, i);
        const Brush cutter = randomOperand(rng, int(rng() % 5), Vec3(uniform(rng, -50, 50), uniform(rng, -50, 50), uniform(rng, -50, 50)));
        std::string reason;
        const std::vector<Brush> pieces = subtractBrush(from, cutter, &reason);
        ASSERT_TRUE(reason.empty()) << reason;
        const double common = intersectionVolume(from, cutter);
        if (common > kVolumeMatch) ++overlapping;
        // Apart: `from` comes back as it was (without points); otherwise new pieces.
        const bool unchanged = pieces.size() == 1 && identicalPlanes(pieces[0], from);
        if (unchanged) {
            EXPECT_LT(common, kVolumeMatch);
        }
        double sum = 0;
        for (const Brush& p : pieces) {
            if (!unchanged) expectGoodBrush(p, false);
            sum += volume(p);
            EXPECT_LT(intersectionVolume(p, cutter), kVolumeMatch);
        }
        EXPECT_NEAR(sum, volume(from) - common, kVolumeMatch * std::max(1.0, volume(from) * 1e-3));

        const Aabb box = bounds(from);
        for (int k = 0; k < 200; ++k) {
            const Vec3 p(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                         uniform(rng, box.mins.z(), box.maxs.z()));
            if (nearestPlane(from, p) < kSampleMargin || nearestPlane(cutter, p) < kSampleMargin) continue;
            if (maxSignedDistance(from, p) > 0) continue;
            int containing = 0;
            for (const Brush& piece : pieces) containing += maxSignedDistance(piece, p) < 0;
            EXPECT_EQ(containing, maxSignedDistance(cutter, p) < 0 ? 0 : 1) << p.transpose();
        }
    }
    EXPECT_GT(overlapping, 50);
}

TEST(BrushOperations, HollowRandomBrushes) {
    Rng rng(106);
    int hollowed = 0;
    for (int i = 0; i < 200; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i);
        const double thickness = uniform(rng, 0.5, 8);
        Brush inner = b;
        for (BrushSide& s : inner.sides) s.plane.dist -= thickness;
        const bool innerValid = buildBrushGeometry(inner, defaultWorldBounds()).geometry.has_value();
        std::string reason;
        const std::vector<Brush> walls = hollowBrush(b, thickness, &reason);
        if (!innerValid) {
            EXPECT_TRUE(walls.empty());
            EXPECT_FALSE(reason.empty());
            continue;
        }
        ++hollowed;
        ASSERT_TRUE(reason.empty()) << reason;
        double sum = 0;
        for (const Brush& w : walls) {
            expectGoodBrush(w, false);
            sum += volume(w);
        }
        EXPECT_NEAR(sum, volume(b) - volume(inner), kVolumeMatch * std::max(1.0, volume(b) * 1e-3));
    }
    EXPECT_GT(hollowed, 80);
}

TEST(BrushOperations, RotateFourTimesAndFlipTwiceAreIdentity) {
    Rng rng(107);
    for (int i = 0; i < 200; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i, Vec3(uniform(rng, -300, 300), uniform(rng, -300, 300), 0));
        const Vec3 pivot(uniform(rng, -100, 100), uniform(rng, -100, 100), uniform(rng, -100, 100));
        const double v = volume(b);
        for (int axis = 0; axis < 3; ++axis) {
            for (bool clockwise : {false, true}) {
                Brush r = b;
                for (int k = 0; k < 4; ++k) {
                    r = rotated90(r, axis, pivot, clockwise);
                    EXPECT_NEAR(volume(r), v, kRigidVolumeMatch * v);
                }
                expectSamePlanes(r, b);
                expectSamePlanes(rotated90(rotated90(b, axis, pivot, clockwise), axis, pivot, !clockwise), b);
            }
            const Brush once = flipped(b, axis, pivot);
            EXPECT_NEAR(volume(once), v, kRigidVolumeMatch * v);
            for (size_t s = 0; s < b.sides.size(); ++s)
                // The mirrored plane is the one Plane::fromPoints gives the mirrored points (as a
                // .map reader reads it back): the negated normal within rounding.
                EXPECT_NEAR(once.sides[s].plane.normal[axis], -b.sides[s].plane.normal[axis], kIdentityMatch);
            expectPointsOnFaces(once);
            // Points carried through a rotation and a mirror (not recomputed) stay outward.
            expectPointsOnFaces(flipped(rotated90(b, axis, pivot, axis == 1), (axis + 1) % 3, pivot));
            expectSamePlanes(flipped(once, axis, pivot), b);
        }
    }
}

TEST(BrushOperations, RayPickRandomBrushes) {
    Rng rng(108);
    for (int i = 0; i < 300; ++i) {
        SCOPED_TRACE(i);
        const Brush b = randomOperand(rng, i);
        const Vec3 centre = geometry(b).hull.vertexCentroid();
        const Vec3 origin = centre + 1000 * randomUnit(rng);
        const Vec3 dir = centre - origin;
        const std::optional<double> t = rayHitBrush(b, origin, dir);
        ASSERT_TRUE(t);
        EXPECT_GT(*t, 0.0);
        EXPECT_LT(*t, 1.0);
        const Vec3 hit = origin + *t * dir;
        const int side = pickFace(b, origin, dir);
        ASSERT_GE(side, 0);
        EXPECT_NEAR(b.sides[size_t(side)].plane.signedDistance(hit), 0.0, kVertexMatch);
        EXPECT_LE(maxSignedDistance(b, hit), kVertexMatch);
        // Just before the hit the ray is outside.
        EXPECT_GT(maxSignedDistance(b, origin + (*t - 1e-3) * dir), 0.0);
        EXPECT_FALSE(rayHitBrush(b, origin, -dir));
        EXPECT_FALSE(rayHitBrush(b, centre, dir));
    }
}

TEST(BrushOperations, InvalidBrushesNeverCrash) {
    Brush empty = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    empty.sides.push_back({{Vec3::UnitX(), -5}, {}, false, {}, {}, 0});
    Brush nan = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    nan.sides[0].plane.dist = NAN;
    const std::vector<Brush> invalid = {Brush{}, Brush::fromPlanes({{Vec3::UnitX(), 1}, {Vec3::UnitY(), 1}}), empty, nan};
    const Brush box = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    for (const Brush& b : invalid) {
        std::string reason;
        EXPECT_FALSE(withFaceMoved(b, 0, 1, &reason));
        EXPECT_FALSE(withBounds(b, {Vec3::Zero(), Vec3::Constant(8)}, &reason));
        EXPECT_TRUE(bounds(b).empty());
        const ClipResult c = clipBrush(b, {Vec3::UnitX(), 1});
        EXPECT_FALSE(c.front || c.back);
        EXPECT_FALSE(c.error.empty());
        reason.clear();
        EXPECT_TRUE(subtractBrush(b, box, &reason).empty());
        EXPECT_FALSE(reason.empty());
        reason.clear();
        EXPECT_TRUE(subtractBrush(box, b, &reason).empty());
        EXPECT_FALSE(reason.empty());
        reason.clear();
        EXPECT_TRUE(hollowBrush(b, 1, &reason).empty());
        EXPECT_FALSE(reason.empty());
        // Transforms and picking take what they are given.
        translated(b, Vec3(1, 2, 3));
        rotated90(b, 1, Vec3::Zero(), true);
        flipped(b, 2, Vec3::Zero());
        rayHitBrush(b, Vec3(-5, 5, 5), Vec3::UnitX());
        pickFace(b, Vec3(-5, 5, 5), Vec3::UnitX());
    }
    // A NaN delta gives a brush the validator rejects, not a crash.
    EXPECT_FALSE(buildBrushGeometry(translated(box, Vec3(NAN, 0, 0)), defaultWorldBounds()).geometry);
}

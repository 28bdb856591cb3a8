#include "compile/leaf_interior_point.h"
#include "geometry/convex_polyhedron.h"
#include "geometry/flat_polygons.h"
#include "geometry/plane_pool.h"
#include "geometry/tolerances.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <random>

using namespace shallot;
using namespace shallot::test;

TEST(PlanePool, MergesNearlyEqualPlanesAndPairsFlips) {
    PlanePool pool;
    const PlaneId a = pool.insert({Vec3::UnitX(), 64});
    EXPECT_EQ(pool.insert({Vec3::UnitX(), 64 + 1e-7}), a);
    EXPECT_EQ(pool.insert({-Vec3::UnitX(), -64}), a ^ 1);
    EXPECT_TRUE(sameSurface(a, a ^ 1));
    EXPECT_NE(pool.insert({Vec3::UnitX(), 64.01}), a);
    // A normal within 1e-12 of an axis is snapped onto it.
    const PlaneId b = pool.insert({Vec3(1e-13, 0, 1).normalized(), 8});
    EXPECT_EQ(pool[b].normal, Vec3::UnitZ());
    // Distances on either side of a hash bucket boundary still merge.
    const PlaneId c = pool.insert({Vec3::UnitY(), 1.0 - 1e-7});
    EXPECT_EQ(pool.insert({Vec3::UnitY(), 1.0 + 1e-7}), c);
    EXPECT_EQ(pool.size() % 2, 0u);
    for (size_t i = 0; i < pool.size(); i += 2) {
        EXPECT_EQ(pool[PlaneId(i + 1)].normal, -pool[PlaneId(i)].normal);
        EXPECT_EQ(pool[PlaneId(i + 1)].dist, -pool[PlaneId(i)].dist);
    }
}

// The pool may move a plane by at most kPlaneMergeDistance anywhere in the world box: it
// used to snap every normal whose axial component was within 1e-12 of 1 (a tilt of up to
// 1.4e-6, 0.09 units at the world's edge) and merge normals within 1e-7 (6.5e-3 units).
TEST(PlanePool, MergesAndSnapsOnlyPlanesThatStayCloseInTheWorldBox) {
    PlanePool pool;
    const Vec3 tilted = Vec3(1, 3e-7, 0).normalized();
    ASSERT_LT(1.0 - tilted.x(), 1e-12);
    EXPECT_NE(pool[pool.insert({tilted, 8})].normal, Vec3::UnitX());
    const PlaneId x = pool.insert({Vec3::UnitX(), 8});
    EXPECT_EQ(pool[x].normal, Vec3::UnitX());
    EXPECT_NE(pool.insert({Vec3(1, 1e-8, 0).normalized(), 8}), x);
    EXPECT_EQ(pool.insert({Vec3(1, 1e-11, 0).normalized(), 8}), x);
    // A turn of 1e-9 moves a plane by 6.5e-5 at 65536 but only 1e-6 in a world of +-1000.
    const Plane p{Vec3(1, 2, 3).normalized(), 40};
    const Plane q{(p.normal + Vec3(0, 1e-9, 0)).normalized(), 40};
    EXPECT_NE(pool.insert(p), pool.insert(q));
    PlanePool small(1000.0);
    EXPECT_EQ(small.insert(p), small.insert(q));
    EXPECT_EQ(small.insert({p.normal, 40 + 5e-6}), small.insert(p));
    EXPECT_NE(small.insert({p.normal, 40 + 2e-5}), small.insert(p));
}

TEST(Plane, AxisNeedsTheOtherComponentsToBeZero) {
    const Plane axial{-Vec3::UnitY(), 3};
    EXPECT_EQ(axial.axis(), 1);
    // The x component of this normal rounds to exactly 1.
    const Plane nearlyAxial{Vec3(1, 0, -8e-9).normalized(), 60000};
    ASSERT_EQ(nearlyAxial.normal.x(), 1.0);
    EXPECT_EQ(nearlyAxial.axis(), -1);
    // So splitting by it does not move new vertices onto x = dist (5e-4 off the plane at z = 60000).
    const Polygon square{{Vec3(59000, 0, 60000), Vec3(61000, 0, 60000), Vec3(61000, 10, 60000), Vec3(59000, 10, 60000)}};
    const SplitPolygon s = split(square, nearlyAxial, kOnPlaneEpsilon);
    ASSERT_FALSE(s.front.empty());
    for (const Vec3& v : s.front.vertices) {
        if (v.x() > 59000 && v.x() < 61000) {
            EXPECT_NEAR(nearlyAxial.signedDistance(v), 0.0, 1e-9) << v.transpose();
        }
    }
}

TEST(Polygon, SplitKeepsAreaAndSides) {
    Rng rng(4);
    for (int i = 0; i < 500; ++i) {
        const Plane base{randomUnit(rng), uniform(rng, -100, 100)};
        const Polygon p = baseWinding(base, uniform(rng, 1, 100));
        const Plane cut{randomUnit(rng), base.dist * 0 + uniform(rng, -50, 50)};
        const SplitPolygon s = split(p, cut, kOnPlaneEpsilon);
        EXPECT_NEAR(s.front.area() + s.back.area(), p.area(), 1e-6 * p.area());
        for (const Vec3& v : s.front.vertices) EXPECT_GE(cut.signedDistance(v), -kOnPlaneEpsilon);
        for (const Vec3& v : s.back.vertices) EXPECT_LE(cut.signedDistance(v), kOnPlaneEpsilon);
    }
}

struct TaggedPolygon {
    int tag;
    uint32_t firstVertex = 0, vertexCount = 0;
};

// Random adds, copies of single items and whole appends, checked against a plain list of
// (tag, vertices); the vertices of every item stay its own whatever was added after it.
TEST(FlatPolygons, KeepEachItemsVerticesThroughAddsCopiesAndAppends) {
    std::mt19937 rng(7);
    using Expected = std::vector<std::pair<int, std::vector<Vec3>>>;
    auto randomPolygon = [&] {
        std::vector<Vec3> v(std::uniform_int_distribution<int>(0, 9)(rng));
        for (Vec3& p : v) p = Vec3::Random();
        return v;
    };
    auto expectSame = [](const FlatPolygons<TaggedPolygon>& list, const Expected& expected) {
        ASSERT_EQ(list.size(), expected.size());
        size_t vertices = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            EXPECT_EQ(list[i].tag, expected[i].first) << i;
            const std::span<const Vec3> v = list.vertices(i);
            ASSERT_EQ(v.size(), expected[i].second.size()) << i;
            EXPECT_TRUE(std::equal(v.begin(), v.end(), expected[i].second.begin())) << i;
            vertices += v.size();
        }
        EXPECT_EQ(list.vertexTotal(), vertices);
    };
    FlatPolygons<TaggedPolygon> a, b;
    Expected expectedA, expectedB;
    for (int step = 0; step < 2000; ++step) {
        const int what = std::uniform_int_distribution<int>(0, 9)(rng);
        if (what < 6) {
            const std::vector<Vec3> v = randomPolygon();
            (step % 2 ? a : b).add({step}, v);
            (step % 2 ? expectedA : expectedB).push_back({step, v});
        } else if (what < 8 && !b.empty()) {
            const size_t i = std::uniform_int_distribution<size_t>(0, b.size() - 1)(rng);
            a.appendRange(b, i, 1);
            a[a.size() - 1].tag = -step;
            expectedA.push_back({-step, expectedB[i].second});
        } else if (what == 8) {
            const size_t first = std::uniform_int_distribution<size_t>(0, b.size())(rng);
            const size_t count = std::uniform_int_distribution<size_t>(0, b.size() - first)(rng);
            a.appendRange(b, first, count);
            expectedA.insert(expectedA.end(), expectedB.begin() + std::ptrdiff_t(first),
                             expectedB.begin() + std::ptrdiff_t(first + count));
        } else if (what == 9) {
            a.append(b);
            expectedA.insert(expectedA.end(), expectedB.begin(), expectedB.end());
        }
    }
    expectSame(a, expectedA);
    expectSame(b, expectedB);
    const FlatPolygons<TaggedPolygon> copy = a;
    a.clear();
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.vertexTotal(), 0u);
    expectSame(copy, expectedA);
}

TEST(ConvexPolyhedron, SplitPreservesVolume) {
    Rng rng(8);
    for (int i = 0; i < 300; ++i) {
        const ConvexPolyhedron box = boxPolyhedron({Vec3(-10, -20, -30), Vec3(40, 50, 60)}, -1);
        const Plane cut{randomUnit(rng), uniform(rng, -20, 20)};
        const SplitPolyhedron s = split(box, cut, 7, kOnPlaneEpsilon);
        EXPECT_NEAR(s.front.volume() + s.back.volume(), 50.0 * 70 * 90, 1e-6 * 50 * 70 * 90);
    }
}

TEST(LeafInteriorPoint, ChebyshevCentreOfBoxAndSliver) {
    // A box: the centre, clearance half the smallest side.
    const ConvexPolyhedron box = boxPolyhedron({Vec3(0, 0, 0), Vec3(100, 10, 40)}, -1);
    const InteriorPoint c = leafInteriorPoint(box);
    EXPECT_NEAR(c.clearance, 5.0, 1e-9);
    EXPECT_NEAR(c.point.y(), 5.0, 1e-9);
    // A sliver wedge: centroid of the vertices sits near the thin edge; the Chebyshev
    // centre has the largest clearance any point can have.
    std::vector<Plane> wedge{{Vec3::UnitX(), 1000}, {-Vec3::UnitX(), 0}, {Vec3::UnitY(), 100},
                             {-Vec3::UnitY(), 0}, {-Vec3::UnitZ(), 0},
                             {Vec3(-0.001, 0, 1).normalized(), 0}}; // z <= 0.001 x
    // Add a tiny cap so the vertex average is pulled to the thin end.
    const ConvexPolyhedron cell = intersectHalfSpaces(wedge, 2000).polyhedron;
    const InteriorPoint p = leafInteriorPoint(cell);
    EXPECT_GT(p.clearance, 0.3); // the wedge is 1 thick at x = 1000: about 0.5 at best
    EXPECT_LE(p.clearance, 0.5 + 1e-9);
    EXPECT_GE(p.clearance, cell.clearance(cell.vertexCentroid()));
}

TEST(LeafInteriorPoint, RandomCellsGetPointsStrictlyInside) {
    Rng rng(12);
    for (int i = 0; i < 500; ++i) {
        const Brush b = randomBrush(rng, Vec3::Zero(), uniform(rng, 1, 50), BrushShape(i % 5));
        const auto g = buildBrushGeometry(b, defaultWorldBounds()).geometry;
        ASSERT_TRUE(g);
        const InteriorPoint p = leafInteriorPoint(g->hull);
        EXPECT_GT(p.clearance, 0.0);
        EXPECT_NEAR(g->hull.clearance(p.point), p.clearance, 1e-9);
    }
}

// The sections the 2D views draw (geometry/axis_section.h) against an independent
// construction: the plane's square clipped by every face plane of the polyhedron.
#include "geometry/axis_section.h"
#include "geometry/tolerances.h"
#include "random_world.h"
#include "world/brush_geometry.h"

#include <gtest/gtest.h>

namespace shallot {
namespace {

// The section by clipping: a large square on the plane cut by each face plane.
Polygon clippedSection(const ConvexPolyhedron& cell, int axis, double at) {
    Polygon p = baseWinding(Plane{Vec3::Unit(axis), at}, 4096.0);
    for (const ConvexFace& f : cell.faces) p = clip(p, f.plane, kHullClipEpsilon);
    return p;
}

TEST(AxisSection, RandomBrushSectionsAreTheClippedPlane) {
    test::Rng rng(29);
    int crossed = 0;
    for (int i = 0; i < 3000; ++i) {
        const auto shape = test::BrushShape(rng() % 5);
        const Brush brush = test::randomBrush(rng, Vec3(test::uniform(rng, -200, 200), test::uniform(rng, -200, 200), 0), 100, shape);
        const BrushGeometryResult g = buildBrushGeometry(brush, defaultWorldBounds());
        ASSERT_TRUE(g.geometry);
        const ConvexPolyhedron& hull = g.geometry->hull;
        const int axis = int(rng() % 3);
        const Aabb box = hull.bounds();
        const double at = test::uniform(rng, box.mins[axis] - 20, box.maxs[axis] + 20);
        const Polygon section = axisSection(hull, axis, at);
        const Polygon expected = clippedSection(hull, axis, at);
        const double area = expected.empty() ? 0.0 : expected.area();
        if (section.empty()) {
            // Only a sliver of the plane, if anything, lies in the brush.
            EXPECT_LT(area, 1e-3) << "brush " << i;
            continue;
        }
        ++crossed;
        EXPECT_NEAR(section.area(), area, 1e-6 * std::max(1.0, area)) << "brush " << i;
        for (const Vec3& v : section.vertices) {
            EXPECT_EQ(v[axis], at);
            EXPECT_GT(hull.clearance(v), -1e-6);
        }
        // Counter-clockwise seen from +axis: the normal of the polygon points along it.
        Vec3 n = Vec3::Zero();
        for (size_t k = 0; k < section.vertices.size(); ++k)
            n += section.vertices[k].cross(section.vertices[(k + 1) % section.vertices.size()]);
        EXPECT_GT(n[axis], 0.0);
    }
    EXPECT_GT(crossed, 1500);
}

// Seen from above, a cell resting on the plane shows the face lying in it (counter-
// clockwise seen from +axis), one hanging below it nothing, one across it its section.
TEST(AxisSection, FromAboveARestingCellShowsItsFaceInThePlane) {
    test::Rng rng(37);
    for (int i = 0; i < 200; ++i) {
        const Vec3 lo(std::round(test::uniform(rng, -300, 300)), std::round(test::uniform(rng, -300, 300)),
                      std::round(test::uniform(rng, -300, 300)));
        const Vec3 size(std::round(test::uniform(rng, 1, 100)), std::round(test::uniform(rng, 1, 100)),
                        std::round(test::uniform(rng, 1, 100)));
        const BrushGeometryResult g = buildBrushGeometry(Brush::box(lo, lo + size), defaultWorldBounds());
        ASSERT_TRUE(g.geometry);
        const ConvexPolyhedron& hull = g.geometry->hull;
        const int axis = int(rng() % 3), u = (axis + 1) % 3, v = (axis + 2) % 3;
        const Polygon resting = axisSectionFromAbove(hull, axis, lo[axis]);
        ASSERT_EQ(resting.vertices.size(), 4u) << "box " << i;
        EXPECT_NEAR(resting.area(), size[u] * size[v], 1e-9);
        Vec3 n = Vec3::Zero();
        for (size_t k = 0; k < 4; ++k) {
            EXPECT_EQ(resting.vertices[k][axis], lo[axis]);
            n += resting.vertices[k].cross(resting.vertices[(k + 1) % 4]);
        }
        EXPECT_GT(n[axis], 0.0);
        EXPECT_TRUE(axisSection(hull, axis, lo[axis]).empty()); // touching is not crossing
        EXPECT_TRUE(axisSectionFromAbove(hull, axis, lo[axis] + size[axis]).empty());
        const double across = lo[axis] + 0.5 * size[axis];
        EXPECT_EQ(axisSectionFromAbove(hull, axis, across).vertices, axisSection(hull, axis, across).vertices);
    }
}

TEST(AxisSection, PolygonCrossingsAreSegmentsOnThePlane) {
    // A square in the plane y = 5 from x 0..10, z 0..10.
    const std::vector<Vec3> square{{0, 5, 0}, {10, 5, 0}, {10, 5, 10}, {0, 5, 10}};
    const auto cut = axisSection(square, 2, 4.0);
    ASSERT_TRUE(cut);
    EXPECT_EQ(cut->first, Vec3(0, 5, 4));
    EXPECT_EQ(cut->second, Vec3(10, 5, 4));
    EXPECT_FALSE(axisSection(square, 2, 12.0));  // above it
    EXPECT_FALSE(axisSection(square, 1, 5.0));   // lying in the plane
    // An edge lying in the plane is the segment.
    const auto edge = axisSection(square, 0, 10.0);
    ASSERT_TRUE(edge);
    EXPECT_EQ(edge->first, Vec3(10, 5, 0));
    EXPECT_EQ(edge->second, Vec3(10, 5, 10));
    // Touching at a corner only is no crossing.
    const std::vector<Vec3> triangle{{0, 0, 0}, {10, 0, 5}, {0, 0, 10}};
    EXPECT_FALSE(axisSection(triangle, 0, 10.0));
    // Through a vertex and the opposite edge.
    const auto through = axisSection(triangle, 2, 5.0);
    ASSERT_TRUE(through);
    EXPECT_EQ(through->first, Vec3(0, 0, 5));
    EXPECT_EQ(through->second, Vec3(10, 0, 5));
}

} // namespace
} // namespace shallot

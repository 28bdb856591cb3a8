// classifyBuildPolygon answers from a polygon's bounds where it can; it must give
// classify's answer every time, at the epsilon's edge too, or the trees change.
#include "compile/bsp_partition.h"
#include "geometry/tolerances.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// A convex polygon: a random brush's face, at a random place in a map-sized world, or a
// face of a small box on the integer grid (its vertices at 0 put a distance exactly on the
// epsilon below).
Polygon randomFace(Rng& rng) {
    Brush brush;
    if (rng() % 4 == 0) {
        const Vec3 lo(double(int(rng() % 5) - 4), double(int(rng() % 5) - 4), double(int(rng() % 5) - 4));
        brush = Brush::box(lo, lo + Vec3(double(1 + rng() % 4), double(1 + rng() % 4), double(1 + rng() % 4)));
    } else {
        const Vec3 centre(uniform(rng, -60000, 60000), uniform(rng, -60000, 60000), uniform(rng, -60000, 60000));
        brush = randomBrush(rng, centre, uniform(rng, 0.5, 512), BrushShape(rng() % 5));
    }
    const std::optional<BrushGeometry> g = buildBrushGeometry(brush, defaultWorldBounds()).geometry;
    if (!g || g->hull.faces.empty()) return {};
    return g->hull.faces[rng() % g->hull.faces.size()].polygon;
}

// Distances on the edge of the epsilon: a vertex's coordinate, and that shifted by about
// kOnPlaneEpsilon, one rounding step either way.
double planeDistanceNear(Rng& rng, double coordinate) {
    const double shifts[] = {0.0, kOnPlaneEpsilon, -kOnPlaneEpsilon, uniform(rng, -1, 1)};
    double d = coordinate + shifts[rng() % 4];
    const int steps = int(rng() % 3) - 1;
    if (steps != 0) d = std::nextafter(d, steps > 0 ? INFINITY : -INFINITY);
    return d;
}

} // namespace

TEST(BspPartition, ClassifyingFromBoundsAgreesWithEveryVertex) {
    Rng rng(17);
    size_t compared = 0, sides[4] = {};
    for (int i = 0; i < 4000; ++i) {
        const Polygon polygon = randomFace(rng);
        if (polygon.empty()) continue;
        const BuildPolygon p = makeBuildPolygon(polygon, 0, 0, 0);
        for (int k = 0; k < 24; ++k) {
            const Vec3& v = polygon.vertices[rng() % polygon.vertices.size()];
            Plane plane;
            if (k % 3 != 2) {
                // Axial, either way round.
                const int axis = int(rng() % 3);
                const double sign = rng() % 2 ? 1.0 : -1.0;
                plane.normal = sign * Vec3::Unit(axis);
                plane.dist = planeDistanceNear(rng, sign * v[axis]);
                ASSERT_EQ(plane.axis(), axis);
            } else {
                // Slanted, through or near the polygon.
                plane.normal = randomUnit(rng);
                plane.dist = planeDistanceNear(rng, plane.normal.dot(v));
            }
            const Side expected = classify(polygon, plane, kOnPlaneEpsilon);
            ASSERT_EQ(classifyBuildPolygon(p, plane), expected)
                << "polygon " << i << ", plane " << plane.normal.transpose() << " " << plane.dist;
            ++compared;
            ++sides[int(expected)];
        }
    }
    EXPECT_GT(compared, 60000u);
    // Every answer came up many times, so the edges were all crossed.
    for (size_t s : sides) EXPECT_GT(s, 1000u);
}

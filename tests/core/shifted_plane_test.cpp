// Quake 3's moved planes for round poses (query/shifted_plane_shape.h) against the exact
// tests and brute force, and the comparison over a level (query/shifted_plane_comparison.h).
#include "query/round_shape_overlap.h"
#include "query/round_shape_trace.h"
#include "query/shifted_plane_comparison.h"
#include "query/shifted_plane_shape.h"
#include "random_world.h"
#include "round_brute_force.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace shallot;
using namespace shallot::test;

namespace {

BrushGeometry geometryOf(const Brush& brush) {
    BrushGeometryResult built = buildBrushGeometry(brush, defaultWorldBounds());
    EXPECT_TRUE(built.geometry.has_value()) << built.error;
    return built.geometry ? *built.geometry : BrushGeometry{};
}

} // namespace

TEST(ShiftedPlanes, ReachIsTheShapesSupport) {
    Rng rng(7);
    for (int i = 0; i < 500; ++i) {
        const PoseShape shape = rng() % 2 ? PoseShape::capsule(uniform(rng, 1, 30), uniform(rng, 60, 120))
                                          : PoseShape::ellipsoid(uniform(rng, 1, 30), uniform(rng, 1, 40));
        const Vec3 n = randomUnit(rng);
        EXPECT_NEAR(roundShapeReach(shape, n), shapeSupport(shape, n), 1e-9);
    }
}

// The moved planes bound a superset of the brush grown by the shape: wherever the exact
// shape overlaps a brush, they hold it; and they are exact in front of a face's middle.
TEST(ShiftedPlanes, HoldEveryOverlapAndAreExactOverFaces) {
    Rng rng(11);
    int overlaps = 0, refusedWhereItFits = 0;
    for (int b = 0; b < 60; ++b) {
        const Brush brush = randomBrush(rng, Vec3::Zero(), 48, BrushShape(rng() % 3));
        const BrushGeometry geometry = geometryOf(brush);
        const PoseShape shape = rng() % 2 ? PoseShape::capsule(uniform(rng, 4, 24), uniform(rng, 50, 100))
                                          : PoseShape::ellipsoid(uniform(rng, 4, 24), uniform(rng, 4, 40));
        const ShiftedPlaneBrush shifted = shiftPlanes(geometry, shape);
        for (int i = 0; i < 200; ++i) {
            const Vec3 p(uniform(rng, -120, 120), uniform(rng, -120, 120), uniform(rng, -140, 140));
            const double clearance = bruteClearance(geometry, shape, p);
            const double depth = shiftedPlaneDepth(shifted, p);
            if (clearance < -1e-6) {
                ++overlaps;
                EXPECT_GT(depth, 0.0) << "an overlap the moved planes let go at " << p.transpose();
            } else if (clearance > 1e-6 && depth > 0) {
                ++refusedWhereItFits;
            }
        }
        // Just off the middle of each face along its normal: exact there.
        for (const ConvexFace& face : geometry.hull.faces) {
            Vec3 middle = Vec3::Zero();
            for (const Vec3& v : face.polygon.vertices) middle += v;
            middle /= double(face.polygon.vertices.size());
            const double reach = roundShapeReach(shape, face.plane.normal);
            const Vec3 out = middle + (reach + 1e-3) * face.plane.normal;
            if (bruteClearance(geometry, shape, out) > 0) {
                EXPECT_LT(shiftedPlaneDepth(shifted, out), 0.0);
            }
        }
    }
    EXPECT_GT(overlaps, 500);
    EXPECT_GT(refusedWhereItFits, 0) << "the moved planes never over-covered an edge";
}

// Beside a right-angled vertical edge the moved planes reach r (sqrt 2 - 1) beyond the
// capsule's exact limit along the diagonal; a slanted edge gets an edge bevel.
TEST(ShiftedPlanes, OverCoverAtARightAngleAndBevelSlantedEdges) {
    const double r = 16;
    const PoseShape capsule = PoseShape::capsule(r, 56);
    const BrushGeometry box = geometryOf(Brush::box(Vec3(-64, -64, -64), Vec3(0, 0, 64)));
    const ShiftedPlaneBrush shifted = shiftPlanes(box, capsule);
    EXPECT_EQ(shifted.faceCount, 6);
    EXPECT_EQ(shifted.planes.size(), 6u) << "an axial box needs no bevel";
    const Vec3 diagonal = Vec3(1, 1, 0).normalized();
    const double exactLimit = r, planeLimit = r * std::sqrt(2.0);
    EXPECT_GT(shiftedPlaneDepth(shifted, (exactLimit + 0.01) * diagonal), 0.0);
    EXPECT_GT(shiftedPlaneDepth(shifted, (planeLimit - 0.01) * diagonal), 0.0);
    EXPECT_LT(shiftedPlaneDepth(shifted, (planeLimit + 0.01) * diagonal), 0.0);
    EXPECT_NEAR(planeLimit - exactLimit, 0.41 * r, 0.01 * r);

    // A turned box: the edges of its outline seen along an axis get bevels (not axial).
    Rng rng(5);
    const Brush turned = randomBrush(rng, Vec3::Zero(), 48, BrushShape::RotatedBox);
    const BrushGeometry turnedGeometry = geometryOf(turned);
    const ShiftedPlaneBrush bevelled = shiftPlanes(turnedGeometry, capsule);
    int edgeBevels = 0;
    for (size_t i = size_t(bevelled.faceCount); i < bevelled.planes.size(); ++i)
        edgeBevels += bevelled.planes[i].axis() < 0;
    EXPECT_GT(edgeBevels, 0);
    // Every bevel has the whole brush behind it before it was moved.
    for (size_t i = size_t(bevelled.faceCount); i < bevelled.planes.size(); ++i) {
        Plane unmoved = bevelled.planes[i];
        unmoved.dist -= roundShapeReach(capsule, unmoved.normal);
        for (const Vec3& v : turnedGeometry.vertices) EXPECT_LE(unmoved.signedDistance(v), kBevelVertexTolerance);
    }
}

// A room and a block: the comparison finds places beside the block's edges and resting on
// its rim that the moved planes refuse, never lets an overlap go, and adds up.
TEST(ShiftedPlaneComparison, FindsRefusalsBesideEdgesAndOnLedges) {
    World world;
    world.brushes.push_back(Brush::box(Vec3(-256, -256, -16), Vec3(256, 256, 0)));
    world.brushes.push_back(Brush::box(Vec3(-32, -32, 0), Vec3(32, 32, 48)));
    const Pose cap = Pose::round("cap", PoseShape::capsule(15, 56));
    ShiftedPlaneComparisonSettings settings;
    settings.samples = 20000;
    const ShiftedPlaneComparison a = compareShiftedPlanes(world, cap, settings);
    EXPECT_EQ(a.blockingBrushes, 2);
    EXPECT_EQ(a.supersetViolations, 0);
    EXPECT_GT(a.beside.places, 100);
    EXPECT_GT(a.beside.refused, 0);
    EXPECT_LE(a.beside.refused, a.beside.places);
    EXPECT_GT(a.resting.places, 100);
    EXPECT_GT(a.resting.refused, 0) << "the block's rim: the round bottom sits lower than the planes allow";
    // In an axial world the worst over-coverage is at a corner: r (sqrt 3 - 1).
    EXPECT_LE(std::max(a.beside.maxDepth, a.resting.maxDepth), 15 * (std::sqrt(3.0) - 1) + 1e-6);
    // Refused beside a brush with room to spare, at most the corner's over-coverage.
    EXPECT_GT(a.beside.maxRoom, 0.0);
    EXPECT_LE(a.beside.maxRoom, 15 * (std::sqrt(3.0) - 1) + 1e-6);
    EXPECT_EQ(a.resting.maxRoom, 0.0);
    EXPECT_EQ(int(a.refusals.size()), a.beside.refused + a.resting.refused);
    for (const ShiftedPlaneRefusal& refusal : a.refusals) {
        EXPECT_GT(refusal.depth, 0.0);
    }
    // Deterministic for a seed.
    const ShiftedPlaneComparison b = compareShiftedPlanes(world, cap, settings);
    EXPECT_EQ(a.beside.refused, b.beside.refused);
    EXPECT_EQ(a.resting.places, b.resting.places);
    // A box pose is refused with a reason.
    EXPECT_THROW(compareShiftedPlanes(world, Pose{"box", Vec3(-16, -16, -24), Vec3(16, 16, 32)}), std::invalid_argument);
}

TEST(ShiftedPlaneComparison, IdE1m1NeverLetsAnOverlapGo) {
    const World world = loadMap(std::string(SHALLOT_SHARED_MAPS) + "/id_e1m1.map");
    ASSERT_FALSE(world.brushes.empty());
    ShiftedPlaneComparisonSettings settings;
    settings.samples = 20000;
    const ShiftedPlaneComparison c = compareShiftedPlanes(world, Pose::round("q3", PoseShape::capsule(15, 56)), settings);
    EXPECT_EQ(c.supersetViolations, 0);
    EXPECT_GT(c.beside.places, 500);
    EXPECT_GT(c.beside.refused, 0);
    EXPECT_GT(c.resting.places, 500);
}

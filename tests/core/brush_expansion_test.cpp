#include "compile/brush_expansion.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// Support distances of the expanded brush and of the exact Minkowski sum may differ by
// rounding only.
constexpr double kSupportMatch = 1e-6;

std::vector<Vec3> minkowskiPoints(const BrushGeometry& g, const Pose& pose) {
    std::vector<Vec3> pts;
    for (const Vec3& v : g.vertices)
        for (int c = 0; c < 8; ++c) {
            const Vec3 corner((c & 1) ? pose.maxs.x() : pose.mins.x(), (c & 2) ? pose.maxs.y() : pose.mins.y(),
                              (c & 4) ? pose.maxs.z() : pose.mins.z());
            pts.push_back(v - corner);
        }
    return pts;
}

double support(const std::vector<Vec3>& pts, const Vec3& n) {
    double best = -INFINITY;
    for (const Vec3& p : pts) best = std::max(best, n.dot(p));
    return best;
}

// Two convex bodies are equal iff their support functions agree in every direction. The
// facet normals of brush + box are among the brush face normals, the axes and brush
// edge x axis, so checking those (unfiltered) and random directions proves exactness.
void expectExactExpansion(const Brush& brush, const Pose& pose, Rng& rng) {
    const BrushGeometryResult g = buildBrushGeometry(brush, defaultWorldBounds());
    ASSERT_TRUE(g.geometry) << g.error;
    const ConvexPolyhedron e = expandBrush(*g.geometry, pose, kDefaultWorldExtent);
    ASSERT_FALSE(e.empty());
    std::vector<Vec3> expandedVertices;
    for (const ConvexFace& f : e.faces)
        for (const Vec3& v : f.polygon.vertices) expandedVertices.push_back(v);
    const std::vector<Vec3> exact = minkowskiPoints(*g.geometry, pose);

    std::vector<Vec3> directions;
    for (const ConvexFace& f : g.geometry->hull.faces) directions.push_back(f.plane.normal);
    for (int a = 0; a < 3; ++a) {
        directions.push_back(Vec3::Unit(a));
        directions.push_back(-Vec3::Unit(a));
        for (const auto& [p, q] : g.geometry->edges) {
            const Vec3 n = (q - p).cross(Vec3::Unit(a));
            if (n.norm() < 1e-9) continue;
            directions.push_back(n.normalized());
            directions.push_back(-n.normalized());
        }
    }
    for (int i = 0; i < 200; ++i) directions.push_back(randomUnit(rng));
    const double scale = std::max(1.0, g.geometry->bounds.maxs.cwiseAbs().maxCoeff());
    for (const Vec3& n : directions)
        EXPECT_NEAR(support(expandedVertices, n), support(exact, n), kSupportMatch * scale) << n.transpose();
}

} // namespace

TEST(BrushExpansion, BoxGrowsByPoseBox) {
    const Pose pose{"player", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0};
    const BrushGeometryResult g = buildBrushGeometry(Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64)), defaultWorldBounds());
    ASSERT_TRUE(g.geometry);
    const Aabb b = expandBrush(*g.geometry, pose, kDefaultWorldExtent).bounds();
    EXPECT_EQ(b.mins, Vec3(-16, -16, -32));
    EXPECT_EQ(b.maxs, Vec3(80, 80, 88));
}

TEST(BrushExpansion, ExactAgainstMinkowskiHullOnRandomBrushes) {
    Rng rng(7);
    for (int i = 0; i < 300; ++i) {
        const Brush b = randomBrush(rng, Vec3(uniform(rng, -500, 500), 0, 0), uniform(rng, 4, 100), BrushShape(i % 5));
        const Pose pose = randomPose(rng, "p");
        SCOPED_TRACE(i);
        expectExactExpansion(b, pose, rng);
    }
}

TEST(BrushExpansion, PointInExpandedBrushMatchesBoxOverlap) {
    Rng rng(11);
    int checked = 0;
    for (int i = 0; i < 200; ++i) {
        const Brush b = randomBrush(rng, Vec3::Zero(), uniform(rng, 4, 60), BrushShape(i % 5));
        const Pose pose = randomPose(rng, "p");
        const BrushGeometryResult g = buildBrushGeometry(b, defaultWorldBounds());
        ASSERT_TRUE(g.geometry);
        const std::vector<Plane> planes = expandedPlanes(*g.geometry, pose);
        for (int k = 0; k < 50; ++k) {
            const Vec3 p(uniform(rng, -150, 150), uniform(rng, -150, 150), uniform(rng, -150, 150));
            double d = -INFINITY;
            for (const Plane& pl : planes) d = std::max(d, pl.signedDistance(p));
            if (std::abs(d) < 0.01) continue;
            EXPECT_EQ(d < 0, boxOverlapsBrush(*g.geometry, pose, p)) << "brush " << i << " point " << p.transpose();
            ++checked;
        }
    }
    EXPECT_GT(checked, 9000);
}

TEST(BrushGeometry, RejectsInvalidBrushes) {
    const Aabb world = defaultWorldBounds();
    // Three planes: unbounded.
    EXPECT_FALSE(buildBrushGeometry(Brush::fromPlanes({{Vec3::UnitX(), 1}, {Vec3::UnitY(), 1}, {Vec3::UnitZ(), 1}}), world).geometry);
    // Opposing half-spaces that do not meet: empty.
    Brush empty = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    empty.sides.push_back({{Vec3::UnitX(), -5}, {}, false, {}, {}, 0});
    const BrushGeometryResult e = buildBrushGeometry(empty, world);
    EXPECT_FALSE(e.geometry);
    EXPECT_NE(e.error.find("empty"), std::string::npos) << e.error;
    // NaN.
    Brush nan = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    nan.sides[0].plane.dist = std::nan("");
    EXPECT_FALSE(buildBrushGeometry(nan, world).geometry);
    // Beyond the world.
    const BrushGeometryResult far = buildBrushGeometry(Brush::box(Vec3::Constant(70000), Vec3::Constant(70010)), world);
    EXPECT_FALSE(far.geometry);
    EXPECT_NE(far.error.find("world bounds"), std::string::npos) << far.error;
    // A valid box with a duplicated and a redundant plane is fine.
    Brush ok = Brush::box(Vec3::Zero(), Vec3::Constant(10));
    ok.sides.push_back(ok.sides[0]);
    ok.sides.push_back({{Vec3(1, 1, 0).normalized(), 100}, {}, false, {}, {}, 0});
    const BrushGeometryResult g = buildBrushGeometry(ok, world);
    ASSERT_TRUE(g.geometry) << g.error;
    EXPECT_EQ(g.geometry->hull.faces.size(), 6u);
    EXPECT_EQ(g.geometry->vertices.size(), 8u);
    EXPECT_EQ(g.geometry->edges.size(), 12u);
}

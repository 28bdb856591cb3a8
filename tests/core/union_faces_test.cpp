// The union faces of expanded brushes against brute force: random points on every face,
// each in exactly one of its brush's pieces when no other brush covers it and in none
// when one does; and a face that no neighbour reaches stays whole.
#include "compile/brush_expansion.h"
#include "compile/compile_state.h"
#include "compile/union_faces.h"
#include "geometry/tolerances.h"
#include "random_world.h"

#include <gtest/gtest.h>
#include <limits>

using namespace shallot;
using namespace shallot::test;

namespace {

// Samples closer than this to another brush's boundary or to a piece's edge could go
// either way (pieces are cut with kOnPlaneEpsilon): the check leaves them out.
constexpr double kSampleMargin = 10 * kOnPlaneEpsilon;

struct ExpandedWorld {
    PlanePool pool;
    std::vector<ExpandedBrush> brushes;
};

ExpandedWorld expand(const std::vector<Brush>& brushes, const Pose& pose) {
    ExpandedWorld w{PlanePool(kDefaultWorldExtent), {}};
    const Aabb world{Vec3::Constant(-kDefaultWorldExtent), Vec3::Constant(kDefaultWorldExtent)};
    for (size_t i = 0; i < brushes.size(); ++i) {
        const BrushGeometryResult g = buildBrushGeometry(brushes[i], world);
        if (!g.geometry) continue;
        w.brushes.push_back(makeExpandedBrush(int32_t(i), expandBrush(*g.geometry, pose, kDefaultWorldExtent), w.pool));
    }
    return w;
}

std::vector<std::vector<UnionFace>> unionFaces(const ExpandedWorld& w) {
    const std::vector<std::vector<int32_t>> neighbours = overlappingBrushes(w.brushes);
    std::vector<std::vector<UnionFace>> faces(w.brushes.size());
    for (size_t i = 0; i < w.brushes.size(); ++i) {
        std::vector<const ExpandedBrush*> others;
        for (int32_t k : neighbours[i]) others.push_back(&w.brushes[size_t(k)]);
        unionFacesOf(w.brushes[i], others, w.pool, faces[i]);
    }
    return faces;
}

// Smallest distance from p (on the polygon's plane) to the polygon's edge lines: positive
// inside the polygon.
double depthInside(const Polygon& polygon, const Vec3& normal, const Vec3& p) {
    double depth = std::numeric_limits<double>::infinity();
    const auto& v = polygon.vertices;
    for (size_t i = 0; i < v.size(); ++i) {
        const Vec3 edge = v[(i + 1) % v.size()] - v[i];
        const Vec3 inward = normal.cross(edge).normalized();
        depth = std::min(depth, inward.dot(p - v[i]));
    }
    return depth;
}

TEST(UnionFaces, EveryFacePointIsInOnePieceExactlyWhenNoOtherBrushCoversIt) {
    Rng rng(41);
    size_t covered = 0, exposed = 0;
    for (int world = 0; world < 12; ++world) {
        std::vector<Brush> brushes;
        for (int i = 0; i < 24; ++i) {
            const Vec3 centre(uniform(rng, -60, 60), uniform(rng, -60, 60), uniform(rng, -60, 60));
            brushes.push_back(randomBrush(rng, centre, uniform(rng, 8, 48), BrushShape(rng() % 5)));
        }
        const Pose pose = world % 3 == 0 ? Pose{"point", Vec3::Zero(), Vec3::Zero()} : randomPose(rng, "box");
        const ExpandedWorld w = expand(brushes, pose);
        const std::vector<std::vector<UnionFace>> faces = unionFaces(w);
        for (size_t i = 0; i < w.brushes.size(); ++i) {
            const ExpandedBrush& b = w.brushes[i];
            for (size_t f = 0; f < b.hull.faces.size(); ++f) {
                const Vec3& normal = b.hull.faces[f].plane.normal;
                for (int s = 0; s < 40; ++s) {
                    const Vec3 p = randomPointIn(rng, b.hull.faces[f].polygon);
                    double otherDepth = -std::numeric_limits<double>::infinity();
                    for (size_t k = 0; k < w.brushes.size(); ++k)
                        if (k != i) otherDepth = std::max(otherDepth, w.brushes[k].hull.clearance(p));
                    if (std::abs(otherDepth) < kSampleMargin) continue; // on another brush's boundary
                    size_t surely = 0, maybe = 0;
                    for (const UnionFace& piece : faces[i]) {
                        if (piece.plane != b.planes[f]) continue;
                        const double depth = depthInside(piece.polygon, normal, p);
                        surely += depth > kSampleMargin;
                        maybe += depth > -kSampleMargin;
                    }
                    if (otherDepth > 0) {
                        ++covered;
                        EXPECT_EQ(maybe, 0u) << "brush " << i << " face " << f << ": a covered point kept";
                    } else {
                        ++exposed;
                        EXPECT_LE(surely, 1u) << "brush " << i << " face " << f << ": pieces overlap";
                        EXPECT_GE(maybe, 1u) << "brush " << i << " face " << f << ": an exposed point lost";
                    }
                }
            }
        }
    }
    // Both kinds of point are checked often enough to matter.
    EXPECT_GT(covered, 5000u);
    EXPECT_GT(exposed, 5000u);
}

// Brush 1 sits above the top face of brush 0 without touching it: its box overlaps the
// face's box, and planes of it cross the face. The face must stay one piece. (Cutting it
// at those planes before finding that brush 1 is elsewhere multiplied the faces of id_e1m1
// by 1.5 to 2 and of a terrain map by 10.)
TEST(UnionFaces, AFaceNoNeighbourReachesStaysWhole) {
    const Brush box = Brush::fromPlanes({{Vec3::UnitX(), 100}, {-Vec3::UnitX(), 0}, {Vec3::UnitY(), 100},
                                         {-Vec3::UnitY(), 0}, {Vec3::UnitZ(), 100}, {-Vec3::UnitZ(), 0}});
    // x + z >= 205, 90 <= z <= 150, x <= 160, 20 <= y <= 80: where z <= 100, x >= 105.
    const Vec3 slope = Vec3(1, 0, 1).normalized();
    const Brush wedge = Brush::fromPlanes({{-Vec3::UnitY(), -20}, {Vec3::UnitY(), 80}, {-Vec3::UnitZ(), -90},
                                           {Vec3::UnitZ(), 150}, {Vec3::UnitX(), 160}, {-slope, -205 / std::sqrt(2.0)}});
    const ExpandedWorld w = expand({box, wedge}, Pose{"point", Vec3::Zero(), Vec3::Zero()});
    ASSERT_EQ(w.brushes.size(), 2u);
    ASSERT_TRUE(brushesMayTouch(w.brushes[0], w.brushes[1]));
    const std::vector<std::vector<UnionFace>> faces = unionFaces(w);
    EXPECT_EQ(faces[0].size(), 6u); // every face of the box whole
    EXPECT_EQ(faces[1].size(), w.brushes[1].hull.faces.size());
}

} // namespace

// The tessellated expanded brush of a round pose (query/round_expanded_surface.h) against
// brute force: its vertices on the exact surface (the shape placed there touches the brush:
// brute clearance from the brush's vertices alone, round_brute_force.h), its triangles'
// insides no deeper than the stated sag, closed (every edge shared by two triangles in
// opposite directions) and facing out.
#include "edit/brush_operations.h"
#include "query/round_expanded_surface.h"
#include "query/round_expanded_world.h"
#include "query/round_shape_overlap.h"
#include "random_world.h"
#include "round_brute_force.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <tuple>

using namespace shallot;
using namespace shallot::test;

namespace {

// Brute clearance (shape space) of a vertex of the tessellation: rounding of the vertex,
// the hull distance and the mapping to and from shape space, relative to the brush's size.
constexpr double kOnSurfaceTolerance = 1e-7;
// A step out along the surface's normal (world units) clears the brush.
constexpr double kNormalProbe = 1e-3;
// Positions this close (world, relative to the size) are one vertex when checking closure.
constexpr double kWeldGrid = 1e-6;

PoseShape randomShape(Rng& rng) {
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

double exactClearance(const BrushGeometry& g, const PoseShape& s, const Vec3& p) {
    const RoundShapeFrame frame = RoundShapeFrame::of(s);
    return roundShapeClearance(frame, RoundBrush::of(g, frame), frame.toShape(p));
}

} // namespace

TEST(RoundExpandedSurface, VerticesOnTheExactSurfaceTrianglesWithinTheSag) {
    Rng rng(4242);
    for (int trial = 0; trial < 120; ++trial) {
        const PoseShape shape = randomShape(rng);
        const BrushGeometry g = randomGeometry(rng);
        std::vector<RoundSurfaceVertex> mesh;
        appendRoundExpandedSurface(g, shape, kRoundSurfaceStep, mesh);
        SCOPED_TRACE(poseShapeText(shape) + " trial " + std::to_string(trial));
        ASSERT_GE(mesh.size(), 36u);
        ASSERT_EQ(mesh.size() % 3, 0u);
        const RoundShapeFrame frame = RoundShapeFrame::of(shape);
        const RoundBrush brush = RoundBrush::of(g, frame);
        const double size = std::max(1.0, g.bounds.maxs.cwiseAbs().maxCoeff() + g.bounds.mins.cwiseAbs().maxCoeff());
        const double tolerance = kOnSurfaceTolerance * size * frame.shapePerWorld;
        const double sag = frame.radius * (1.0 - std::cos(kRoundSurfaceStep));
        for (size_t i = 0; i < mesh.size(); ++i) {
            const RoundSurfaceVertex& v = mesh[i];
            const double exact = roundShapeClearance(frame, brush, frame.toShape(v.position));
            ASSERT_NEAR(exact, 0.0, tolerance) << "vertex " << i;
            if (i % 17 == 0) {
                ASSERT_NEAR(bruteClearance(g, shape, v.position), 0.0, tolerance) << "vertex " << i;
            }
            ASSERT_GT(exactClearance(g, shape, v.position + kNormalProbe * v.normal), 0.0) << "vertex " << i;
            ASSERT_NEAR(v.normal.norm(), 1.0, 1e-12);
        }
        for (size_t i = 0; i < mesh.size(); i += 3) {
            const Vec3 centre = (mesh[i].position + mesh[i + 1].position + mesh[i + 2].position) / 3.0;
            const double c = roundShapeClearance(frame, brush, frame.toShape(centre));
            ASSERT_LE(c, tolerance) << "triangle " << i / 3 << " bulges out";
            ASSERT_GE(c, -sag - tolerance) << "triangle " << i / 3 << " sags deeper than stated";
        }
    }
}

TEST(RoundExpandedSurface, ClosedAndFacingOut) {
    Rng rng(77);
    for (int trial = 0; trial < 150; ++trial) {
        const PoseShape shape = randomShape(rng);
        const BrushGeometry g = randomGeometry(rng);
        std::vector<RoundSurfaceVertex> mesh;
        appendRoundExpandedSurface(g, shape, kRoundSurfaceStep, mesh);
        SCOPED_TRACE(poseShapeText(shape) + " trial " + std::to_string(trial));
        const double grid = kWeldGrid * std::max(1.0, g.bounds.maxs.cwiseAbs().maxCoeff());
        auto key = [&](const Vec3& p) {
            return std::make_tuple(std::llround(p.x() / grid), std::llround(p.y() / grid), std::llround(p.z() / grid));
        };
        using Key = std::tuple<long long, long long, long long>;
        std::map<std::pair<Key, Key>, int> directed;
        double volume = 0.0;
        for (size_t i = 0; i < mesh.size(); i += 3) {
            for (int k = 0; k < 3; ++k) {
                const Key a = key(mesh[i + size_t(k)].position), b = key(mesh[i + size_t((k + 1) % 3)].position);
                if (a != b) ++directed[{a, b}];
            }
            const Vec3 &p = mesh[i].position, &q = mesh[i + 1].position, &r = mesh[i + 2].position;
            volume += p.dot(q.cross(r)) / 6.0; // signed: positive when every triangle faces out
        }
        for (const auto& [edge, count] : directed) {
            ASSERT_EQ(count, 1) << "an edge used twice in one direction";
            const auto back = directed.find({edge.second, edge.first});
            ASSERT_TRUE(back != directed.end()) << "an open edge";
        }
        // The surface holds the brush: its volume is more than the brush's.
        EXPECT_GT(volume, g.hull.volume());
    }
}

TEST(RoundExpandedSurface, ABoxAndASphereHaveTheirClosedFormArea) {
    // A cube of side a grown by a sphere of radius r: area 6 a^2 + 6 pi a r (12 quarter cylinders) + 4 pi r^2.
    const double a = 64.0, r = 16.0;
    const Brush b = Brush::box(Vec3::Constant(-a / 2), Vec3::Constant(a / 2));
    const BrushGeometry g = *buildBrushGeometry(b, defaultWorldBounds()).geometry;
    std::vector<RoundSurfaceVertex> mesh;
    appendRoundExpandedSurface(g, PoseShape::capsule(r, 2 * r), kRoundSurfaceStep, mesh);
    double area = 0.0;
    for (size_t i = 0; i < mesh.size(); i += 3)
        area += 0.5 * (mesh[i + 1].position - mesh[i].position).cross(mesh[i + 2].position - mesh[i].position).norm();
    const double pi = std::acos(-1.0);
    const double exact = 6 * a * a + 6 * pi * a * r + 4 * pi * r * r;
    // Chords are shorter than arcs: at most 1 - cos(step) short, and never long.
    EXPECT_LE(area, exact);
    EXPECT_GT(area, exact * std::cos(kRoundSurfaceStep));
    EXPECT_LT(mesh.size() / 3, 800u);
}

// After an edit, an update tessellates only the brushes that changed and gives what a
// fresh tessellation of the edited world gives; another shape tessellates every brush.
TEST(RoundExpandedSurface, UpdatesTessellateOnlyWhatChanged) {
    Rng rng(5);
    World world;
    world.bounds = defaultWorldBounds();
    for (int i = 0; i < 30; ++i)
        world.brushes.push_back(randomBrush(rng, Vec3(uniform(rng, -300, 300), uniform(rng, -300, 300), uniform(rng, -300, 300)),
                                            uniform(rng, 8, 64), BrushShape(rng() % 3)));
    world.brushes[3].contents = BrushContents::NonSolid; // blocks nothing: no surface
    const Pose cap = Pose::round("cap", PoseShape::capsule(16, 56));
    auto flat = [](const RoundExpandedWorld& w) {
        std::vector<RoundSurfaceVertex> out;
        for (const RoundSurfacePiece& p : w.pieces())
            if (p) out.insert(out.end(), p->begin(), p->end());
        return out;
    };
    auto same = [](const std::vector<RoundSurfaceVertex>& a, const std::vector<RoundSurfaceVertex>& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i].position != b[i].position || a[i].normal != b[i].normal) return false;
        return true;
    };
    RoundExpandedWorld kept;
    kept.update(world, cap);
    EXPECT_EQ(kept.tessellated(), world.brushes.size());
    EXPECT_TRUE(kept.pieces()[3]->empty());
    // Move one brush, remove another, add one.
    World edited = world;
    for (BrushSide& s : edited.brushes[7].sides) s.plane.dist += s.plane.normal.dot(Vec3(8, 0, 0));
    edited.brushes.erase(edited.brushes.begin() + 12);
    edited.brushes.push_back(randomBrush(rng, Vec3::Zero(), 32, BrushShape::Box));
    kept.update(edited, cap);
    EXPECT_EQ(kept.tessellated(), 2u); // the moved brush and the new one
    RoundExpandedWorld fresh;
    fresh.update(edited, cap);
    EXPECT_TRUE(same(flat(kept), flat(fresh)));
    // Each piece's box is its vertices' (kept or made), empty for no triangles.
    for (size_t b = 0; b < edited.brushes.size(); ++b) {
        Aabb box;
        for (const RoundSurfaceVertex& v : *kept.pieces()[b]) box.add(v.position);
        EXPECT_EQ(kept.bounds()[b].empty(), box.empty());
        if (!box.empty()) {
            EXPECT_TRUE(kept.bounds()[b].mins == box.mins && kept.bounds()[b].maxs == box.maxs) << b;
        }
    }
    // Another shape: every brush again.
    const Pose egg = Pose::round("cap", PoseShape::ellipsoid(16, 28));
    kept.update(edited, egg);
    EXPECT_EQ(kept.tessellated(), edited.brushes.size());
    RoundExpandedWorld freshEgg;
    freshEgg.update(edited, egg);
    EXPECT_TRUE(same(flat(kept), flat(freshEgg)));
    // A cancelled update changes nothing.
    CancelToken cancel;
    cancel.cancelled = true;
    EXPECT_THROW(kept.update(world, cap, 1, &cancel), CompileCancelled);
    EXPECT_TRUE(same(flat(kept), flat(freshEgg)));
}

// What is drawn of each brush (RoundExpandedWorld::shown) is its triangles less those whose
// three corners lie deeper than kHiddenDepthSags sags inside one other brush's grown copy,
// by brute force over every other brush (exact clearance, no box or plane prefilter); kept
// so after edits, equal to a fresh build's; and a triangle left out lies deeper than the
// covering brush's own drawn surface along the segment to any of its points (sampled).
TEST(RoundExpandedSurface, ShownLeavesOutOnlyTrianglesDeepInsideAnotherBrush) {
    for (const PoseShape& shape : {PoseShape::capsule(16, 56), PoseShape::ellipsoid(12, 30)}) {
        Rng rng(11);
        World world;
        world.bounds = defaultWorldBounds();
        // Brushes packed close, so that their grown copies overlap widely.
        for (int i = 0; i < 24; ++i)
            world.brushes.push_back(randomBrush(rng, Vec3(uniform(rng, -96, 96), uniform(rng, -96, 96), uniform(rng, -48, 48)),
                                                uniform(rng, 16, 64), BrushShape(rng() % 3)));
        const Pose pose = Pose::round("round", shape);
        const RoundShapeFrame frame = RoundShapeFrame::of(shape);
        const double depth = kHiddenDepthSags * frame.radius * (1.0 - std::cos(kRoundSurfaceStep));
        RoundExpandedWorld kept;
        kept.update(world, pose);
        auto check = [&](const World& w, const RoundExpandedWorld& surface) {
            std::vector<std::optional<RoundBrush>> brushes(w.brushes.size());
            for (size_t b = 0; b < w.brushes.size(); ++b)
                if (const BrushGeometryResult g = buildBrushGeometry(w.brushes[b], w.bounds); g.geometry && blocks(w.brushes[b], pose))
                    brushes[b] = RoundBrush::of(*g.geometry, frame);
            size_t hidden = 0, shown = 0;
            for (size_t a = 0; a < w.brushes.size(); ++a) {
                const std::vector<RoundSurfaceVertex>& whole = *surface.pieces()[a];
                const std::vector<RoundSurfaceVertex>& drawn = *surface.shown()[a];
                size_t next = 0; // drawn is whole with some triangles left out, in order
                for (size_t i = 0; i + 2 < whole.size(); i += 3) {
                    bool deep = false;
                    for (size_t b = 0; b < w.brushes.size() && !deep; ++b) {
                        if (b == a || !brushes[b]) continue;
                        deep = true;
                        for (size_t k = 0; k < 3; ++k)
                            deep = deep && roundShapeClearance(frame, *brushes[b], frame.toShape(whole[i + k].position)) < -depth;
                        // Then so is the triangle inside (a grown brush is convex), deeper than the sag.
                        for (int s = 0; s < 5 && deep; ++s) {
                            const double u = uniform(rng, 0, 1), v = uniform(rng, 0, 1 - u);
                            const Vec3 p = whole[i].position + u * (whole[i + 1].position - whole[i].position) +
                                           v * (whole[i + 2].position - whole[i].position);
                            EXPECT_LT(roundShapeClearance(frame, *brushes[b], frame.toShape(p)), -depth);
                        }
                    }
                    const bool drawnHere = next + 2 < drawn.size() && drawn[next].position == whole[i].position &&
                                           drawn[next + 1].position == whole[i + 1].position &&
                                           drawn[next + 2].position == whole[i + 2].position;
                    EXPECT_EQ(drawnHere, !deep) << "brush " << a << " triangle " << i / 3;
                    if (drawnHere) next += 3;
                    (deep ? hidden : shown) += 1;
                }
                EXPECT_EQ(next, drawn.size());
            }
            EXPECT_GT(hidden, shown / 10); // the case is met
            EXPECT_GT(shown, 0u);
        };
        check(world, kept);
        // Move one brush into the others, remove one, add one: only those near are sorted again.
        World edited = world;
        edited.brushes[5] = translated(edited.brushes[5], Vec3(24, -16, 8));
        edited.brushes.erase(edited.brushes.begin() + 9);
        edited.brushes.push_back(Brush::box(Vec3(-20, -20, -20), Vec3(20, 20, 20)));
        kept.update(edited, pose);
        EXPECT_LT(kept.sortedOut(), edited.brushes.size());
        check(edited, kept);
        RoundExpandedWorld fresh;
        fresh.update(edited, pose);
        for (size_t b = 0; b < edited.brushes.size(); ++b) {
            ASSERT_EQ(kept.shown()[b]->size(), fresh.shown()[b]->size()) << b;
            for (size_t i = 0; i < kept.shown()[b]->size(); ++i)
                ASSERT_EQ((*kept.shown()[b])[i].position, (*fresh.shown()[b])[i].position);
        }
    }
}

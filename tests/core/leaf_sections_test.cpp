// The regions the 2D views fill (portal/leaf_sections.h) against the tree's own point
// queries: sections cut exactly on the face planes of every pose's expanded world (where
// cells beside a face used to be drawn by neither side, so a view went blank) and at random
// planes. Every sampled point of a section inside the world box must lie in exactly one
// region, that of the leaf the descent finds for it, with the solidity classifyPoints gives.
#include "compile/compiler.h"
#include "portal/leaf_cells.h"
#include "portal/leaf_sections.h"
#include "query/point_classify.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace shallot {
namespace {

using test::Rng;
using test::uniform;

// A sampled point closer than this to a region's edge lies on the border of two regions,
// which rounding may give to either or both; it is not counted (a tiny share of the samples).
constexpr double kEdgeMargin = 1e-6;

// The regions of one section, bucketed by their bounds on a coarse grid over the box's
// section, so a point is tested against the few regions near it.
class SectionIndex {
public:
    static constexpr int kBuckets = 64; // per side

    SectionIndex(const std::vector<LeafSection>& regions, const Aabb& box, int axis)
        : regions_(regions), u_((axis + 1) % 3), v_((axis + 2) % 3), box_(box), buckets_(size_t(kBuckets * kBuckets)) {
        for (size_t r = 0; r < regions.size(); ++r) {
            Aabb b;
            for (const Vec3& p : regions[r].polygon.vertices) b.add(p);
            for (int i = bucket(b.mins[u_], u_); i <= bucket(b.maxs[u_], u_); ++i)
                for (int j = bucket(b.mins[v_], v_); j <= bucket(b.maxs[v_], v_); ++j)
                    buckets_[size_t(i * kBuckets + j)].push_back(r);
        }
    }

    // How far p lies inside the region (negative: outside), in the plane.
    double depthIn(const Polygon& polygon, const Vec3& p) const {
        double depth = INFINITY;
        const auto& v = polygon.vertices;
        for (size_t k = 0; k < v.size(); ++k) {
            const Vec3& a = v[k];
            const Vec3& b = v[(k + 1) % v.size()];
            const double eu = b[u_] - a[u_], ev = b[v_] - a[v_];
            const double length = std::hypot(eu, ev);
            if (length == 0) continue;
            // Counter-clockwise: the inside is to the left of every edge.
            depth = std::min(depth, (eu * (p[v_] - a[v_]) - ev * (p[u_] - a[u_])) / length);
        }
        return depth;
    }

    // The regions holding p, or nothing when p lies within kEdgeMargin of an edge of one.
    std::optional<std::vector<size_t>> holding(const Vec3& p) const {
        std::vector<size_t> in;
        for (size_t r : buckets_[size_t(bucket(p[u_], u_) * kBuckets + bucket(p[v_], v_))]) {
            const double depth = depthIn(regions_[r].polygon, p);
            if (std::abs(depth) <= kEdgeMargin) return std::nullopt;
            if (depth > 0) in.push_back(r);
        }
        return in;
    }

private:
    int bucket(double x, int k) const {
        const double t = (x - box_.mins[k]) / (box_.maxs[k] - box_.mins[k]);
        return std::clamp(int(t * kBuckets), 0, kBuckets - 1);
    }
    const std::vector<LeafSection>& regions_;
    int u_, v_;
    Aabb box_;
    std::vector<std::vector<size_t>> buckets_;
};

struct Tally {
    size_t planes = 0, points = 0, onEdges = 0;
};

// Where the samples go: around the level (its boundary polygons' box, grown), where the
// cells are; the rest of the world box is one or two cells of void.
Aabb sampled(const BspTree& tree) {
    constexpr double kAround = 64.0;
    const Aabb level = tree.polygonBounds();
    return {level.mins - Vec3::Constant(kAround), level.maxs + Vec3::Constant(kAround)};
}

// Samples `count` points of the section x[axis] = at around the level, inside the tree's
// box, and checks each against the regions.
void expectTiled(Rng& rng, const BspTree& tree, int axis, double at, int count, Tally& tally) {
    const Aabb box = treeBox(tree);
    const std::vector<LeafSection> regions = leafSections(tree, axis, at);
    ASSERT_FALSE(regions.empty()) << "axis " << axis << " at " << at;
    const SectionIndex index(regions, sampled(tree), axis);
    std::vector<Vec3> points(static_cast<size_t>(count));
    const Aabb around = sampled(tree);
    for (Vec3& p : points) {
        for (int k = 0; k < 3; ++k)
            p[k] = uniform(rng, std::max(around.mins[k], box.mins[k]), std::min(around.maxs[k], box.maxs[k]));
        p[axis] = at;
    }
    std::vector<uint64_t> solidity(points.size());
    classifyPoints(tree, points, solidity);
    ++tally.planes;
    int failures = 0;
    for (size_t i = 0; i < points.size() && failures < 5; ++i) {
        const auto in = index.holding(points[i]);
        if (!in) {
            ++tally.onEdges;
            continue;
        }
        ++tally.points;
        const int32_t leaf = tree.findLeaf(points[i]);
        const bool one = in->size() == 1 && regions[in->front()].leaf == leaf &&
                         tree.leafSolid[size_t(regions[in->front()].leaf)] == solidity[i];
        if (!one) ++failures;
        EXPECT_TRUE(one) << "axis " << axis << " at " << at << ": point (" << points[i].transpose() << ") in "
                         << in->size() << " regions, the first of leaf " << (in->empty() ? -1 : regions[in->front()].leaf)
                         << ", found in leaf " << leaf;
    }
}

// The distinct axis-aligned planes of every pose's expanded world (the tree's boundary
// polygons), as (axis, coordinate).
std::vector<std::pair<int, double>> expandedFacePlanes(const BspTree& tree) {
    std::set<std::pair<int, double>> planes;
    for (size_t k = 0; k < tree.polygons.size(); ++k) {
        const Plane& plane = tree.planes[size_t(tree.polygons[k].plane)];
        if (const int axis = plane.axis(); axis >= 0) planes.insert({axis, plane.normal[axis] * plane.dist});
    }
    return {planes.begin(), planes.end()};
}

// Random levels: every axial face plane of every pose's expanded world, and random planes.
TEST(LeafSections, TileEveryFacePlaneOfRandomLevels) {
    Rng rng(37);
    Tally tally;
    for (int level = 0; level < 6; ++level) {
        World world = test::randomWorld(rng, 25, 200, 2);
        // Axis-aligned boxes on integer coordinates too, as designers draw them: their
        // expanded faces lie on the planes the tree splits at.
        for (int i = 0; i < 15; ++i) {
            const Vec3 lo(std::round(uniform(rng, -250, 200)), std::round(uniform(rng, -250, 200)), std::round(uniform(rng, -250, 200)));
            const Vec3 size(std::round(uniform(rng, 8, 64)), std::round(uniform(rng, 8, 64)), std::round(uniform(rng, 8, 64)));
            world.brushes.push_back(Brush::box(lo, lo + size));
        }
        const CompileResult r = compileWorld(world);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const auto planes = expandedFacePlanes(r.onion);
        ASSERT_GT(planes.size(), 50u);
        for (const auto& [axis, at] : planes) expectTiled(rng, r.onion, axis, at, 64, tally);
        for (int i = 0; i < 20; ++i) {
            const int axis = int(rng() % 3);
            expectTiled(rng, r.onion, axis, uniform(rng, -260, 260), 64, tally);
        }
    }
    EXPECT_GT(tally.planes, 2000u);
    EXPECT_LT(tally.onEdges, tally.points / 100);
}

// id_e1m1: its axial face planes of every pose's expanded world (605 of them; all of them
// with the compile take about a second) and random planes through the level. The planes
// are capped at kMaxFacePlanes, drawn at random, so that a bigger shared level put here
// keeps the test to a few seconds.
TEST(LeafSections, TileFacePlanesOfIdE1m1) {
    const std::filesystem::path path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared maps";
    const CompileResult r = compileWorld(test::loadMap(path.string()));
    ASSERT_TRUE(r.error.empty()) << r.error;
    Rng rng(1);
    std::vector<std::pair<int, double>> planes = expandedFacePlanes(r.onion);
    ASSERT_GT(planes.size(), 300u);
    constexpr size_t kMaxFacePlanes = 800;
    std::shuffle(planes.begin(), planes.end(), rng);
    if (planes.size() > kMaxFacePlanes) planes.resize(kMaxFacePlanes);
    Tally tally;
    for (const auto& [axis, at] : planes) expectTiled(rng, r.onion, axis, at, 400, tally);
    const Aabb level = r.onion.polygonBounds();
    for (int i = 0; i < 30; ++i) {
        const int axis = int(rng() % 3);
        expectTiled(rng, r.onion, axis, uniform(rng, level.mins[axis], level.maxs[axis]), 400, tally);
    }
    EXPECT_LT(tally.onEdges, tally.points / 100);
}

// figure1_rooms with a pose added (the player's box, as Poses > Add makes it): the front
// view on the face of the player's expanded north wall of the lower room (the wall is
// y 400..416, so y 384), on the wall's own face (y 400) and the side view at the player
// start (x 400). Every cell beside such a face only touches the plane; drawn from neither
// side, the level's part of the view went blank (the areas below fell short of the box's
// section by about the level's extent). Now the regions cover the box's section once.
TEST(LeafSections, Figure1RoomsOnThePlayersExpandedWall) {
    World world = test::loadMap(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
    world.poses.push_back({"pose4", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0xc0c040ffu});
    const CompileResult r = compileWorld(world);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const BspTree& tree = r.onion;
    const Aabb box = treeBox(tree);
    Rng rng(4);
    Tally tally;
    for (const auto& [axis, at] : {std::pair{1, 384.0}, std::pair{1, 400.0}, std::pair{0, 400.0}}) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const double boxArea = (box.maxs[u] - box.mins[u]) * (box.maxs[v] - box.mins[v]);
        double area = 0;
        for (const LeafSection& s : leafSections(tree, axis, at)) area += s.polygon.area();
        EXPECT_NEAR(area, boxArea, 1e-9 * boxArea) << "axis " << axis << " at " << at;
        expectTiled(rng, tree, axis, at, 4000, tally);
    }
}

} // namespace
} // namespace shallot

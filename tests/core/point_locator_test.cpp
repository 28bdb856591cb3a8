#include "brute_force.h"
#include "compile/compiler.h"
#include "geometry/tolerances.h"
#include "query/point_locator.h"
#include "random_world.h"
#include "test_maps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace shallot;
using namespace shallot::test;

namespace {

// Points that stress the locator: random ones in and around the grid, points on split
// planes (exactly on axial ones), and points on the grid's cell boundaries and one ulp to
// either side of them.
std::vector<Vec3> hardPoints(Rng& rng, const BspTree& tree, const PointLocator& locator, size_t count) {
    std::vector<Vec3> points;
    const Aabb grid = locator.gridBox().empty() ? Aabb{Vec3::Constant(-100), Vec3::Constant(100)} : locator.gridBox();
    const Vec3 margin = (grid.maxs - grid.mins) * 0.1;
    auto inGrid = [&] {
        Vec3 p;
        for (int i = 0; i < 3; ++i) p[i] = uniform(rng, grid.mins[i] - margin[i], grid.maxs[i] + margin[i]);
        return p;
    };
    for (size_t i = 0; i < count; ++i) points.push_back(inGrid());
    for (const BspNode& n : tree.nodes) {
        const Plane& plane = tree.planes[size_t(n.plane)];
        Vec3 p = inGrid();
        p -= plane.normal * plane.signedDistance(p);
        if (const int axis = plane.axis(); axis >= 0) p[axis] = plane.normal[axis] * plane.dist;
        points.push_back(p);
    }
    const std::array<int, 3> cells = locator.cellsPerAxis();
    for (size_t i = 0; i < count / 4 && !locator.gridBox().empty(); ++i) {
        Vec3 p = inGrid();
        const int axis = int(rng() % 3);
        const double boundary = grid.mins[axis] + double(rng() % size_t(cells[axis] + 1)) * locator.cellEdge()[axis];
        for (double towards : {-double(INFINITY), 0.0, double(INFINITY)}) {
            p[axis] = towards == 0.0 ? boundary : std::nextafter(boundary, towards);
            points.push_back(p);
        }
    }
    return points;
}

void expectSameLeaves(const BspTree& tree, const PointLocator& locator, const std::vector<Vec3>& points) {
    for (const Vec3& p : points) ASSERT_EQ(locator.findLeaf(p), tree.findLeaf(p)) << "at " << p.transpose();
}

// Every node of every cell's tree down to `depth` levels has a plane that cuts the cell:
// the locator skipped every plane that leaves the cell on one side.
void expectCellTreesCutTheirCells(const BspTree& tree, const PointLocator& locator, int cellStride) {
    const std::array<int, 3> cells = locator.cellsPerAxis();
    const Vec3 edge = locator.cellEdge();
    const Vec3 origin = locator.gridBox().mins;
    size_t cellNodes = 0;
    for (int z = 0; z < cells[2]; z += cellStride)
        for (int y = 0; y < cells[1]; y += cellStride)
            for (int x = 0; x < cells[0]; x += cellStride) {
                const Vec3 lo = origin + Vec3(x, y, z).cwiseProduct(edge);
                const Vec3 hi = lo + edge;
                std::vector<ChildRef> stack{locator.cellRoot(x, y, z)};
                while (!stack.empty()) {
                    const ChildRef r = stack.back();
                    stack.pop_back();
                    if (isLeaf(r) || size_t(r) < tree.nodes.size()) continue; // a leaf, or the tree's own node
                    ++cellNodes;
                    const BspNode& n = locator.nodes()[size_t(r)];
                    const Plane& plane = tree.planes[size_t(n.plane)];
                    double least = INFINITY, most = -INFINITY;
                    for (int corner = 0; corner < 8; ++corner) {
                        const Vec3 c((corner & 1) ? hi.x() : lo.x(), (corner & 2) ? hi.y() : lo.y(), (corner & 4) ? hi.z() : lo.z());
                        least = std::min(least, plane.signedDistance(c));
                        most = std::max(most, plane.signedDistance(c));
                    }
                    EXPECT_LE(least, kLocatorCellMargin * 2) << "a plane wholly behind the cell was kept";
                    EXPECT_GE(most, -kLocatorCellMargin * 2) << "a plane wholly in front of the cell was kept";
                    stack.push_back(n.front);
                    stack.push_back(n.back);
                }
            }
    EXPECT_GT(cellNodes, 0u);
}

} // namespace

// On random worlds the locator finds the leaf BspTree::findLeaf finds, at random points, on
// split planes and on the grid's cell boundaries, for the onion and every map tree; its
// answers also match brute force over the expanded brushes.
TEST(PointLocator, SameLeavesAsTheTreeOnRandomWorlds) {
    Rng rng(11);
    for (int world = 0; world < 4; ++world) {
        SCOPED_TRACE(world);
        const World w = randomWorld(rng, 60 + 40 * world, 150 + 50 * world, 2);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        std::vector<const BspTree*> trees{&r.onion};
        for (const BspTree& t : r.mapTrees) trees.push_back(&t);
        for (const BspTree* tree : trees) {
            const PointLocator locator(*tree);
            EXPECT_GT(locator.cellCount(), tree->nodes.size());
            expectSameLeaves(*tree, locator, hardPoints(rng, *tree, locator, 20000));
            expectCellTreesCutTheirCells(*tree, locator, 1);
        }
        const PointLocator locator(r.onion);
        const BruteForce brute(w);
        int compared = 0;
        for (int i = 0; i < 3000; ++i) {
            const Vec3 p(uniform(rng, -260, 260), uniform(rng, -260, 260), uniform(rng, -260, 260));
            for (size_t pose = 0; pose < w.poses.size(); ++pose) {
                const std::optional<bool> expected = brute.solid(p, pose);
                if (!expected) continue;
                ++compared;
                ASSERT_EQ(bool((locator.solidityAt(p) >> pose) & 1u), *expected) << "pose " << pose << " at " << p.transpose();
            }
        }
        EXPECT_GT(compared, 3000);
    }
}

// The grid is laid on the leaf polygons' box; a world whose brushes all lie in one flat slab
// still gets a grid, and a tree that is a single leaf (nothing to locate) gets none.
TEST(PointLocator, FlatWorldAndSingleLeaf) {
    World w;
    w.poses = {Pose{"point", Vec3::Zero(), Vec3::Zero()}};
    for (int i = 0; i < 20; ++i) w.brushes.push_back(Brush::box(Vec3(i * 40, 0, 0), Vec3(i * 40 + 24, 24 + i, 16)));
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const PointLocator locator(r.onion);
    EXPECT_GT(locator.cellCount(), 0u);
    Rng rng(2);
    expectSameLeaves(r.onion, locator, hardPoints(rng, r.onion, locator, 5000));

    BspTree leaf;
    leaf.leafSolid = {1};
    leaf.leaves.resize(1);
    const PointLocator none(leaf);
    EXPECT_EQ(none.cellCount(), 0u);
    EXPECT_EQ(none.solidityAt(Vec3(1, 2, 3)), 1u);
}

namespace {

// A chain of nodes: node k splits by splitPlanes[k]; its back is leaf k, its front node
// k + 1 (the last node's front is the last leaf). Every odd node holds the plane flipped and
// the chain on its back, so both children's sides are walked into. The one leaf polygon spans `box`, where the
// locator lays its grid.
BspTree chainTree(const std::vector<Plane>& splitPlanes, const Aabb& box) {
    BspTree tree;
    for (const Plane& plane : splitPlanes) {
        tree.planes.push_back(plane);
        tree.planes.push_back(plane.flipped());
    }
    const int32_t count = int32_t(splitPlanes.size());
    for (int32_t k = 0; k < count; ++k) {
        const ChildRef next = k + 1 < count ? k + 1 : leafRef(count);
        if (k % 2 == 0) tree.nodes.push_back({2 * k, next, leafRef(k)});
        else tree.nodes.push_back({2 * k + 1, leafRef(k), next}); // the same cut, the chain on its back
    }
    tree.root = count > 0 ? 0 : leafRef(0);
    tree.leafSolid.resize(size_t(count) + 1);
    for (int32_t k = 0; k <= count; ++k) tree.leafSolid[size_t(k)] = uint64_t(k);
    tree.leaves.resize(size_t(count) + 1);
    const Vec3 corners[3] = {box.mins, Vec3(box.maxs.x(), box.mins.y(), box.mins.z()), box.maxs};
    tree.polygons.add(LeafPolygon{0, 0, 0}, corners);
    return tree;
}

// dist, and one and two ulps to either side of it.
std::vector<double> aroundUlps(double dist) {
    return {std::nextafter(std::nextafter(dist, -INFINITY), -INFINITY), std::nextafter(dist, -INFINITY), dist,
            std::nextafter(dist, INFINITY), std::nextafter(std::nextafter(dist, INFINITY), INFINITY)};
}

} // namespace

// The places where rounding could send a point to the wrong side: split planes on the
// locator's cell boundaries and through its cell corners, a few ulps and a little more to
// either side, and points a few ulps around each. Along each axis, planes facing +axis sit
// on the lower third of the boundaries and planes facing -axis on the upper third (so a
// point reaches every such plane near it in the chain); slanted planes go through corners
// in the middle. Extents that are not round make the cell edges and their inverses round.
// Off-by-1e-3 clips of either child's box, for either facing, fail here; the two uses of
// kLocatorCellMargin (the grown cell box, the side test's spare) cover for each other, and
// without both this test and the random worlds fail.
TEST(PointLocator, PlanesAndPointsAtCellBoundaries) {
    const Aabb box{Vec3(-37.3, 11.1, 0.7), Vec3(100.9, 70.3, 45.1)};
    const size_t nodeCount = 1500;
    // The grid depends only on the polygons' box and the node count: read it off a chain of
    // placeholder planes first.
    const BspTree placeholder = chainTree(std::vector<Plane>(nodeCount, Plane{Vec3::UnitX(), -1e4}), box);
    const PointLocator grid(placeholder);
    const Vec3 origin = grid.gridBox().mins, edge = grid.cellEdge();
    const std::array<int, 3> cells = grid.cellsPerAxis();
    ASSERT_GE(std::min({cells[0], cells[1], cells[2]}), 6);
    auto boundary = [&](int axis, int i) { return origin[axis] + i * edge[axis]; };

    std::vector<Plane> planes;
    std::vector<Vec3> points;
    Vec3 middle;
    for (int axis = 0; axis < 3; ++axis) middle[axis] = boundary(axis, cells[axis] / 2);
    const double offsets[] = {-2e-6, -5e-7, 0.0, 5e-7, 2e-6};
    for (int axis = 0; axis < 3; ++axis) {
        const int third = cells[axis] / 3;
        for (int up : {1, 0}) {
            std::vector<double> dists;
            for (int i = 1; i <= third; ++i) {
                const double b = boundary(axis, up ? i : cells[axis] - i);
                for (double offset : offsets)
                    for (double d : aroundUlps(b + offset)) dists.push_back(d);
            }
            std::sort(dists.begin(), dists.end());
            if (!up) std::reverse(dists.begin(), dists.end());
            for (double d : dists) {
                Vec3 normal = Vec3::Zero();
                normal[axis] = up ? 1.0 : -1.0;
                planes.push_back({normal, up ? d : -d});
                for (double x : aroundUlps(d)) {
                    Vec3 p = middle;
                    p[axis] = x;
                    points.push_back(p);
                }
            }
        }
    }
    // Slanted planes through the middle cell's corners.
    for (const Vec3& direction : {Vec3(1, 1, 0), Vec3(1, -2, 1), Vec3(-3, 1, 2), Vec3(0.1, 7, -3), Vec3(-1, -1, -1)}) {
        const Vec3 normal = direction.normalized();
        for (int corner = 0; corner < 8; ++corner) {
            const Vec3 c = middle + Vec3(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1).cwiseProduct(edge);
            planes.push_back({normal, normal.dot(c)});
            for (double x : aroundUlps(c.x()))
                for (double y : aroundUlps(c.y()))
                    for (double z : aroundUlps(c.z())) points.push_back(Vec3(x, y, z));
        }
    }
    ASSERT_LE(planes.size(), nodeCount);
    while (planes.size() < nodeCount) planes.push_back({Vec3::UnitX(), -1e4}); // every point in front
    const BspTree tree = chainTree(planes, box);
    const PointLocator locator(tree);
    ASSERT_EQ(locator.cellsPerAxis(), cells);
    ASSERT_EQ(locator.cellEdge(), edge);
    // Most points must end at the plane they were made around, not before it.
    size_t deep = 0;
    for (const Vec3& p : points) deep += tree.findLeaf(p) > 100;
    EXPECT_GT(deep, points.size() / 2);
    expectSameLeaves(tree, locator, points);
}

// Points that are not numbers, or out of reach, descend from the root as in the tree.
TEST(PointLocator, NonFinitePointsAnswerAsTheTree) {
    Rng rng(4);
    const World w = randomWorld(rng, 40, 120, 1);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const PointLocator locator(r.onion);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Vec3& p : {Vec3(nan, 0, 0), Vec3(0, nan, 0), Vec3(0, 0, nan), Vec3(INFINITY, 0, 0), Vec3(0, -INFINITY, 0),
                          Vec3(1e300, 1e300, 1e300), Vec3(-1e300, 0, 0)})
        EXPECT_EQ(locator.findLeaf(p), r.onion.findLeaf(p)) << p.transpose();
}

// The shared Quake levels: a real map's onion tree, 200,000 random points and every split
// plane, the same leaves.
TEST(PointLocator, SameLeavesOnSharedMaps) {
    const std::filesystem::path dir(SHALLOT_SHARED_MAPS);
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
    Rng rng(8);
    for (const char* name : {"id_e1m1.map", "ericw_q1_mountain.map"}) {
        SCOPED_TRACE(name);
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(loadMap((dir / name).string()), options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const PointLocator locator(r.onion);
        expectSameLeaves(r.onion, locator, hardPoints(rng, r.onion, locator, 200000));
        expectCellTreesCutTheirCells(r.onion, locator, 7);
    }
}

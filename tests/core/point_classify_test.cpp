#include "compile/compiler.h"
#include "query/point_classify.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

std::vector<Vec3> randomPoints(Rng& rng, size_t count, double spread) {
    std::vector<Vec3> points(count);
    for (Vec3& p : points) p = Vec3(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread));
    return points;
}

std::vector<uint64_t> oneByOne(const BspTree& tree, const std::vector<Vec3>& points) {
    std::vector<uint64_t> bits;
    for (const Vec3& p : points) bits.push_back(tree.solidityAt(p));
    return bits;
}

std::vector<uint64_t> batched(const BspTree& tree, const std::vector<Vec3>& points) {
    std::vector<uint64_t> bits(points.size(), ~uint64_t(0));
    classifyPoints(tree, points, bits);
    return bits;
}

} // namespace

// Every batch length around the lane count (fewer points than lanes, exactly as many, a
// few over) and a long one give solidityAt's answers in order, on the onion and map trees.
TEST(ClassifyPoints, MatchesSolidityAtOneByOne) {
    Rng rng(5);
    const World world = randomWorld(rng, 150, 200, 3);
    const CompileResult r = compileWorld(world);
    ASSERT_TRUE(r.error.empty()) << r.error;
    std::vector<const BspTree*> trees{&r.onion};
    for (const BspTree& t : r.mapTrees) trees.push_back(&t);
    for (const BspTree* tree : trees) {
        for (size_t n : {size_t(0), size_t(1), size_t(kClassifyLanes - 1), size_t(kClassifyLanes),
                         size_t(kClassifyLanes + 3), size_t(20000)}) {
            SCOPED_TRACE(n);
            const std::vector<Vec3> points = randomPoints(rng, n, 260);
            EXPECT_EQ(batched(*tree, points), oneByOne(*tree, points));
        }
    }
    // Points exactly on split planes read the front side, as solidityAt does.
    std::vector<Vec3> onPlanes;
    for (const BspNode& n : r.onion.nodes) {
        const Plane& plane = r.onion.planes[size_t(n.plane)];
        onPlanes.push_back(plane.normal * plane.dist);
    }
    EXPECT_EQ(batched(r.onion, onPlanes), oneByOne(r.onion, onPlanes));
}

// Through a point locator: the same answers, lanes that start at a leaf included (most
// cells of a random world lie wholly in one leaf), and points outside its grid.
TEST(ClassifyPoints, ThroughALocatorMatchesSolidityAt) {
    Rng rng(9);
    const World world = randomWorld(rng, 150, 200, 3);
    const CompileResult r = compileWorld(world);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const PointLocator locator(r.onion);
    ASSERT_GT(locator.cellCount(), 0u);
    for (size_t n : {size_t(0), size_t(1), size_t(kClassifyLanes - 1), size_t(kClassifyLanes), size_t(kClassifyLanes + 3),
                     size_t(20000)}) {
        SCOPED_TRACE(n);
        const std::vector<Vec3> points = randomPoints(rng, n, 300);
        std::vector<uint64_t> bits(points.size(), ~uint64_t(0));
        classifyPoints(locator, points, bits);
        EXPECT_EQ(bits, oneByOne(r.onion, points));
    }
}

TEST(ClassifyPoints, TreeThatIsOneLeaf) {
    BspTree tree;
    tree.leafSolid = {0b101};
    tree.leaves.resize(1);
    const std::vector<Vec3> points(40, Vec3(1, 2, 3));
    EXPECT_EQ(batched(tree, points), std::vector<uint64_t>(40, 0b101));
    std::vector<uint64_t> located(points.size());
    classifyPoints(PointLocator(tree), points, located);
    EXPECT_EQ(located, std::vector<uint64_t>(40, 0b101));
}

#include "query/point_classify.h"

#include <bit>
#include <cassert>

namespace shallot {

static_assert(kClassifyLanes <= 64, "one bit per lane in a uint64_t");

namespace {

// The rounds below, for descents that start where startOf(point) says, in `nodes`.
template <typename StartOf>
void classifyFrom(const BspTree& tree, const BspNode* nodes, StartOf startOf, std::span<const Vec3> points,
                  std::span<uint64_t> out) {
    assert(out.size() == points.size());
    const size_t count = points.size();
    const Plane* planes = tree.planes.data();
    // Each lane: where its point is in the tree, which point, and the point's coordinates
    // (copied, so a step loads nothing through the point's index).
    ChildRef at[kClassifyLanes];
    size_t point[kClassifyLanes];
    double x[kClassifyLanes], y[kClassifyLanes], z[kClassifyLanes];
    auto start = [&](int lane, size_t i) {
        at[lane] = startOf(points[i]);
        point[lane] = i;
        x[lane] = points[i].x();
        y[lane] = points[i].y();
        z[lane] = points[i].z();
    };
    int active = 0;
    size_t next = 0;
    // A lane that starts at a leaf answers at once and takes the next point.
    auto fill = [&](int lane) {
        while (next < count) {
            start(lane, next++);
            if (!isLeaf(at[lane])) return true;
            out[point[lane]] = tree.leafSolid[size_t(leafIndex(at[lane]))];
        }
        return false;
    };
    while (active < kClassifyLanes && fill(active)) ++active;
    while (active > 0) {
        // One round: every active lane steps one level. No branch depends on the points,
        // so the steps of different lanes overlap freely.
        uint64_t reachedLeaf = 0;
        for (int lane = 0; lane < active; ++lane) {
            const BspNode& n = nodes[size_t(at[lane])];
            const Plane& p = planes[size_t(n.plane)];
            const double d = p.normal.x() * x[lane] + p.normal.y() * y[lane] + p.normal.z() * z[lane] - p.dist;
            const ChildRef child = childAt(n, d);
            at[lane] = child;
            reachedLeaf |= uint64_t(uint32_t(child) >> 31) << lane; // isLeaf(child), as a bit
        }
        // Lanes at their leaf answer and take the next point; once the points run out the
        // last active lane moves into the freed one. Highest lane first: the lane that
        // moves in has been dealt with already.
        while (reachedLeaf) {
            const int lane = 63 - std::countl_zero(reachedLeaf);
            reachedLeaf &= ~(uint64_t(1) << lane);
            out[point[lane]] = tree.leafSolid[size_t(leafIndex(at[lane]))];
            if (!fill(lane)) {
                --active;
                at[lane] = at[active];
                point[lane] = point[active];
                x[lane] = x[active];
                y[lane] = y[active];
                z[lane] = z[active];
            }
        }
    }
}

} // namespace

void classifyPoints(const BspTree& tree, std::span<const Vec3> points, std::span<uint64_t> out) {
    classifyFrom(tree, tree.nodes.data(), [&](const Vec3&) { return tree.root; }, points, out);
}

void classifyPoints(const PointLocator& locator, std::span<const Vec3> points, std::span<uint64_t> out) {
    classifyFrom(locator.tree(), locator.nodes().data(), [&](const Vec3& p) { return locator.start(p); }, points, out);
}

} // namespace shallot

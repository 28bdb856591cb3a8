#include "query/point_locator.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace shallot {

namespace {

enum class BoxSide { Front, Back, Both };

// Where the box [lo, hi] lies against the plane: Front when every point of it has a signed
// distance above kLocatorCellMargin (so a query reads the front), Back when every point's
// is below -kLocatorCellMargin, Both otherwise. From the box's centre and half extent: their
// rounding (below 1e-10 in the world box) is far inside the margin.
BoxSide boxSide(const Plane& plane, const Vec3& lo, const Vec3& hi) {
    const Vec3 centre = (lo + hi) * 0.5;
    const Vec3 half = (hi - lo) * 0.5;
    const double distance = plane.signedDistance(centre);
    const double reach = plane.normal.cwiseAbs().dot(half);
    if (distance - reach > kLocatorCellMargin) return BoxSide::Front;
    if (distance + reach < -kLocatorCellMargin) return BoxSide::Back;
    return BoxSide::Both;
}

} // namespace

class PointLocatorBuilder {
public:
    PointLocatorBuilder(const BspTree& tree, PointLocator& locator) : tree_(tree), out_(locator) {}

    void build() {
        out_.nodes_ = tree_.nodes;
        const Aabb box = tree_.polygonBounds(); // where the planes are
        if (isLeaf(tree_.root) || box.empty()) return;
        chooseGrid(box);
        const std::array<int, 3> lo{0, 0, 0};
        const std::array<int, 3> hi{out_.cellsX_, out_.cellsY_, out_.cellsZ_};
        fillCells(tree_.root, lo, hi);
    }

private:
    const BspTree& tree_;
    PointLocator& out_;

    // About kLocatorCellsPerNode cells per node, as near cubes as the box allows.
    void chooseGrid(const Aabb& box) {
        const Vec3 extent = (box.maxs - box.mins).cwiseMax(1.0); // a flat box still gets a slab
        const double cells = kLocatorCellsPerNode * double(tree_.nodes.size());
        const double edge = std::cbrt(extent.prod() / cells);
        int counts[3];
        for (int i = 0; i < 3; ++i)
            counts[i] = int(std::clamp(std::ceil(extent[i] / edge), 1.0, double(kLocatorMaxCellsPerAxis)));
        out_.box_ = {box.mins, box.mins + extent};
        out_.origin_ = box.mins;
        out_.cellsX_ = counts[0];
        out_.cellsY_ = counts[1];
        out_.cellsZ_ = counts[2];
        for (int i = 0; i < 3; ++i) {
            out_.cell_[i] = extent[i] / counts[i];
            out_.inverseCell_[i] = 1.0 / out_.cell_[i];
        }
        out_.cellRoots_.assign(size_t(counts[0]) * size_t(counts[1]) * size_t(counts[2]), tree_.root);
    }

    // The box of the cells [lo, hi), grown by kLocatorCellMargin: every point whose computed
    // cell lies in the range is inside it.
    void rangeBox(const std::array<int, 3>& lo, const std::array<int, 3>& hi, Vec3& boxLo, Vec3& boxHi) const {
        for (int i = 0; i < 3; ++i) {
            boxLo[i] = out_.origin_[i] + lo[i] * out_.cell_[i] - kLocatorCellMargin;
            boxHi[i] = out_.origin_[i] + hi[i] * out_.cell_[i] + kLocatorCellMargin;
        }
    }

    // Sets the roots of the cells [lo, hi), all of which lie in the cell of node r: the
    // range walks down while one side holds it, and is halved where a plane cuts it, so
    // the cells share the walk from the root.
    void fillCells(ChildRef r, const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
        Vec3 boxLo, boxHi;
        rangeBox(lo, hi, boxLo, boxHi);
        r = skipWholeSides(r, boxLo, boxHi);
        const std::array<int, 3> size{hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
        if (isLeaf(r)) {
            for (int z = lo[2]; z < hi[2]; ++z)
                for (int y = lo[1]; y < hi[1]; ++y)
                    for (int x = lo[0]; x < hi[0]; ++x) out_.cellRoots_[out_.cellIndex(x, y, z)] = r;
            return;
        }
        if (size[0] == 1 && size[1] == 1 && size[2] == 1) {
            out_.cellRoots_[out_.cellIndex(lo[0], lo[1], lo[2])] = cellTree(r, boxLo, boxHi, 0);
            return;
        }
        const int axis = int(std::max_element(size.begin(), size.end()) - size.begin());
        const int mid = lo[axis] + size[axis] / 2;
        std::array<int, 3> lowerHi = hi, upperLo = lo;
        lowerHi[axis] = mid;
        upperLo[axis] = mid;
        fillCells(r, lo, lowerHi);
        fillCells(r, upperLo, hi);
    }

    // Down from r while the box lies wholly on one side of the node's plane.
    ChildRef skipWholeSides(ChildRef r, const Vec3& lo, const Vec3& hi) const {
        while (!isLeaf(r)) {
            const BspNode& n = tree_.nodes[size_t(r)];
            const BoxSide side = boxSide(tree_.planes[size_t(n.plane)], lo, hi);
            if (side == BoxSide::Both) break;
            r = side == BoxSide::Front ? n.front : n.back;
        }
        return r;
    }

    // Appends the tree below r restricted to the box (nodes whose planes leave the box on
    // one side skipped) and returns its root. An axial plane also cuts the box for its
    // children. At kLocatorCellTreeDepth the tree's own node r is returned instead.
    ChildRef cellTree(ChildRef r, Vec3 lo, Vec3 hi, int depth) {
        r = skipWholeSides(r, lo, hi);
        if (isLeaf(r) || depth == kLocatorCellTreeDepth || out_.nodes_.size() >= size_t(INT32_MAX)) return r;
        const BspNode n = tree_.nodes[size_t(r)];
        const Plane& plane = tree_.planes[size_t(n.plane)];
        const size_t at = out_.nodes_.size();
        out_.nodes_.push_back({n.plane, 0, 0});
        Vec3 frontLo = lo, frontHi = hi, backLo = lo, backHi = hi;
        if (const int axis = plane.axis(); axis >= 0) {
            // The front is x >= dist (normal +x) or x <= -dist (normal -x), exactly.
            if (plane.normal[axis] > 0.0) {
                frontLo[axis] = std::max(lo[axis], plane.dist);
                backHi[axis] = std::min(hi[axis], plane.dist);
            } else {
                frontHi[axis] = std::min(hi[axis], -plane.dist);
                backLo[axis] = std::max(lo[axis], -plane.dist);
            }
        }
        const ChildRef front = cellTree(n.front, frontLo, frontHi, depth + 1);
        const ChildRef back = cellTree(n.back, backLo, backHi, depth + 1);
        out_.nodes_[at].front = front;
        out_.nodes_[at].back = back;
        return ChildRef(at);
    }
};

PointLocator::PointLocator(const BspTree& tree) : tree_(&tree) { PointLocatorBuilder(tree, *this).build(); }

} // namespace shallot

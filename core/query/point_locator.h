#pragma once
#include "compile/bsp_tree.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace shallot {

// Grid cells per tree node. More cells skip more levels at the cost of memory and build
// time; on id_e1m1 0.5, 1, 2 and 4 cells per node gave 20.6, 22.7, 25.4 and 27.2 M
// classifications/s (2026-11-25, stop 25; docs/performance.md, "One point at a time: the
// point locator").
inline constexpr double kLocatorCellsPerNode = 2.0;
// Levels of a cell's own tree, below which a cell's descent continues in the tree's nodes.
// A terrain's cells cut by many slanted planes would otherwise copy large subtrees: on
// ericw_q1_mountain depth 6 keeps 199,000 cell nodes and 22 M/s, no limit 1.08 million
// and 21 M/s.
inline constexpr int kLocatorCellTreeDepth = 6;
// A long thin box (a corridor of a map) gets at most this many cells along its length.
inline constexpr int kLocatorMaxCellsPerAxis = 1024;

// Finds the leaf of a point faster than BspTree::findLeaf, one point at a time, with the
// same answer for every point (points on a split plane read its front side, as there).
//
// A descent from the root spends most of its levels on planes far from the point. The
// locator lays a grid of about kLocatorCellsPerNode cells per node over the box of the
// tree's leaf polygons, and gives each cell its own tree: the nodes whose planes cut the
// cell, found by walking the tree with the cell's box, where a node whose plane leaves the
// box on one side is skipped to that child. A query computes its cell from its coordinates
// and descends that cell's tree; a point outside the grid descends from the root.
//
// A cell tree's nodes are the tree's nodes with other children. They follow a copy of the
// tree's nodes in one array, so a cell tree cut off at kLocatorCellTreeDepth goes on in
// the copy, under the same indices as in the tree.
// The locator reads the tree's planes and leaf solidity: the tree must outlive it and must
// not change.
class PointLocator {
public:
    explicit PointLocator(const BspTree& tree);

    // Where p's descent starts: the root of its cell's tree, or the tree's root.
    ChildRef start(const Vec3& p) const {
        ChildRef r = tree_->root;
        const double x = (p.x() - origin_.x()) * inverseCell_.x();
        const double y = (p.y() - origin_.y()) * inverseCell_.y();
        const double z = (p.z() - origin_.z()) * inverseCell_.z();
        // Written so that NaN coordinates fail the test and descend from the root.
        if (x >= 0.0 && y >= 0.0 && z >= 0.0 && x < cellsX_ && y < cellsY_ && z < cellsZ_)
            r = cellRoot(int(x), int(y), int(z));
        return r;
    }
    int32_t findLeaf(const Vec3& p) const { return leafBelow(nodes_.data(), tree_->planes.data(), start(p), p); }
    uint64_t solidityAt(const Vec3& p) const { return tree_->leafSolid[size_t(findLeaf(p))]; }

    size_t cellCount() const { return cellRoots_.size(); }
    size_t cellNodeCount() const { return nodes_.size() - tree_->nodes.size(); } // nodes of the cells' trees
    size_t bytes() const { return cellRoots_.size() * sizeof(ChildRef) + nodes_.size() * sizeof(BspNode); }
    const Aabb& gridBox() const { return box_; }
    const Vec3& cellEdge() const { return cell_; }
    std::array<int, 3> cellsPerAxis() const { return {cellsX_, cellsY_, cellsZ_}; }
    // The root of the cell's tree (a node index into nodes()) or its leaf.
    ChildRef cellRoot(int x, int y, int z) const { return cellRoots_[cellIndex(x, y, z)]; }
    const std::vector<BspNode>& nodes() const { return nodes_; }
    const BspTree& tree() const { return *tree_; }

private:
    const BspTree* tree_;
    Aabb box_;                         // the grid's box; empty when there is no grid
    Vec3 origin_ = Vec3::Zero();
    Vec3 cell_ = Vec3::Ones();         // a cell's edge lengths
    Vec3 inverseCell_ = Vec3::Zero();
    int cellsX_ = 0, cellsY_ = 0, cellsZ_ = 0;
    std::vector<ChildRef> cellRoots_;  // per cell, x fastest: its tree's root, or its leaf
    std::vector<BspNode> nodes_;       // the tree's nodes, then the cells' trees in pre-order

    size_t cellIndex(int x, int y, int z) const {
        return (size_t(z) * size_t(cellsY_) + size_t(y)) * size_t(cellsX_) + size_t(x);
    }

    friend class PointLocatorBuilder;
};

} // namespace shallot

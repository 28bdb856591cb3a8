#include "portal/cluster_visibility.h"

#include "geometry/tolerances.h"
#include "portal/leaf_cells.h"

#include <utility>

namespace shallot {

namespace {

// The map-tree leaves whose cells `cell` overlaps: down the side of each node plane it lies
// on, or cut by the plane and down both sides with a piece each when it crosses it by more
// than kClusterOverlap.
void clustersOfCell(const BspTree& clusters, ConvexPolyhedron cell, std::vector<int32_t>& out) {
    std::vector<std::pair<ChildRef, ConvexPolyhedron>> stack;
    stack.emplace_back(clusters.root, std::move(cell));
    while (!stack.empty()) {
        auto [r, piece] = std::move(stack.back());
        stack.pop_back();
        if (isLeaf(r)) {
            out.push_back(leafIndex(r));
            continue;
        }
        const BspNode& n = clusters.nodes[size_t(r)];
        const Plane& plane = clusters.planes[size_t(n.plane)];
        bool front = false, back = false;
        for (const ConvexFace& f : piece.faces)
            for (const Vec3& v : f.polygon.vertices) {
                const double d = plane.signedDistance(v);
                front |= d > kClusterOverlap;
                back |= d < -kClusterOverlap;
            }
        if (front && back) {
            SplitPolyhedron halves = split(piece, plane, 0, kHullClipEpsilon);
            if (!halves.front.empty()) stack.emplace_back(n.front, std::move(halves.front));
            if (!halves.back.empty()) stack.emplace_back(n.back, std::move(halves.back));
        } else if (front || back) {
            stack.emplace_back(front ? n.front : n.back, std::move(piece));
        } else { // thinner than the tolerance across the plane: both sides
            stack.emplace_back(n.front, piece);
            stack.emplace_back(n.back, std::move(piece));
        }
    }
}

} // namespace

LeafClusters::LeafClusters(const BspTree& leaves, const BspTree& clusters) {
    std::vector<std::vector<int32_t>> of(leaves.leafCount());
    visitCells(leaves, {nullptr, [&](int32_t leaf, ConvexPolyhedron&& cell) {
                            if (!cell.empty()) clustersOfCell(clusters, std::move(cell), of[size_t(leaf)]);
                        }});
    first_.reserve(of.size() + 1);
    first_.push_back(0);
    for (const std::vector<int32_t>& list : of) {
        clusters_.insert(clusters_.end(), list.begin(), list.end());
        first_.push_back(uint32_t(clusters_.size()));
    }
}

std::vector<bool> filledClusters(const BspTree& leaves, int pose, const LeafClusters& map, size_t clusterCount) {
    std::vector<bool> filled(clusterCount, true);
    for (size_t leaf = 0; leaf < map.leafCount(); ++leaf)
        if (!((leaves.leafSolid[leaf] >> pose) & 1u))
            for (const int32_t c : map.clustersOf(int32_t(leaf))) filled[size_t(c)] = false;
    return filled;
}

ClusterVisibility::ClusterVisibility(LeafClusters map, const PotentiallyVisibleSet& clusterPvs)
    : pvs_(clusterPvs), map_(std::move(map)) {}

bool ClusterVisibility::visible(int32_t from, int32_t to) const {
    for (const int32_t a : clustersOf(from))
        for (const int32_t b : clustersOf(to))
            if (pvs_.visible(a, b)) return true;
    return false;
}

std::vector<bool> ClusterVisibility::visibleFrom(int32_t from) const {
    std::vector<uint64_t> seen(pvs_.words(), 0);
    for (const int32_t a : clustersOf(from))
        for (size_t w = 0; w < seen.size(); ++w) seen[w] |= pvs_.row(a)[w];
    std::vector<bool> out(leafCount(), false);
    for (size_t leaf = 0; leaf < out.size(); ++leaf)
        for (const int32_t c : clustersOf(int32_t(leaf)))
            if ((seen[size_t(c) / 64] >> (size_t(c) % 64)) & 1u) {
                out[leaf] = true;
                break;
            }
    return out;
}

} // namespace shallot

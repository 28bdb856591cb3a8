#include "portal/region_boundary.h"

#include "compile/parallel_for.h"
#include "geometry/plane_pool.h"
#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"

namespace shallot {

namespace {
// Leaves per parallel job: enough to amortise a job, few enough to balance two threads.
constexpr size_t kLeavesPerJob = 256;
} // namespace

std::vector<BoundaryPiece> regionBoundary(const BspTree& tree, const LeafCellList& cells,
                                          const std::vector<int32_t>& region, int threads,
                                          const std::vector<bool>* onlyLeaves) {
    auto regionOf = [&](int32_t leaf) { return leaf >= 0 && size_t(leaf) < region.size() ? region[size_t(leaf)] : -1; };
    const size_t leafCount = std::min(cells.size(), region.size());
    // Parents, to push a face from the node whose split made it instead of from the root:
    // above that node the face lies on its leaf's side of every plane (the cell does), so
    // a push from the root would only follow the leaf's own path down to it.
    std::vector<int32_t> nodeParent(tree.nodes.size(), -1), leafParent(tree.leafCount(), -1);
    for (size_t node = 0; node < tree.nodes.size(); ++node)
        for (ChildRef child : {tree.nodes[node].front, tree.nodes[node].back})
            (isLeaf(child) ? leafParent[size_t(leafIndex(child))] : nodeParent[size_t(child)]) = int32_t(node);
    // The child across the face's plane at the nearest ancestor split by it (the root when
    // none is: a push from there finds the same leaves).
    auto across = [&](size_t leaf, PlaneId facePlane) -> ChildRef {
        ChildRef child = leafRef(int32_t(leaf));
        for (int32_t node = leafParent[leaf]; node >= 0; child = node, node = nodeParent[size_t(node)]) {
            const BspNode& n = tree.nodes[size_t(node)];
            if (sameSurface(n.plane, facePlane)) return n.front == child ? n.back : n.front;
        }
        return tree.root;
    };
    std::vector<std::vector<BoundaryPiece>> jobs((leafCount + kLeavesPerJob - 1) / kLeavesPerJob);
    parallelFor(jobs.size(), threads, [&](size_t job) {
        std::vector<BoundaryPiece>& out = jobs[job];
        const size_t end = std::min(leafCount, (job + 1) * kLeavesPerJob);
        for (size_t leaf = job * kLeavesPerJob; leaf < end; ++leaf) {
            const int32_t own = region[leaf];
            if (own < 0 || (onlyLeaves && (leaf >= onlyLeaves->size() || !(*onlyLeaves)[leaf]))) continue;
            for (const ConvexFace& face : cells[leaf].faces) {
                if (face.tag == kWorldBoxFace) {
                    out.push_back({int32_t(leaf), -1, face.polygon, face.plane.normal});
                    continue;
                }
                pushPolygon(tree, across(leaf, face.tag), face.polygon, face.plane.normal, [&](int32_t other, Polygon&& piece) {
                    // The leaf itself: nothing across (a cell cut down to a sliver).
                    if (other == int32_t(leaf) || regionOf(other) != own)
                        out.push_back({int32_t(leaf), other == int32_t(leaf) ? -1 : other, std::move(piece), face.plane.normal});
                });
            }
        }
    });
    std::vector<BoundaryPiece> pieces;
    size_t total = 0;
    for (const auto& j : jobs) total += j.size();
    pieces.reserve(total);
    for (auto& j : jobs)
        for (BoundaryPiece& p : j) pieces.push_back(std::move(p));
    return pieces;
}

} // namespace shallot

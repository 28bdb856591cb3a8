#include "portal/region_boundary.h"

#include "compile/parallel_for.h"
#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"

namespace shallot {

namespace {
// Leaves per parallel job: enough to amortise a job, few enough to balance two threads.
constexpr size_t kLeavesPerJob = 256;
} // namespace

std::vector<BoundaryPiece> regionBoundary(const BspTree& tree, const LeafCellList& cells,
                                          const std::vector<int32_t>& region, int threads) {
    auto regionOf = [&](int32_t leaf) { return leaf >= 0 && size_t(leaf) < region.size() ? region[size_t(leaf)] : -1; };
    const size_t leafCount = std::min(cells.size(), region.size());
    std::vector<std::vector<BoundaryPiece>> jobs((leafCount + kLeavesPerJob - 1) / kLeavesPerJob);
    parallelFor(jobs.size(), threads, [&](size_t job) {
        std::vector<BoundaryPiece>& out = jobs[job];
        const size_t end = std::min(leafCount, (job + 1) * kLeavesPerJob);
        for (size_t leaf = job * kLeavesPerJob; leaf < end; ++leaf) {
            const int32_t own = region[leaf];
            if (own < 0) continue;
            for (const ConvexFace& face : cells[leaf].faces) {
                if (face.tag == kWorldBoxFace) {
                    out.push_back({int32_t(leaf), -1, face.polygon, face.plane.normal});
                    continue;
                }
                pushPolygon(tree, tree.root, face.polygon, face.plane.normal, [&](int32_t across, Polygon&& piece) {
                    // The leaf itself: nothing across (a cell cut down to a sliver).
                    if (across == int32_t(leaf) || regionOf(across) != own)
                        out.push_back({int32_t(leaf), across == int32_t(leaf) ? -1 : across, std::move(piece), face.plane.normal});
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

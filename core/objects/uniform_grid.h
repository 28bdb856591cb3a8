#pragma once
// The broad phase's first filter (the collision seed's "Segregation is Good"): a uniform
// grid over the ground plane (x, y) into which every object and agent box is filed under
// each cell it overlaps. Two things can only touch when they share a cell. Two-dimensional
// on purpose, as the seed's: levels are walked over, few things are stacked.
#include "geometry/aabb.h"

#include <cstdint>
#include <span>
#include <vector>

namespace shallot {

// At most this many cells: a grid over a huge box gets larger cells instead.
inline constexpr int64_t kMaxGridCells = int64_t(1) << 20;

class UniformGrid {
public:
    // Files box i of `boxes` (empty boxes are left out) under every cell of side `cellSize`
    // (at least 1; larger when the extent would need more than kMaxGridCells) it overlaps.
    // `extent` is the part of the plane the cells cover; boxes reaching past it are filed
    // under the edge cells, so no pair is ever missed. Counting sort: O(boxes + cells).
    void build(const Aabb& extent, double cellSize, std::span<const Aabb> boxes);

    size_t boxCount() const { return boxCount_; }
    double cellSize() const { return cell_; }

    // Calls f(id) once for every box sharing a cell with `query` (ids of `build`, once each
    // however many cells they share). `stamps` (at least boxCount() entries, owned by the
    // caller, one per thread) and `stamp` (a fresh value per call, never 0) tell which ids
    // were already seen.
    template <class F>
    void forEachNear(const Aabb& query, std::vector<uint32_t>& stamps, uint32_t stamp, const F& f) const {
        if (boxCount_ == 0 || query.empty()) return;
        const auto [x0, x1] = cellRange(query.mins.x(), query.maxs.x(), 0);
        const auto [y0, y1] = cellRange(query.mins.y(), query.maxs.y(), 1);
        for (int64_t y = y0; y <= y1; ++y)
            for (int64_t x = x0; x <= x1; ++x) {
                const size_t cell = size_t(y * nx_ + x);
                for (uint32_t k = starts_[cell]; k < starts_[cell + 1]; ++k) {
                    const uint32_t id = ids_[k];
                    if (stamps[id] == stamp) continue;
                    stamps[id] = stamp;
                    f(id);
                }
            }
    }

private:
    std::pair<int64_t, int64_t> cellRange(double lo, double hi, int axis) const;

    Vec3 origin_ = Vec3::Zero();
    double cell_ = 1.0;
    int64_t nx_ = 0, ny_ = 0;
    size_t boxCount_ = 0;
    std::vector<uint32_t> starts_; // cell c holds ids_[starts_[c], starts_[c + 1])
    std::vector<uint32_t> ids_;
};

} // namespace shallot

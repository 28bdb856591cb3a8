#include "objects/uniform_grid.h"

#include <algorithm>
#include <cmath>

namespace shallot {

std::pair<int64_t, int64_t> UniformGrid::cellRange(double lo, double hi, int axis) const {
    const int64_t n = axis == 0 ? nx_ : ny_;
    auto cellOf = [&](double v) {
        const double c = std::floor((v - origin_[axis]) / cell_);
        // NaN and far-out coordinates land in the edge cells (the comparisons are false for NaN).
        if (!(c > 0.0)) return int64_t(0);
        if (!(c < double(n - 1))) return n - 1;
        return int64_t(c);
    };
    return {cellOf(lo), cellOf(hi)};
}

void UniformGrid::build(const Aabb& extentIn, double cellSize, std::span<const Aabb> boxes) {
    boxCount_ = boxes.size();
    Aabb extent = extentIn;
    // An extent whose size overflows (corners near +-DBL_MAX, as a hostile file can give)
    // is treated as empty too: every box then lands in the one cell.
    if (extent.empty() || !(extent.maxs - extent.mins).allFinite())
        extent = {Vec3::Zero(), Vec3::Zero()};
    origin_ = extent.mins;
    cell_ = std::isfinite(cellSize) ? std::max(cellSize, 1.0) : 1.0;
    const Vec3 size = extent.maxs - extent.mins;
    // Counted in doubles: a huge extent over a small cell does not fit an int64_t.
    for (;;) {
        const double cellsX = std::floor(size.x() / cell_) + 1.0;
        const double cellsY = std::floor(size.y() / cell_) + 1.0;
        if (cellsX * cellsY <= double(kMaxGridCells)) {
            nx_ = int64_t(cellsX);
            ny_ = int64_t(cellsY);
            break;
        }
        cell_ *= 2.0;
    }
    const size_t cells = size_t(nx_ * ny_);
    starts_.assign(cells + 1, 0);
    // Two passes of the same cell walk: count, then fill (counting sort by cell).
    auto forEachCell = [&](const Aabb& b, auto&& f) {
        const auto [x0, x1] = cellRange(b.mins.x(), b.maxs.x(), 0);
        const auto [y0, y1] = cellRange(b.mins.y(), b.maxs.y(), 1);
        for (int64_t y = y0; y <= y1; ++y)
            for (int64_t x = x0; x <= x1; ++x) f(size_t(y * nx_ + x));
    };
    for (const Aabb& b : boxes)
        if (!b.empty()) forEachCell(b, [&](size_t c) { ++starts_[c + 1]; });
    for (size_t c = 0; c < cells; ++c) starts_[c + 1] += starts_[c];
    ids_.resize(starts_[cells]);
    std::vector<uint32_t> fill(starts_.begin(), starts_.end() - 1);
    for (size_t i = 0; i < boxes.size(); ++i)
        if (!boxes[i].empty()) forEachCell(boxes[i], [&](size_t c) { ids_[fill[c]++] = uint32_t(i); });
}

} // namespace shallot

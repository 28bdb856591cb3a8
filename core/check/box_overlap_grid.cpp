#include "check/box_overlap_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace shallot {

std::vector<std::pair<int, int>> overlappingBoxPairs(const std::vector<Aabb>& boxes, double depth) {
    std::vector<std::pair<int, int>> pairs;
    if (boxes.size() < 2) return pairs;
    Aabb all;
    Vec3 cell = Vec3::Constant(1.0);
    for (const Aabb& b : boxes) {
        all.add(b);
        cell = cell.cwiseMax(b.maxs - b.mins);
    }
    // At most 2^20 cells per axis: cells grow for worlds of tiny boxes spread far apart.
    const Vec3 span = all.maxs - all.mins;
    for (int k = 0; k < 3; ++k) cell[k] = std::max(cell[k], span[k] / double(1 << 20));

    auto cellOf = [&](const Vec3& p) {
        Eigen::Vector3i c;
        for (int k = 0; k < 3; ++k) c[k] = int(std::floor((p[k] - all.mins[k]) / cell[k]));
        return c;
    };
    auto key = [](const Eigen::Vector3i& c) {
        return (uint64_t(uint32_t(c[0]) & 0x1fffffu) << 42) | (uint64_t(uint32_t(c[1]) & 0x1fffffu) << 21) |
               uint64_t(uint32_t(c[2]) & 0x1fffffu);
    };

    // Boxes sorted by cell; each cell's run [first, last) in `order`.
    std::vector<std::pair<uint64_t, int>> sorted(boxes.size());
    std::vector<Eigen::Vector3i> cells(boxes.size());
    for (size_t i = 0; i < boxes.size(); ++i) {
        cells[i] = cellOf(boxes[i].mins);
        sorted[i] = {key(cells[i]), int(i)};
    }
    std::sort(sorted.begin(), sorted.end());
    std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> runs;
    runs.reserve(sorted.size());
    for (uint32_t i = 0; i < sorted.size();) {
        uint32_t j = i;
        while (j < sorted.size() && sorted[j].first == sorted[i].first) ++j;
        runs.emplace(sorted[i].first, std::make_pair(i, j));
        i = j;
    }

    for (size_t i = 0; i < boxes.size(); ++i)
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const Eigen::Vector3i c = cells[i] + Eigen::Vector3i(dx, dy, dz);
                    if ((c.array() < 0).any()) continue;
                    const auto run = runs.find(key(c));
                    if (run == runs.end()) continue;
                    for (uint32_t s = run->second.first; s < run->second.second; ++s) {
                        const int j = sorted[s].second;
                        if (j > int(i) && boxesOverlap(boxes[i], boxes[size_t(j)], depth)) pairs.emplace_back(int(i), j);
                    }
                }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace shallot

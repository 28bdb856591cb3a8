#include "light/sample_points.h"

#include <numeric>

namespace shallot {

namespace {

// One texel step of `v` towards `mid`, not past it.
double towards(double v, double mid) {
    if (v > mid) return std::max(mid, v - kSampleStep);
    return std::min(mid, v + kSampleStep);
}

} // namespace

std::vector<Vec3> samplePointsAt(const LuxelGrid& grid, const std::vector<int>& columns, const std::vector<int>& rows,
                                 const LightOccluder& occluder, size_t* tests) {
    const double midS = (grid.exactMins[0] + grid.exactMaxs[0]) / 2, midT = (grid.exactMins[1] + grid.exactMaxs[1]) / 2;
    const Vec3 faceMid = grid.pointAt(midS, midT);
    std::vector<Vec3> points;
    points.reserve(columns.size() * rows.size());
    size_t count = 0;
    for (int j : rows) {
        for (int i : columns) {
            double s = grid.luxelS(i), t = grid.luxelT(j);
            Vec3 p = grid.pointAt(s, t);
            bool clear = false;
            for (int move = 0; move < kSampleMoves && !clear; ++move) {
                p = grid.pointAt(s, t);
                ++count;
                clear = !occluder.blocked(faceMid, p);
                if (clear) break;
                if (move & 1) s = towards(s, midS);
                else t = towards(t, midT);
            }
            if (!clear) {
                const Vec3 toMid = faceMid - p;
                if (toMid.norm() > 0) p += toMid.normalized() * kSampleStep;
            }
            points.push_back(p);
        }
    }
    if (tests) *tests += count;
    return points;
}

std::vector<Vec3> samplePoints(const LuxelGrid& grid, const LightOccluder& occluder, size_t* tests) {
    std::vector<int> columns(size_t(grid.width())), rows(size_t(grid.height()));
    std::iota(columns.begin(), columns.end(), 0);
    std::iota(rows.begin(), rows.end(), 0);
    return samplePointsAt(grid, columns, rows, occluder, tests);
}

} // namespace shallot

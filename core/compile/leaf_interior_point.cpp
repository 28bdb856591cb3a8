#include "compile/leaf_interior_point.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// Simplex pivots on entries smaller than this are treated as zero.
constexpr double kPivotEpsilon = 1e-12;
// Bland's rule cannot cycle; this only bounds the work on pathological input.
constexpr int kMaxPivots = 2000;

} // namespace

InteriorPoint chebyshevCentre(const std::vector<Plane>& planes, const Vec3& start) {
    // Variables: y+ (3), y- (3), r, with x = start + y+ - y-; then one slack per plane.
    const int m = int(planes.size());
    constexpr int kVars = 7;
    const int cols = kVars + m + 1; // + right-hand side
    std::vector<double> t(size_t(m) * size_t(cols), 0.0);
    auto at = [&](int row, int col) -> double& { return t[size_t(row) * size_t(cols) + size_t(col)]; };
    std::vector<int> basis(static_cast<size_t>(m));
    for (int i = 0; i < m; ++i) {
        const Vec3& n = planes[size_t(i)].normal;
        for (int k = 0; k < 3; ++k) {
            at(i, k) = n[k];
            at(i, 3 + k) = -n[k];
        }
        at(i, 6) = 1.0;
        at(i, kVars + i) = 1.0;
        at(i, cols - 1) = std::max(0.0, -planes[size_t(i)].signedDistance(start));
        basis[size_t(i)] = kVars + i;
    }
    std::vector<double> cost(size_t(cols - 1), 0.0); // reduced costs of the objective "max r"
    cost[6] = 1.0;
    for (int pivot = 0; pivot < kMaxPivots; ++pivot) {
        int enter = -1;
        for (int j = 0; j < cols - 1; ++j)
            if (cost[size_t(j)] > kPivotEpsilon) { enter = j; break; }
        if (enter < 0) break; // optimal
        int leave = -1;
        double best = std::numeric_limits<double>::infinity();
        for (int i = 0; i < m; ++i) {
            const double a = at(i, enter);
            if (a <= kPivotEpsilon) continue;
            const double ratio = at(i, cols - 1) / a;
            if (ratio < best || (leave >= 0 && ratio == best && basis[size_t(i)] < basis[size_t(leave)])) {
                best = ratio;
                leave = i;
            }
        }
        if (leave < 0) break; // unbounded: cannot happen for a bounded cell
        const double p = at(leave, enter);
        for (int j = 0; j < cols; ++j) at(leave, j) /= p;
        for (int i = 0; i < m; ++i) {
            if (i == leave) continue;
            const double f = at(i, enter);
            if (f == 0.0) continue;
            for (int j = 0; j < cols; ++j) at(i, j) -= f * at(leave, j);
        }
        const double f = cost[size_t(enter)];
        for (int j = 0; j < cols - 1; ++j) cost[size_t(j)] -= f * at(leave, j);
        basis[size_t(leave)] = enter;
    }
    double value[kVars] = {};
    for (int i = 0; i < m; ++i)
        if (basis[size_t(i)] < kVars) value[basis[size_t(i)]] = at(i, cols - 1);
    InteriorPoint out;
    out.point = start + Vec3(value[0] - value[3], value[1] - value[4], value[2] - value[5]);
    out.clearance = std::numeric_limits<double>::infinity();
    for (const Plane& pl : planes) out.clearance = std::min(out.clearance, -pl.signedDistance(out.point));
    return out;
}

InteriorPoint leafInteriorPoint(const ConvexPolyhedron& cell) {
    const Vec3 centroid = cell.vertexCentroid();
    const double clearance = cell.clearance(centroid);
    if (clearance >= kComfortableClearance) return {centroid, clearance};
    std::vector<Plane> planes;
    planes.reserve(cell.faces.size());
    for (const ConvexFace& f : cell.faces) planes.push_back(f.plane);
    InteriorPoint best = chebyshevCentre(planes, centroid);
    if (!(best.clearance >= clearance) || !best.point.allFinite()) return {centroid, clearance};
    return best;
}

} // namespace shallot

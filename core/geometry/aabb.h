#pragma once
#include "geometry/plane.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace shallot {

struct Aabb {
    Vec3 mins = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 maxs = Vec3::Constant(-std::numeric_limits<double>::infinity());

    bool empty() const { return (mins.array() > maxs.array()).any(); }
    void add(const Vec3& p) {
        mins = mins.cwiseMin(p);
        maxs = maxs.cwiseMax(p);
    }
    void add(const Aabb& b) {
        mins = mins.cwiseMin(b.mins);
        maxs = maxs.cwiseMax(b.maxs);
    }
    // Closed-interval overlap, grown by `margin` on every side.
    bool overlaps(const Aabb& b, double margin = 0.0) const {
        return (mins.array() <= b.maxs.array() + margin).all() &&
               (b.mins.array() <= maxs.array() + margin).all();
    }
    bool contains(const Vec3& p, double margin = 0.0) const {
        return (p.array() >= mins.array() - margin).all() && (p.array() <= maxs.array() + margin).all();
    }
    // The same corners, exactly.
    bool operator==(const Aabb&) const = default;
};

// Where the segment a..b is inside the closed box: [t0, t1] along it, or nothing (the
// slab test).
inline std::optional<std::pair<double, double>> clipSegmentToBox(const Vec3& a, const Vec3& b, const Aabb& box) {
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 3; ++i) {
        const double d = b[i] - a[i];
        if (d == 0.0) {
            if (a[i] < box.mins[i] || a[i] > box.maxs[i]) return std::nullopt;
            continue;
        }
        double t0 = (box.mins[i] - a[i]) / d, t1 = (box.maxs[i] - a[i]) / d;
        if (t0 > t1) std::swap(t0, t1);
        lo = std::max(lo, t0);
        hi = std::min(hi, t1);
        if (lo > hi) return std::nullopt;
    }
    return std::make_pair(lo, hi);
}

// Whether the segment a..b meets the closed box.
inline bool segmentMeetsBox(const Vec3& a, const Vec3& b, const Aabb& box) { return clipSegmentToBox(a, b, box).has_value(); }

} // namespace shallot

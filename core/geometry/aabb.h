#pragma once
#include "geometry/plane.h"

#include <limits>

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

} // namespace shallot

#pragma once
#include "geometry/plane.h"
#include "geometry/tolerances.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace shallot {

// Index into a PlanePool. Planes are stored in pairs: id ^ 1 is the same plane facing the
// other way, so coplanarity is a comparison of ids (a >> 1 == b >> 1), not of floats.
using PlaneId = int32_t;

inline bool sameSurface(PlaneId a, PlaneId b) { return (a >> 1) == (b >> 1); }

// Deduplicating store of planes (Quake calls it the plane table). A plane that stays within
// kPlaneMergeDistance of an entry everywhere in the world box (|x| <= worldExtent on every
// axis) maps to that entry, and a normal is snapped onto an axis under the same condition
// so that axial planes compare exactly: a polygon tagged with a pool plane lies on it to
// far better than kOnPlaneEpsilon.
class PlanePool {
public:
    PlanePool() = default;
    explicit PlanePool(double worldExtent) : worldExtent_(worldExtent) {}
    PlaneId insert(const Plane& plane);
    const Plane& operator[](PlaneId id) const { return planes_[size_t(id)]; }
    size_t size() const { return planes_.size(); }
    const std::vector<Plane>& planes() const { return planes_; }

private:
    struct Key {
        int64_t dist, nx, ny, nz;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const;
    };
    static Key keyOf(const Plane& canonical, int64_t distBucketOffset);
    double separation(const Plane& a, const Plane& b) const;
    Plane snapped(Plane plane) const;
    double worldExtent_ = kDefaultWorldExtent;
    std::vector<Plane> planes_;
    std::unordered_multimap<Key, PlaneId, KeyHash> index_;
};

} // namespace shallot

#include "geometry/plane_pool.h"

#include "geometry/tolerances.h"

#include <cmath>

namespace shallot {

namespace {

// The canonical orientation of a plane has its largest normal component positive.
bool isCanonical(const Vec3& n) {
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(n[i]) > std::abs(n[axis])) axis = i;
    return n[axis] > 0;
}

constexpr double kDistBucket = 1.0;     // bucket width of the distance in the hash key
constexpr double kNormalBucket = 1e-3;  // bucket width of each normal component

} // namespace

// The largest distance between the two planes at a point of the world box:
// |(na - nb) . x - (da - db)| <= |na - nb|_1 * extent + |da - db|.
double PlanePool::separation(const Plane& a, const Plane& b) const {
    return (a.normal - b.normal).lpNorm<1>() * worldExtent_ + std::abs(a.dist - b.dist);
}

Plane PlanePool::snapped(Plane p) const {
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(p.normal[i]) > std::abs(p.normal[axis])) axis = i;
    Plane axial{Vec3::Zero(), p.dist};
    axial.normal[axis] = p.normal[axis] > 0 ? 1.0 : -1.0;
    if (separation(p, axial) <= kPlaneMergeDistance) p = axial;
    // Distances within a hair of an integer are almost always meant to be integral.
    const double rounded = std::round(p.dist);
    if (std::abs(p.dist - rounded) < 1e-9) p.dist = rounded;
    return p;
}

size_t PlanePool::KeyHash::operator()(const Key& k) const {
    size_t h = size_t(k.dist) * 0x9E3779B97F4A7C15ull;
    h ^= size_t(k.nx) * 0xC2B2AE3D27D4EB4Full + (h << 6);
    h ^= size_t(k.ny) * 0x165667B19E3779F9ull + (h >> 2);
    h ^= size_t(k.nz) * 0x27D4EB2F165667C5ull + (h << 3);
    return h;
}

PlanePool::Key PlanePool::keyOf(const Plane& p, int64_t offset) {
    return {int64_t(std::floor(p.dist / kDistBucket)) + offset,
            int64_t(std::llround(p.normal.x() / kNormalBucket)),
            int64_t(std::llround(p.normal.y() / kNormalBucket)),
            int64_t(std::llround(p.normal.z() / kNormalBucket))};
}

PlaneId PlanePool::insert(const Plane& input) {
    Plane plane = snapped(input);
    const bool canonical = isCanonical(plane.normal);
    const Plane c = canonical ? plane : plane.flipped();
    // A near-equal plane may sit in the neighbouring distance bucket. (Normals that
    // straddle a normal bucket boundary are not merged; they stay separate planes and
    // the epsilon classification treats them as coplanar where it matters.)
    for (int64_t offset = -1; offset <= 1; ++offset) {
        auto [first, last] = index_.equal_range(keyOf(c, offset));
        for (auto it = first; it != last; ++it)
            if (separation(planes_[size_t(it->second)], c) <= kPlaneMergeDistance)
                return canonical ? it->second : (it->second ^ 1);
    }
    const PlaneId id = PlaneId(planes_.size());
    planes_.push_back(c);
    planes_.push_back(c.flipped());
    index_.emplace(keyOf(c, 0), id);
    return canonical ? id : (id ^ 1);
}

} // namespace shallot

#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <optional>

namespace shallot {

using Vec3 = Eigen::Vector3d;

// Oriented plane {x : normal . x = dist}; the front is where normal . x > dist.
// Brush planes point outward: the solid is behind them.
struct Plane {
    Vec3 normal = Vec3::UnitZ();
    double dist = 0.0;

    double signedDistance(const Vec3& p) const { return normal.dot(p) - dist; }
    Plane flipped() const { return {-normal, -dist}; }

    // The plane through three points, normal = (a - b) x (c - b) as Quake defines it;
    // empty when the points are (nearly) collinear or not finite.
    static std::optional<Plane> fromPoints(const Vec3& a, const Vec3& b, const Vec3& c);
    bool isFinite() const { return normal.allFinite() && std::isfinite(dist); }
    // Index of the axis the normal is exactly parallel to, or -1.
    int axis() const;
};

// Three points with integer coordinates on `plane`, for writing it to a .map exactly: empty
// unless the plane is, to rounding, {x : m . x = c} with m a vector of integers up to
// kMaxIntegralNormal (after dividing by their gcd) and c an integer, and the plane through
// the points (Plane::fromPoints, as a .map reader computes it) differs from `plane` by at most
// `tolerance` in every normal component and in distance. The points lie near `near`,
// about `spread` apart where the plane's integer lattice allows, in Quake's order
// ((p0 - p1) x (p2 - p1) points along the normal).
// 2^20: every line between integral points of the world (+-65536) seen along an axis.
inline constexpr long long kMaxIntegralNormal = 1LL << 20;
std::optional<std::array<Vec3, 3>> integralPointsOn(const Plane& plane, const Vec3& near, double spread,
                                                    double tolerance);

enum class Side { Front, Back, On, Straddle };

} // namespace shallot

#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
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

enum class Side { Front, Back, On, Straddle };

} // namespace shallot

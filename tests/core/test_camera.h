#pragma once
// A perspective camera for the tests of portal culling: OpenGL clip matrices as the 3D
// view makes them.
#include "geometry/aabb.h"

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

namespace shallot::test {

inline constexpr double kFieldOfViewDegrees = 90.0;
inline constexpr double kAspect = 1.6;
inline constexpr double kNear = 1.0, kFar = 1e5;

struct Camera {
    Vec3 eye, forward, right, up;
    Eigen::Matrix4d clip; // OpenGL perspective times look-at
};

inline Camera camera(const Vec3& eye, const Vec3& forward) {
    Camera c{eye, forward.normalized(), Vec3::Zero(), Vec3::Zero(), Eigen::Matrix4d::Identity()};
    c.right = c.forward.cross(std::abs(c.forward.z()) < 0.99 ? Vec3::UnitZ() : Vec3::UnitX()).normalized();
    c.up = c.right.cross(c.forward);
    Eigen::Matrix4d view = Eigen::Matrix4d::Identity();
    view.row(0).head<3>() = c.right;
    view.row(1).head<3>() = c.up;
    view.row(2).head<3>() = -c.forward;
    view(0, 3) = -c.right.dot(eye);
    view(1, 3) = -c.up.dot(eye);
    view(2, 3) = c.forward.dot(eye);
    const double f = 1.0 / std::tan(kFieldOfViewDegrees * std::numbers::pi / 360.0);
    Eigen::Matrix4d projection = Eigen::Matrix4d::Zero();
    projection(0, 0) = f / kAspect;
    projection(1, 1) = f;
    projection(2, 2) = (kFar + kNear) / (kNear - kFar);
    projection(2, 3) = 2 * kFar * kNear / (kNear - kFar);
    projection(3, 2) = -1;
    c.clip = projection * view;
    return c;
}

// True when p projects inside the view (between the near and far planes).
inline bool inView(const Camera& c, const Vec3& p) {
    const Eigen::Vector4d q = c.clip * Eigen::Vector4d(p.x(), p.y(), p.z(), 1.0);
    return q.w() > kNear && std::abs(q.x()) <= q.w() && std::abs(q.y()) <= q.w() && std::abs(q.z()) <= q.w();
}

} // namespace shallot::test

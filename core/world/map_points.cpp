#include "world/map_points.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace shallot {

double withoutIntegerNoise(double v) {
    const double r = std::round(v);
    return std::abs(v - r) <= kIntegerSnapDistance ? r + 0.0 : v; // + 0.0: never -0
}

Vec3 withoutIntegerNoise(const Vec3& v) {
    return {withoutIntegerNoise(v[0]), withoutIntegerNoise(v[1]), withoutIntegerNoise(v[2])};
}

bool pointsGivePlane(const std::array<Vec3, 3>& points, const Plane& plane) {
    const std::optional<Plane> q = Plane::fromPoints(points[0], points[1], points[2]);
    return q && (q->normal - plane.normal).cwiseAbs().maxCoeff() <= kMapPointPlaneMatch &&
           std::abs(q->dist - plane.dist) <= kMapPointPlaneMatch;
}

bool hasValidPoints(const BrushSide& side) { return side.hasPoints && pointsGivePlane(side.points, side.plane); }

namespace {

bool integral(const std::array<Vec3, 3>& points) {
    return std::all_of(points.begin(), points.end(), [](const Vec3& p) { return p == p.array().round().matrix(); });
}

} // namespace

std::array<Vec3, 3> facePoints(const Plane& plane, const Polygon& face) {
    const std::vector<Vec3>& v = face.vertices;
    std::array<size_t, 3> best{0, 1, 2};
    double bestArea = -1.0;
    for (size_t i = 0; i < v.size(); ++i)
        for (size_t j = i + 1; j < v.size(); ++j)
            for (size_t k = j + 1; k < v.size(); ++k) {
                const double area = (v[j] - v[i]).cross(v[k] - v[i]).squaredNorm();
                if (area > bestArea) {
                    bestArea = area;
                    best = {i, j, k};
                }
            }
    std::array<Vec3, 3> p;
    for (size_t k = 0; k < 3; ++k) p[k] = v[best[k]] - plane.normal * plane.signedDistance(v[best[k]]);
    if ((p[0] - p[1]).cross(p[2] - p[1]).dot(plane.normal) < 0.0) std::swap(p[0], p[2]);

    std::array<Vec3, 3> rounded;
    for (size_t k = 0; k < 3; ++k) rounded[k] = p[k].array().round().matrix();
    if (pointsGivePlane(rounded, plane)) return rounded;

    Vec3 centre = Vec3::Zero();
    for (const Vec3& x : v) centre += x;
    centre /= double(v.size());
    double radius = 0.0;
    for (const Vec3& x : v) radius = std::max(radius, (x - centre).norm());
    if (const auto lattice = integralPointsOn(plane, centre, radius, kMapPointPlaneMatch)) return *lattice;
    for (Vec3& x : p) x = withoutIntegerNoise(x);
    return p;
}

bool settleSideOnPoints(BrushSide& side, const Polygon& face) {
    const bool valid = hasValidPoints(side);
    if (!valid && face.empty()) return false;
    std::array<Vec3, 3> points = side.points;
    if (!valid) points = facePoints(side.plane, face);
    else if (!integral(points) && !face.empty()) {
        const std::array<Vec3, 3> onGrid = facePoints(side.plane, face);
        if (integral(onGrid)) points = onGrid;
    }
    for (Vec3& p : points) p = withoutIntegerNoise(p);
    const std::optional<Plane> plane = Plane::fromPoints(points[0], points[1], points[2]);
    if (!plane) return false;
    side.points = points;
    side.hasPoints = true;
    side.plane = *plane;
    return true;
}

} // namespace shallot

#include "geometry/polygon.h"

#include "geometry/tolerances.h"

#include <cmath>

namespace shallot {

double polygonArea(std::span<const Vec3> vertices) {
    if (vertices.size() < 3) return 0.0;
    Vec3 sum = Vec3::Zero();
    for (size_t i = 1; i + 1 < vertices.size(); ++i)
        sum += (vertices[i] - vertices[0]).cross(vertices[i + 1] - vertices[0]);
    return 0.5 * sum.norm();
}

Vec3 polygonCentroid(std::span<const Vec3> vertices) {
    Vec3 sum = Vec3::Zero();
    for (const Vec3& v : vertices) sum += v;
    return vertices.empty() ? sum : Vec3(sum / double(vertices.size()));
}

double Polygon::area() const { return polygonArea(vertices); }

Vec3 Polygon::centroid() const { return polygonCentroid(vertices); }

Polygon baseWinding(const Plane& plane, double extent) {
    const Vec3& n = plane.normal;
    // Pick the world axis least aligned with the normal to build a tangent frame.
    int minAxis = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(n[i]) < std::abs(n[minAxis])) minAxis = i;
    Vec3 up = Vec3::Zero();
    up[minAxis] = 1.0;
    const Vec3 u = n.cross(up).normalized() * extent; // u x v = n * extent^2
    const Vec3 v = n.cross(u);
    const Vec3 origin = n * plane.dist;
    return Polygon{{origin - u - v, origin + u - v, origin + u + v, origin - u + v}};
}

Side classify(const Polygon& polygon, const Plane& plane, double epsilon) {
    bool front = false, back = false;
    for (const Vec3& v : polygon.vertices) {
        const double d = plane.signedDistance(v);
        if (d > epsilon) front = true;
        else if (d < -epsilon) back = true;
    }
    if (front && back) return Side::Straddle;
    if (front) return Side::Front;
    if (back) return Side::Back;
    return Side::On;
}

namespace {
void dropIfDegenerate(Polygon& p) {
    if (p.vertices.size() < 3 || p.area() < kMinPolygonArea) p.vertices.clear();
}
} // namespace

SplitPolygon split(const Polygon& polygon, const Plane& plane, double epsilon) {
    SplitPolygon out;
    const size_t n = polygon.vertices.size();
    std::vector<double> dist(n);
    for (size_t i = 0; i < n; ++i) dist[i] = plane.signedDistance(polygon.vertices[i]);
    out.front.vertices.reserve(n + 1);
    out.back.vertices.reserve(n + 1);
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = polygon.vertices[i];
        const double da = dist[i];
        const Vec3& b = polygon.vertices[(i + 1) % n];
        const double db = dist[(i + 1) % n];
        if (da >= -epsilon) out.front.vertices.push_back(a);
        if (da <= epsilon) out.back.vertices.push_back(a);
        if ((da > epsilon && db < -epsilon) || (da < -epsilon && db > epsilon)) {
            const double t = da / (da - db);
            Vec3 mid = a + t * (b - a);
            // Coordinates of axial planes are exact: do not let rounding move them.
            if (const int k = plane.axis(); k >= 0) mid[k] = plane.normal[k] * plane.dist;
            out.front.vertices.push_back(mid);
            out.back.vertices.push_back(mid);
        }
    }
    dropIfDegenerate(out.front);
    dropIfDegenerate(out.back);
    return out;
}

Polygon clip(const Polygon& polygon, const Plane& plane, double epsilon, bool keepFront) {
    SplitPolygon s = split(polygon, plane, epsilon);
    return keepFront ? std::move(s.front) : std::move(s.back);
}

} // namespace shallot

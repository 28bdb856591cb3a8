#include "geometry/axis_section.h"

#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

// The points where a polygon's boundary meets the plane: its vertices on it and the
// crossings of its edges.
void crossings(std::span<const Vec3> polygon, int axis, double at, std::vector<Vec3>& out) {
    const size_t n = polygon.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = polygon[i];
        const Vec3& b = polygon[(i + 1) % n];
        const double da = a[axis] - at, db = b[axis] - at;
        if (da == 0.0) out.push_back(a);
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
            Vec3 p = a + (b - a) * (da / (da - db));
            p[axis] = at; // exactly on the plane
            out.push_back(p);
        }
    }
}

// The convex polygon through the points where the cell's faces meet the plane (their
// vertices on it and their edges' crossings).
Polygon sectionThroughCrossings(const ConvexPolyhedron& cell, int axis, double at) {
    std::vector<Vec3> points;
    for (const ConvexFace& f : cell.faces) crossings(f.polygon.vertices, axis, at, points);
    if (points.size() < 3) return {};
    // The points lie on the convex section's boundary: ordered by angle around their mean
    // in the plane's (u, v) axes, duplicates (a vertex shared by faces) dropped.
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    Vec3 centre = Vec3::Zero();
    for (const Vec3& p : points) centre += p;
    centre /= double(points.size());
    auto angle = [&](const Vec3& p) { return std::atan2(p[v] - centre[v], p[u] - centre[u]); };
    std::sort(points.begin(), points.end(), [&](const Vec3& a, const Vec3& b) { return angle(a) < angle(b); });
    Polygon out;
    for (const Vec3& p : points)
        if (out.vertices.empty() || (p - out.vertices.back()).norm() > kSectionMergeDistance) out.vertices.push_back(p);
    while (out.vertices.size() > 1 && (out.vertices.front() - out.vertices.back()).norm() <= kSectionMergeDistance)
        out.vertices.pop_back();
    if (out.vertices.size() < 3) return {};
    return out;
}

} // namespace

Polygon axisSection(const ConvexPolyhedron& cell, int axis, double at) {
    const Aabb box = cell.bounds();
    if (cell.empty() || !(box.mins[axis] < at && at < box.maxs[axis])) return {};
    return sectionThroughCrossings(cell, axis, at);
}

Polygon axisSectionFromAbove(const ConvexPolyhedron& cell, int axis, double at) {
    for (const ConvexFace& f : cell.faces)
        if (f.plane.axis() == axis && f.plane.normal[axis] < 0 && -f.plane.dist == at && !f.polygon.empty()) {
            // Resting on the plane: the face lying in it, which winds counter-clockwise seen
            // from below.
            Polygon out;
            out.vertices.assign(f.polygon.vertices.rbegin(), f.polygon.vertices.rend());
            for (Vec3& v : out.vertices) v[axis] = at;
            return out;
        }
    return axisSection(cell, axis, at);
}

std::optional<std::pair<Vec3, Vec3>> axisSection(std::span<const Vec3> polygon, int axis, double at) {
    std::vector<Vec3> points;
    crossings(polygon, axis, at, points);
    if (points.size() < 2) return std::nullopt;
    // Convex: the crossings lie on one segment; its ends are the two farthest apart.
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    auto range = [&](int k) {
        const auto [a, b] = std::minmax_element(points.begin(), points.end(), [&](const Vec3& p, const Vec3& q) { return p[k] < q[k]; });
        return (*b)[k] - (*a)[k];
    };
    const int along = range(u) >= range(v) ? u : v;
    const auto [lo, hi] = std::minmax_element(points.begin(), points.end(),
                                              [&](const Vec3& a, const Vec3& b) { return a[along] < b[along]; });
    if ((*hi - *lo).norm() <= kSectionMergeDistance) return std::nullopt;
    // A polygon lying in the plane has every vertex on it: that is no crossing.
    if (std::all_of(polygon.begin(), polygon.end(), [&](const Vec3& p) { return p[axis] == at; })) return std::nullopt;
    return std::make_pair(*lo, *hi);
}

} // namespace shallot

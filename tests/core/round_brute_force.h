#pragma once
// Brute force for round poses, independent of the exact code (query/round_shape_*), which
// works from faces, edges and vertices; here only the brush's vertices are used.
//  - bruteClearance: the distance from the shape's core to the brush minus the shape's
//    radius (in the ellipsoid's unit-sphere space), as the smallest norm over the convex
//    hull of core ends minus vertices (every point, segment and triangle of them, checked
//    by the optimality condition: 0 when the hull holds the origin).
//  - bruteGap: the best separating direction, max over unit n of (min over brush vertices
//    of n.y) - (max over the shape of n.x), by dense sampling of directions and hill
//    climbing: a lower bound of the world distance, for the contact normals.
#include "world/brush_geometry.h"
#include "world/pose_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace shallot::test {

// The shape's support h(n) = max over the shape of n.(x - centre).
inline double shapeSupport(const PoseShape& s, const Vec3& n) {
    if (s.kind == PoseShapeKind::Ellipsoid)
        return std::sqrt(s.radius * s.radius * (n.x() * n.x() + n.y() * n.y()) + s.height * s.height * n.z() * n.z());
    return s.radius * n.norm() + std::abs(n.z()) * (0.5 * s.height - s.radius);
}

inline double gapAlong(const BrushGeometry& brush, const PoseShape& s, const Vec3& centre, const Vec3& n) {
    double lowest = std::numeric_limits<double>::infinity();
    for (const Vec3& v : brush.vertices) lowest = std::min(lowest, n.dot(v));
    return lowest - n.dot(centre) - shapeSupport(s, n);
}

// Directions spread evenly over the sphere (a Fibonacci lattice).
inline const std::vector<Vec3>& sphereDirections() {
    static const std::vector<Vec3> directions = [] {
        constexpr int kCount = 600;
        std::vector<Vec3> d;
        const double golden = M_PI * (3.0 - std::sqrt(5.0));
        for (int i = 0; i < kCount; ++i) {
            const double z = 1.0 - 2.0 * (i + 0.5) / kCount, r = std::sqrt(1.0 - z * z);
            d.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
        }
        return d;
    }();
    return directions;
}

inline double bruteGap(const BrushGeometry& brush, const PoseShape& s, const Vec3& centre) {
    Vec3 best = Vec3::UnitZ();
    double bestGap = -std::numeric_limits<double>::infinity();
    for (const Vec3& n : sphereDirections()) {
        const double g = gapAlong(brush, s, centre, n);
        if (g > bestGap) {
            bestGap = g;
            best = n;
        }
    }
    int climbs = 0;
    // Hill climbing on the sphere: tilt towards eight tangent directions, halving the tilt
    // when none is better.
    for (double step = 0.1; step > 1e-10 && ++climbs < 2000;) {
        const Vec3 t1 = best.unitOrthogonal(), t2 = best.cross(t1);
        bool improved = false;
        for (int k = 0; k < 8; ++k) {
            const double a = k * M_PI / 4.0;
            const Vec3 n = (best + step * (std::cos(a) * t1 + std::sin(a) * t2)).normalized();
            const double g = gapAlong(brush, s, centre, n);
            if (g > bestGap) {
                bestGap = g;
                best = n;
                improved = true;
            }
        }
        if (!improved) step *= 0.5;
    }
    return bestGap;
}

// Ericson, Real-Time Collision Detection 5.1.5: the point of triangle abc closest to the origin.
inline Vec3 closestToOriginOnTriangle(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 ab = b - a, ac = c - a, ap = -a;
    const double d1 = ab.dot(ap), d2 = ac.dot(ap);
    if (d1 <= 0 && d2 <= 0) return a;
    const Vec3 bp = -b;
    const double d3 = ab.dot(bp), d4 = ac.dot(bp);
    if (d3 >= 0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
    const Vec3 cp = -c;
    const double d5 = ab.dot(cp), d6 = ac.dot(cp);
    if (d6 >= 0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
    const double denom = 1.0 / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

// Smallest norm over the convex hull of `w` (0 when it holds the origin): the least over
// its points, segments and (not nearly flat: their closest points are on their edges, and
// the barycentric formulas lose precision) triangles.
inline double hullDistanceToOrigin(const std::vector<Vec3>& w) {
    Vec3 q = w[0];
    auto offer = [&](const Vec3& p) {
        if (p.squaredNorm() < q.squaredNorm()) q = p;
    };
    for (size_t i = 0; i < w.size(); ++i) {
        offer(w[i]);
        for (size_t j = i + 1; j < w.size(); ++j) {
            const Vec3 e = w[j] - w[i];
            if (e.squaredNorm() > 0) offer(w[i] + std::clamp(-w[i].dot(e) / e.squaredNorm(), 0.0, 1.0) * e);
            for (size_t k = j + 1; k < w.size(); ++k) {
                const Vec3 f = w[k] - w[i];
                if (e.cross(f).squaredNorm() <= 1e-12 * e.squaredNorm() * f.squaredNorm()) continue;
                offer(closestToOriginOnTriangle(w[i], w[j], w[k]));
            }
        }
    }
    // q is the hull's closest point iff the plane through it, normal q, has every point on
    // its far side (to rounding: points of one face are coplanar only to about 1e-8 of the
    // hull's size; an origin inside misses by about |q| times that size).
    const double qq = q.squaredNorm();
    double size = 0.0;
    for (const Vec3& p : w) size = std::max(size, p.norm());
    for (const Vec3& p : w)
        if (p.dot(q) < qq - 1e-7 * (1.0 + size * std::sqrt(qq))) return 0.0;
    return std::sqrt(qq);
}

inline double bruteClearance(const BrushGeometry& brush, const PoseShape& s, const Vec3& centre) {
    Vec3 scale = Vec3::Ones();
    double radius = s.radius, half = 0.5 * s.height - s.radius;
    if (s.kind == PoseShapeKind::Ellipsoid) {
        scale = Vec3(1 / s.radius, 1 / s.radius, 1 / s.height);
        radius = 1;
        half = 0;
    }
    std::vector<Vec3> w;
    for (const double end : {-half, half}) {
        const Vec3 core = (centre + end * Vec3::UnitZ()).cwiseProduct(scale);
        for (const Vec3& v : brush.vertices) w.push_back(core - v.cwiseProduct(scale));
        if (half == 0) break;
    }
    return hullDistanceToOrigin(w) - radius;
}

} // namespace shallot::test

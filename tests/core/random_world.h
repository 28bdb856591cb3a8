#pragma once
// Random brushes, poses and worlds for the property tests, and the brute-force answers
// the compiled trees are checked against.
#include "compile/brush_expansion.h"
#include "world/brush_geometry.h"
#include "world/world.h"

#include <cmath>
#include <random>

namespace shallot::test {

using Rng = std::mt19937_64;

inline double uniform(Rng& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

inline Vec3 randomUnit(Rng& rng) {
    for (;;) {
        Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
        const double n = v.norm();
        if (n > 0.1 && n <= 1.0) return v / n;
    }
}

inline Eigen::Matrix3d randomRotation(Rng& rng) {
    Eigen::Quaterniond q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    q.normalize();
    return q.toRotationMatrix();
}

// A random point of a convex polygon, uniform over its area: a triangle of its fan picked by
// area, then a uniform point in it.
inline Vec3 randomPointIn(Rng& rng, const Polygon& polygon) {
    const std::vector<Vec3>& v = polygon.vertices;
    // A triangle of the fan from v[0], by area: a polygon's outline may run straight
    // through vertices (where a neighbour's edge ends), and their fan triangles are flat.
    auto twiceArea = [&](size_t i) { return (v[i] - v[0]).cross(v[i + 1] - v[0]).norm(); };
    double total = 0.0;
    for (size_t i = 1; i + 1 < v.size(); ++i) total += twiceArea(i);
    double pick = uniform(rng, 0, total);
    size_t k = 1;
    while (k + 2 < v.size() && pick >= twiceArea(k)) pick -= twiceArea(k++);
    double a = uniform(rng, 0, 1), b = uniform(rng, 0, 1);
    if (a + b > 1) {
        a = 1 - a;
        b = 1 - b;
    }
    return v[0] + a * (v[k] - v[0]) + b * (v[k + 1] - v[0]);
}

enum class BrushShape { Box, RotatedBox, Random, Sliver, LongThin };

// A convex brush around `centre`: boxes, rotated boxes, random polytopes (a box cut by a
// few random planes), slivers (1000:1) and long thin rods.
inline Brush randomBrush(Rng& rng, const Vec3& centre, double size, BrushShape shape) {
    Vec3 half(uniform(rng, 0.2, 1.0) * size, uniform(rng, 0.2, 1.0) * size, uniform(rng, 0.2, 1.0) * size);
    if (shape == BrushShape::Sliver) half[int(rng() % 3)] = size * 0.001;
    if (shape == BrushShape::LongThin) {
        half = Vec3::Constant(size * 0.02);
        half[int(rng() % 3)] = size * 2;
    }
    Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
    if (shape != BrushShape::Box) r = randomRotation(rng);
    std::vector<Plane> planes;
    for (int axis = 0; axis < 3; ++axis) {
        for (double sign : {1.0, -1.0}) {
            const Vec3 n = r * (sign * Vec3::Unit(axis));
            planes.push_back({n, n.dot(centre) + half[axis]});
        }
    }
    if (shape == BrushShape::Random) {
        const int cuts = int(rng() % 5) + 1;
        for (int i = 0; i < cuts; ++i) {
            const Vec3 n = randomUnit(rng);
            // Cut between 30% and 95% of the way to the box's extreme in that direction.
            double extreme = 0;
            for (int a = 0; a < 3; ++a) extreme += std::abs(n.dot(r.col(a))) * half[a];
            planes.push_back({n, n.dot(centre) + extreme * uniform(rng, 0.3, 0.95)});
        }
    }
    return Brush::fromPlanes(planes);
}

inline Pose randomPose(Rng& rng, const std::string& name) {
    Pose p;
    p.name = name;
    p.mins = -Vec3(uniform(rng, 0, 20), uniform(rng, 0, 20), uniform(rng, 0, 30));
    p.maxs = Vec3(uniform(rng, 0, 20), uniform(rng, 0, 20), uniform(rng, 0, 40));
    return p;
}

// A world of `count` random brushes in a cube of half-size `spread`, with some clip and
// liquid brushes, and the point pose plus `extraPoses` random boxes.
inline World randomWorld(Rng& rng, int count, double spread, int extraPoses) {
    World w;
    for (int i = 0; i < count; ++i) {
        const Vec3 c(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -spread, spread));
        const BrushShape shape = BrushShape(rng() % 5);
        Brush b = randomBrush(rng, c, uniform(rng, 8, 64), shape);
        const int kind = int(rng() % 10);
        if (kind == 0) b.contents = BrushContents::Clip;
        if (kind == 1) b.contents = BrushContents::NonSolid;
        w.brushes.push_back(std::move(b));
    }
    w.poses.push_back({"point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu});
    for (int i = 0; i < extraPoses; ++i) w.poses.push_back(randomPose(rng, "pose" + std::to_string(i)));
    return w;
}

// Six walls 32 thick closing the cube [-inner, inner]^3 around `world`'s brushes, so that
// nothing in it reaches the void (reach does not leak, every overlay draws inside).
inline void addClosingWalls(World& world, double inner) {
    const double outer = inner + 32;
    for (int axis = 0; axis < 3; ++axis)
        for (double side : {-1.0, 1.0}) {
            Vec3 mins = Vec3::Constant(-outer), maxs = Vec3::Constant(outer);
            (side < 0 ? maxs : mins)[axis] = side * inner;
            world.brushes.push_back(Brush::box(mins, maxs));
        }
}

// Brute force, independent of the expansion code: does the box placed at p overlap the
// brush's interior? Separating axis test on vertex projections: for a convex polytope and
// a box the candidate axes are the brush's face normals, the box axes and brush edge x box
// axis; they overlap with volume iff no axis separates them (touching counts as apart).
inline bool boxOverlapsBrush(const BrushGeometry& brush, const Pose& pose, const Vec3& p) {
    const Vec3 lo = p + pose.mins, hi = p + pose.maxs;
    const Vec3 boxCentre = 0.5 * (lo + hi);
    auto separated = [&](const Vec3& axisDir) {
        const double len = axisDir.norm();
        if (len < 1e-12) return false;
        const Vec3 n = axisDir / len;
        double bmin = INFINITY, bmax = -INFINITY;
        for (const Vec3& v : brush.vertices) {
            bmin = std::min(bmin, n.dot(v));
            bmax = std::max(bmax, n.dot(v));
        }
        double c = n.dot(boxCentre), e = 0;
        for (int a = 0; a < 3; ++a) e += std::abs(n[a]) * 0.5 * (hi[a] - lo[a]);
        return bmax <= c - e || bmin >= c + e;
    };
    for (const ConvexFace& f : brush.hull.faces)
        if (separated(f.plane.normal)) return false;
    for (int a = 0; a < 3; ++a)
        if (separated(Vec3::Unit(a))) return false;
    for (const auto& [a, b] : brush.edges)
        for (int k = 0; k < 3; ++k)
            if (separated((b - a).cross(Vec3::Unit(k)))) return false;
    return true;
}

} // namespace shallot::test

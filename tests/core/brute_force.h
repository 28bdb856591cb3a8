#pragma once
// The brute-force answer a compiled world is checked against: direct point-in-expanded-
// brush tests over every brush, cross-checked with a separating-axis box overlap test.
#include "compile/compiler.h"
#include "random_world.h"

#include <gtest/gtest.h>
#include <optional>

namespace shallot::test {

// Points closer than this to an expanded brush's boundary are skipped: at a boundary the
// answer depends on which side of a split plane rounding puts the point.
constexpr double kBoundaryMargin = 0.01;

struct BruteForce {
    const World& world;
    std::vector<std::optional<BrushGeometry>> geometry;
    std::vector<std::vector<std::vector<Plane>>> expanded; // [pose][brush]

    explicit BruteForce(const World& w) : world(w) {
        for (const Brush& b : w.brushes) geometry.push_back(buildBrushGeometry(b, w.bounds).geometry);
        expanded.resize(w.poses.size());
        for (size_t p = 0; p < w.poses.size(); ++p)
            for (const auto& g : geometry)
                expanded[p].push_back(g ? expandedPlanes(*g, w.poses[p]) : std::vector<Plane>{});
    }

    // Solidity of p for a pose, or nothing when p is within kBoundaryMargin of a boundary.
    std::optional<bool> solid(const Vec3& p, size_t pose) const {
        bool inside = false;
        for (size_t b = 0; b < geometry.size(); ++b) {
            if (!geometry[b] || !blocks(world.brushes[b], world.poses[pose])) continue;
            const Pose& box = world.poses[pose];
            const Aabb reach{geometry[b]->bounds.mins - box.maxs, geometry[b]->bounds.maxs - box.mins};
            if (!reach.contains(p, kBoundaryMargin)) continue; // far outside: cannot overlap
            double d = -INFINITY;
            for (const Plane& pl : expanded[pose][b]) d = std::max(d, pl.signedDistance(p));
            if (std::abs(d) < kBoundaryMargin) return std::nullopt;
            if (d < 0) {
                EXPECT_TRUE(boxOverlapsBrush(*geometry[b], world.poses[pose], p));
                inside = true;
            }
        }
        return inside;
    }

    // How far straight up from p the pose's reference point stays out of every blocking
    // expanded brush: 0 when p is inside one (by more than kClearanceRounding). Brushes p
    // rests on (their part of the vertical line ends within kClearanceRounding above p)
    // are below it. Exact but for rounding, where solid() needs kBoundaryMargin: a point
    // beside the foot of a wall leaning over the floor has clearance, though less than
    // any fixed height.
    static constexpr double kClearanceRounding = 1e-6;

    // Whether the pose's reference point, moved straight from a to b, passes through the
    // inside of a blocking expanded brush (deeper than kClearanceRounding): the segment
    // clipped against each brush's planes. A box sliding along a floor or a wall only
    // touches it.
    bool segmentEntersSolid(const Vec3& a, const Vec3& b, size_t pose) const {
        for (size_t k = 0; k < geometry.size(); ++k) {
            if (!geometry[k] || !blocks(world.brushes[k], world.poses[pose])) continue;
            double lo = 0.0, hi = 1.0; // the part of a + (b - a) t inside all the planes
            for (const Plane& pl : expanded[pose][k]) {
                const double s0 = pl.signedDistance(a) + kClearanceRounding, ds = pl.signedDistance(b) - pl.signedDistance(a);
                // s0 + ds t < 0
                if (ds > 0.0) hi = std::min(hi, -s0 / ds);
                else if (ds < 0.0) lo = std::max(lo, -s0 / ds);
                else if (s0 >= 0.0) hi = -1.0;
                if (lo >= hi) break;
            }
            if (lo < hi) return true;
        }
        return false;
    }
    double clearanceAbove(const Vec3& p, size_t pose) const {
        double clearance = INFINITY;
        for (size_t b = 0; b < geometry.size(); ++b) {
            if (!geometry[b] || !blocks(world.brushes[b], world.poses[pose])) continue;
            // The part of the line p + t z inside the expanded brush: lo < t < hi.
            double lo = -INFINITY, hi = INFINITY;
            for (const Plane& pl : expanded[pose][b]) {
                const double s = pl.signedDistance(p), nz = pl.normal.z();
                if (nz > 0.0) hi = std::min(hi, -s / nz);
                else if (nz < 0.0) lo = std::max(lo, -s / nz);
                else if (s >= 0.0) hi = -INFINITY;
            }
            if (lo >= hi || hi <= kClearanceRounding) continue;
            clearance = std::min(clearance, std::max(lo, 0.0));
        }
        return clearance;
    }
};

// Compares the onion tree and every map tree with brute force at `points` random points
// in the box [lo, hi]; at least half of the pose/point pairs must be away from boundaries.
inline void expectTreesMatchBruteForce(const World& world, const CompileResult& r, Rng& rng, int points, const Vec3& lo,
                                       const Vec3& hi) {
    const BruteForce brute(world);
    int compared = 0;
    for (int i = 0; i < points; ++i) {
        const Vec3 p(uniform(rng, lo.x(), hi.x()), uniform(rng, lo.y(), hi.y()), uniform(rng, lo.z(), hi.z()));
        for (size_t pose = 0; pose < world.poses.size(); ++pose) {
            const std::optional<bool> expected = brute.solid(p, pose);
            if (!expected) continue;
            ++compared;
            ASSERT_EQ(r.onion.isSolid(p, int(pose)), *expected)
                << "onion, pose " << world.poses[pose].name << " at " << p.transpose();
            ASSERT_EQ(r.mapTrees[pose].isSolid(p, 0), *expected)
                << "map tree, pose " << world.poses[pose].name << " at " << p.transpose();
        }
    }
    EXPECT_GT(compared, points * int(world.poses.size()) / 2);
}

inline void expectTreesMatchBruteForce(const World& world, const CompileResult& r, Rng& rng, int points, double spread) {
    expectTreesMatchBruteForce(world, r, rng, points, Vec3::Constant(-spread), Vec3::Constant(spread));
}

} // namespace shallot::test

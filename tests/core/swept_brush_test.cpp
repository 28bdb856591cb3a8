// The volume a brush sweeps between two offsets (movers/swept_brush.h) against brute force:
// a point is in it when some t in [0, 1] puts it inside the brush moved by
// from + t (to - from), which each brush plane bounds to an interval of t, exactly.
#include "random_world.h"

#include "movers/swept_brush.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace shallot;
using namespace shallot::test;

namespace {

// Points this close to the swept volume's surface (units, along any brush plane's
// normal) are not compared: rounding decides their side.
constexpr double kBoundaryMargin = 1e-6;

// Whether p lies in the brush (its planes pushed out by `grow`) at some offset on the
// segment from -> to.
bool bruteInSwept(const Brush& brush, const Vec3& from, const Vec3& to, const Vec3& p, double grow) {
    double lo = 0.0, hi = 1.0;
    const Vec3 d = to - from;
    for (const BrushSide& s : brush.sides) {
        // n.(p - from - t d) <= dist + grow  <=>  t (n.d) >= n.(p - from) - dist - grow
        const double a = s.plane.normal.dot(d);
        const double b = s.plane.normal.dot(p - from) - s.plane.dist - grow;
        if (std::abs(a) < 1e-15) {
            if (b > 0) return false;
        } else if (a > 0) {
            lo = std::max(lo, b / a);
        } else {
            hi = std::min(hi, b / a);
        }
    }
    return lo <= hi;
}

bool inside(const Brush& brush, const Vec3& p) {
    return std::all_of(brush.sides.begin(), brush.sides.end(), [&](const BrushSide& s) { return s.plane.signedDistance(p) <= 0; });
}

} // namespace

TEST(SweptBrush, EveryPointAgreesWithBruteForce) {
    Rng rng(40);
    const Aabb world{Vec3::Constant(-4096), Vec3::Constant(4096)};
    const BrushShape shapes[] = {BrushShape::Box, BrushShape::RotatedBox, BrushShape::Random, BrushShape::Sliver,
                                 BrushShape::LongThin};
    int compared = 0, in = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const Brush brush = randomBrush(rng, Vec3(uniform(rng, -200, 200), uniform(rng, -200, 200), uniform(rng, -200, 200)),
                                        uniform(rng, 8, 64), shapes[trial % 5]);
        const BrushGeometryResult g = buildBrushGeometry(brush, world);
        ASSERT_TRUE(g.geometry) << g.error;
        const Vec3 from = trial % 7 == 0 ? Vec3::Zero() : Vec3(uniform(rng, -100, 100), uniform(rng, -100, 100), uniform(rng, -100, 100));
        // Axis moves (doors, plats), any direction (trains), and none at all.
        Vec3 to = from;
        if (trial % 3 == 0) to[int(rng() % 3)] += uniform(rng, -150, 150);
        else if (trial % 3 == 1) to += Vec3(uniform(rng, -150, 150), uniform(rng, -150, 150), uniform(rng, -150, 150));
        const Brush swept = sweptBrush(*g.geometry, from, to);
        const BrushGeometryResult sg = buildBrushGeometry(swept, world);
        ASSERT_TRUE(sg.geometry) << sg.error;
        Aabb box = g.geometry->bounds;
        Aabb sweptBox{box.mins + from.cwiseMin(to), box.maxs + from.cwiseMax(to)};
        EXPECT_LT((sg.geometry->bounds.mins - sweptBox.mins).cwiseAbs().maxCoeff(), 1e-6);
        EXPECT_LT((sg.geometry->bounds.maxs - sweptBox.maxs).cwiseAbs().maxCoeff(), 1e-6);
        for (int k = 0; k < 400; ++k) {
            Vec3 p;
            for (int a = 0; a < 3; ++a) p[a] = uniform(rng, sweptBox.mins[a] - 4, sweptBox.maxs[a] + 4);
            const bool outer = bruteInSwept(brush, from, to, p, kBoundaryMargin);
            const bool inner = bruteInSwept(brush, from, to, p, -kBoundaryMargin);
            if (outer != inner) continue;
            ++compared;
            in += inner;
            ASSERT_EQ(inside(swept, p), inner) << "trial " << trial << " point " << p.transpose();
        }
    }
    EXPECT_GT(compared, 100000);
    EXPECT_GT(in, compared / 10);
}

#pragma once
// Helpers of the navigation tests (nav_test.cpp, nav_jump_test.cpp, nav_levels_test.cpp):
// closed rooms to build levels in, and the swept-box check of a path's stretches.
#include "compile/compiler.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"
#include "query/trace.h"
#include "brute_force.h"
#include "random_world.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace shallot::test {

inline constexpr int kNavPlayer = 1; // quakePoses(): point, player, large
inline constexpr int kNavLarge = 2;

// A closed room 1024 x 512 x 256 (inside x 0..1024, y 0..512, floor top z 0) with `inside`.
inline World navRoom(std::vector<Brush> inside, double height = 256) {
    World w;
    w.poses = quakePoses();
    const double t = 16;
    w.brushes = {Brush::box({-t, -t, -t}, {1024 + t, 512 + t, 0}),   Brush::box({-t, -t, height}, {1024 + t, 512 + t, height + t}),
                 Brush::box({-t, -t, 0}, {0, 512 + t, height}),       Brush::box({1024, -t, 0}, {1024 + t, 512 + t, height}),
                 Brush::box({0, -t, 0}, {1024, 0, height}),           Brush::box({0, 512, 0}, {1024, 512 + t, height})};
    for (Brush& b : inside) w.brushes.push_back(std::move(b));
    return w;
}

// 14 brushes at random inside navRoom (boxes and, a third of them, random polytopes, 24 to
// 64 across, their middles up to 96 above the floor).
inline std::vector<Brush> randomRoomBrushes(Rng& rng) {
    std::vector<Brush> inside;
    for (int i = 0; i < 14; ++i) {
        const Vec3 c(uniform(rng, 64, 960), uniform(rng, 64, 448), uniform(rng, 0, 96));
        inside.push_back(randomBrush(rng, c, uniform(rng, 24, 64), rng() % 3 == 0 ? BrushShape::Random : BrushShape::Box));
    }
    return inside;
}

// A world and its compiled trees.
struct NavLevel {
    World world;
    CompileResult result;
};

inline NavLevel compiledNavLevel(World w) {
    NavLevel l{std::move(w), {}};
    l.result = compileWorld(l.world);
    return l;
}

// The player's reference point standing on the floor at (x, y) (24 above it), a little up.
inline Vec3 navStanding(double x, double y, double floor = 0) { return {x, y, floor + 24 + 1}; }

// Each corner rests on a floor; each stretch between corners is a walk (a swept box lifted
// off the floor gets through), a step (up, across, down) or a drop (across, then down), or
// with jumps on a jump (up by the jump height, across, down: the flight of edge_probes.h).
// Returns the stretches that fail all (each reported when `strict`): those graze something
// less than the lift above the floor. With `brute`, such a stretch must still be one of
// those moves by brute force, run at the floor itself (a box sliding under a ceiling less
// than the lift above it is moving, not blocked), whether strict or not; but a stretch
// from a drop link's takeoff to its landing in `mesh` is that probe's own move, which may
// have slid down ground too steep to stand on (edge_probes.h) and is no straight move.
inline int expectNavPathValid(const BspTree& tree, int pose, const NavPath& path, const NavSettings& s, bool strict = true,
                              const BruteForce* brute = nullptr, const NavMesh* mesh = nullptr) {
    int grazing = 0;
    const Vec3 up = Vec3::UnitZ();
    constexpr double kLift = kNavStretchCheckLift; // checked this far above and below
    for (size_t i = 0; i < path.points.size(); ++i) {
        const Vec3& p = path.points[i];
        EXPECT_FALSE(tree.isSolid(p + up * kLift, pose)) << "corner " << i << " " << p.transpose() << " in solid";
        EXPECT_TRUE(tree.isSolid(p - up * kLift, pose)) << "corner " << i << " " << p.transpose() << " floating";
        if (i == 0) continue;
        const Vec3 a = path.points[i - 1] + up * kLift, b = p + up * kLift;
        const bool walk = !traceSegment(tree, pose, a, b).hit;
        // Quake's step: up (at most a step above the start, at least to the higher end),
        // across, down; a drop is the same from the higher end's height; a jump the same
        // from the jump's apex.
        auto viaHeight = [&](double high) {
            const Vec3 aHigh(a.x(), a.y(), high), bHigh(b.x(), b.y(), high);
            return !traceSegment(tree, pose, a, aHigh).hit && !traceSegment(tree, pose, aHigh, bHigh).hit &&
                   !traceSegment(tree, pose, bHigh, b).hit;
        };
        const double high = std::max(a.z(), b.z());
        const bool stepOrDrop = high - a.z() <= s.stepHeight + kLift && (viaHeight(high) || viaHeight(a.z() + s.stepHeight));
        const bool jump = s.jump && high - a.z() <= s.jumpHeight + kLift && viaHeight(a.z() + s.jumpHeight);
        if (walk || stepOrDrop || jump) continue;
        ++grazing;
        const Vec3 &from = path.points[i - 1], &to = p;
        const bool dropLink = mesh && std::any_of(mesh->links.begin(), mesh->links.end(), [&](const NavLink& l) {
                                  return l.kind == NavLinkKind::Drop && (l.start - from).norm() < 1e-9 && (l.end - to).norm() < 1e-9;
                              });
        if (brute && !dropLink) {
            auto clear = [&](const Vec3& x, const Vec3& y) { return !brute->segmentEntersSolid(x, y, size_t(pose)); };
            auto viaHeightClear = [&](double z) {
                const Vec3 fromHigh(from.x(), from.y(), z), toHigh(to.x(), to.y(), z);
                return clear(from, fromHigh) && clear(fromHigh, toHigh) && clear(toHigh, to);
            };
            const double top = std::max(from.z(), to.z());
            const bool steps = top - from.z() <= s.stepHeight + kLift && (viaHeightClear(top) || viaHeightClear(from.z() + s.stepHeight));
            const bool jumps = s.jump && top - from.z() <= s.jumpHeight + kLift && viaHeightClear(from.z() + s.jumpHeight);
            const bool moves = clear(from, to) || steps || jumps;
            EXPECT_TRUE(moves) << "stretch " << i - 1 << " -> " << i << ": " << from.transpose() << " to " << to.transpose()
                               << " is blocked (brute force)";
        }
        if (strict) ADD_FAILURE() << "stretch " << i - 1 << " -> " << i << ": " << path.points[i - 1].transpose()
                                        << " to " << p.transpose();
    }
    return grazing;
}

// The same with Quake's rules and the given step height, no jumps.
inline int expectNavPathValid(const BspTree& tree, int pose, const NavPath& path, double step, bool strict = true) {
    NavSettings s;
    s.stepHeight = step;
    return expectNavPathValid(tree, pose, path, s, strict);
}

} // namespace shallot::test

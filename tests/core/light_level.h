#pragma once
// Lit test levels for the lighting tests: random rooms written as .map text, read back,
// and the brute-force occluder (every brush tested directly, no tree) the tree's shadows
// are checked against.
#include "random_world.h"

#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "light/light_occluder.h"
#include "light/sky_faces.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "query/trace.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace shallot::test {

// Box brush [lo, hi] as .map text, each face with its own texture and parameters.
inline std::string boxBrushText(const Vec3& lo, const Vec3& hi, const std::string& texture,
                                const std::vector<std::string>& params) {
    const auto p = [](double x, double y, double z) {
        std::ostringstream s;
        s << "( " << x << " " << y << " " << z << " ) ";
        return s.str();
    };
    // Quake's orientation: points in clockwise order seen from outside.
    const std::string faces[6] = {
        p(lo.x(), 0, 0) + p(lo.x(), 1, 0) + p(lo.x(), 0, 1), // -x
        p(hi.x(), 0, 0) + p(hi.x(), 0, 1) + p(hi.x(), 1, 0), // +x
        p(0, lo.y(), 0) + p(0, lo.y(), 1) + p(1, lo.y(), 0), // -y
        p(0, hi.y(), 0) + p(1, hi.y(), 0) + p(0, hi.y(), 1), // +y
        p(0, 0, lo.z()) + p(1, 0, lo.z()) + p(0, 1, lo.z()), // -z
        p(0, 0, hi.z()) + p(0, 1, hi.z()) + p(1, 0, hi.z()), // +z
    };
    std::string out = "{\n";
    for (int i = 0; i < 6; ++i) out += faces[i] + texture + " " + params[size_t(i) % params.size()] + "\n";
    return out + "}\n";
}

// Segment tests against every light-blocking brush of the world, no tree: the segment
// clipped by each brush's planes passes through its inside (deeper than
// kBruteInteriorMargin) or not.
class BruteOccluder final : public LightOccluder {
public:
    // The tree's convention: a point within kTraceOnPlaneEpsilon of a surface is on it (a
    // luxel point computed through rotated texture axes lands 1e-4 inside a wall as often
    // as outside it).
    static constexpr double kBruteInteriorMargin = kTraceOnPlaneEpsilon;

    explicit BruteOccluder(const World& world) : world_(world) {
        for (const Brush& b : world.brushes)
            if (intersects(b.contents, defaultBlocking(true)) && buildBrushGeometry(b, world.bounds).geometry)
                brushes_.push_back(&b);
    }
    bool blocked(const Vec3& from, const Vec3& to) const override { return firstEntry(from, to).first >= 0; }
    bool reachesSky(const Vec3& from, const Vec3& direction) const override {
        const auto [t, side] = firstEntry(from, from + direction * kSunRayLength);
        return t > 0 && side && skyTexture(side->texture);
    }
    double openDistance(const Vec3& from, const Vec3& direction, double length) const override {
        const auto [t, side] = firstEntry(from, from + direction * length);
        if (t < 0 || (side && skyTexture(side->texture))) return length;
        return t * length;
    }

    bool nearSolid(const Vec3& p, double margin) const override {
        for (const Brush* brush : brushes_) {
            double d = -INFINITY;
            for (const BrushSide& s : brush->sides) d = std::max(d, s.plane.signedDistance(p));
            if (d < margin) return true;
        }
        return false;
    }
    // Is p within `margin` of a light-blocking brush's boundary?
    bool nearBoundary(const Vec3& p, double margin) const {
        for (const Brush* brush : brushes_) {
            double d = -INFINITY;
            for (const BrushSide& s : brush->sides) d = std::max(d, s.plane.signedDistance(p));
            if (std::abs(d) < margin) return true;
        }
        return false;
    }

private:
    // The smallest parameter at which the segment is inside a brush, and the side it
    // entered through (null when it starts inside); -1 when it never is.
    std::pair<double, const BrushSide*> firstEntry(const Vec3& a, const Vec3& b) const {
        double best = 2.0;
        const BrushSide* bestSide = nullptr;
        for (const Brush* brush : brushes_) {
            double lo = 0.0, hi = 1.0;
            const BrushSide* entered = nullptr;
            for (const BrushSide& s : brush->sides) {
                const double s0 = s.plane.signedDistance(a) + kBruteInteriorMargin;
                const double ds = s.plane.signedDistance(b) - s.plane.signedDistance(a);
                if (ds > 0.0) hi = std::min(hi, -s0 / ds);
                else if (ds < 0.0) {
                    if (-s0 / ds > lo) {
                        lo = -s0 / ds;
                        entered = &s;
                    }
                } else if (s0 >= 0.0) hi = -1.0;
                if (lo >= hi) break;
            }
            if (lo < hi && lo < best) {
                best = lo;
                bestSide = entered;
            }
        }
        return {best <= 1.0 ? best : -1.0, bestSide};
    }

    const World& world_;
    std::vector<const Brush*> brushes_;
};

struct LitLevel {
    MapFile map;
    World world;
};

inline LitLevel readLevel(const std::string& text) {
    MapReadResult read = readMap(text, "room.map");
    EXPECT_TRUE(read.ok()) << read.error.format() << "\n" << text;
    LitLevel level{std::move(*read.map), {}};
    level.world = worldFromMap(level.map);
    return level;
}

inline LightInput lightInput(const LitLevel& level) {
    return LightInput{&level.world.brushes, &level.map.entities, level.world.bounds, "room.map"};
}

// The level lit through its point pose's onion tree.
inline LevelLighting lightWithTree(const LitLevel& level, int threads = 2) {
    World shadow = level.world;
    shadow.poses = {level.world.poses[size_t(pointPoseIndex(level.world.poses))]};
    const CompileResult compiled = compileWorld(shadow);
    EXPECT_TRUE(compiled.error.empty()) << compiled.error;
    return lightLevelInTree(lightInput(level), compiled.onion, 0, threads);
}

} // namespace shallot::test

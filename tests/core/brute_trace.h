#pragma once
// Brute-force traces, independent of the trace code: Liang-Barsky of the segment against
// every brush's exact expanded planes, and the checks a trace is held to against them
// (shared by the trace and collision-scene tests).
#include "compile/brush_expansion.h"
#include "query/trace.h"
#include "world/brush_geometry.h"
#include "world/world.h"

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace shallot::test {

// Contacts are compared to this many world units along the segment. The brute force is
// also run on the world grown and shrunk by this much: where the answers differ (a start or
// an end within it of a surface, a segment grazing a surface) the case is ambiguous.
inline constexpr double kTolerance = 0.01;

// An entry angle this shallow (the grown and shrunk worlds' contacts this far apart along
// the segment) makes t ill-conditioned: only the bracket is checked, not the exact t.
inline constexpr double kIllConditioned = 0.5;

// ---------------------------------------------------------------------------------------
// Brute force, independent of the trace code: Liang-Barsky of the segment against every
// brush's exact expanded planes (a point is inside when strictly behind all of them).

struct BruteClip {
    double enter = -INFINITY, secondEnter = -INFINITY, leave = INFINITY;
    Vec3 normal = Vec3::Zero();
};

inline std::optional<BruteClip> clipExact(const std::vector<Plane>& planes, const Vec3& s, const Vec3& D, double grow) {
    BruteClip c;
    for (const Plane& p : planes) {
        const double a = p.signedDistance(s) - grow, dd = p.normal.dot(D);
        if (dd == 0.0) {
            if (a >= 0.0) return std::nullopt;
            continue;
        }
        const double t = -a / dd;
        if (dd < 0.0) {
            if (t > c.enter) {
                c.secondEnter = c.enter;
                c.enter = t;
                c.normal = p.normal;
            } else {
                c.secondEnter = std::max(c.secondEnter, t);
            }
        } else {
            c.leave = std::min(c.leave, t);
        }
    }
    if (!(c.enter < c.leave) || c.enter >= 1.0 || c.leave <= 0.0) return std::nullopt;
    return c;
}

struct BruteResult {
    bool startSolid = false, allSolid = false, hit = false;
    double t = 1.0;
    Vec3 normal = Vec3::Zero();
    double cornerGap = INFINITY; // parameter gap to the nearest other surface entered (edge, corner)
};

struct BruteWorld {
    std::vector<std::vector<Plane>> brushes; // the expanded brushes that block the box

    BruteWorld(const World& world, const Pose& box) {
        for (const Brush& b : world.brushes) {
            if (!blocks(b, box)) continue;
            const auto g = buildBrushGeometry(b, world.bounds).geometry;
            if (g) brushes.push_back(expandedPlanes(*g, box));
        }
    }

    BruteResult sweep(const Vec3& s, const Vec3& e, double grow) const {
        BruteResult r;
        std::vector<BruteClip> clips;
        for (const auto& planes : brushes)
            if (auto c = clipExact(planes, s, e - s, grow)) clips.push_back(*c);
        for (const BruteClip& c : clips) r.startSolid |= c.enter < 0.0;
        if (r.startSolid) {
            double reach = 0.0;
            for (bool grew = true; grew && reach < 1.0;) {
                grew = false;
                for (const BruteClip& c : clips)
                    if (c.enter <= reach && c.leave > reach) {
                        reach = c.leave;
                        grew = true;
                    }
            }
            r.allSolid = reach >= 1.0;
            r.t = 0.0;
            return r;
        }
        const BruteClip* best = nullptr;
        for (const BruteClip& c : clips)
            if (c.enter < r.t) {
                best = &c;
                r.t = c.enter;
            }
        if (!best) return r;
        r.hit = true;
        r.normal = best->normal;
        r.cornerGap = r.t - best->secondEnter;
        for (const BruteClip& c : clips)
            if (&c != best && (c.normal - r.normal).norm() > 1e-9) r.cornerGap = std::min(r.cornerGap, c.enter - r.t);
        return r;
    }
};

inline std::string describe(const TraceResult& r) {
    std::ostringstream s;
    s << "startSolid " << r.startSolid << " allSolid " << r.allSolid << " hit " << r.hit << " t " << r.t
      << " normal " << r.normal.transpose();
    return s.str();
}

struct Tally {
    int compared = 0, startSolid = 0, hits = 0, normals = 0, skipped = 0;
};

// Empty when `r` agrees with the brute force on s -> e (or the case is ambiguous), else why.
inline std::string checkAgainstBrute(const TraceResult& r, const BruteWorld& brute, const Vec3& s, const Vec3& e,
                              Tally& tally) {
    const BruteResult exact = brute.sweep(s, e, 0.0), grown = brute.sweep(s, e, kTolerance),
                      shrunk = brute.sweep(s, e, -kTolerance);
    const double length = (e - s).norm();
    std::ostringstream why;
    why << "segment " << s.transpose() << " -> " << e.transpose() << ": got " << describe(r) << "; expected startSolid "
        << exact.startSolid << " allSolid " << exact.allSolid << " hit " << exact.hit << " t " << exact.t
        << " normal " << exact.normal.transpose();
    if (grown.startSolid != shrunk.startSolid || (!exact.startSolid && grown.hit != shrunk.hit)) {
        ++tally.skipped;
        return {};
    }
    ++tally.compared;
    if (r.startSolid != exact.startSolid) return why.str();
    if (exact.startSolid) {
        ++tally.startSolid;
        if (r.hit || r.t != 0.0 || r.point != s) return why.str();
        if (grown.allSolid == shrunk.allSolid && r.allSolid != exact.allSolid) return why.str();
        return {};
    }
    if (r.allSolid || r.hit != exact.hit) return why.str();
    if (!exact.hit) return r.t == 1.0 && r.point == e ? std::string() : why.str();
    ++tally.hits;
    if ((r.point - (s + r.t * (e - s))).norm() > 1e-9) return why.str() + " (point)";
    // Always between the grown and the shrunk world's contacts, and at the exact contact
    // unless the entry is too shallow for t to be meaningful.
    if (r.t * length < grown.t * length - kTolerance || r.t * length > shrunk.t * length + kTolerance)
        return why.str() + " (outside the bracket " + std::to_string(grown.t) + ".." + std::to_string(shrunk.t) + ")";
    const bool wellConditioned = (shrunk.t - grown.t) * length < kIllConditioned;
    if (wellConditioned && std::abs(r.t - exact.t) * length > kTolerance) return why.str() + " (t)";
    if (std::abs(r.normal.norm() - 1.0) > 1e-9 || r.normal.dot(e - s) >= 0.0) return why.str() + " (normal facing)";
    if (wellConditioned && exact.cornerGap * length >= kTolerance) {
        ++tally.normals;
        if ((r.normal - exact.normal).norm() > 1e-3) return why.str() + " (normal)";
    }
    return {};
}

// Two traces of the same box agree (where the brute force says the case is unambiguous).
inline std::string checkSame(const TraceResult& a, const TraceResult& b, double length, bool compareNormals) {
    if (a.startSolid == b.startSolid && a.hit == b.hit && std::abs(a.t - b.t) * length <= kTolerance &&
        (!compareNormals || (a.normal - b.normal).norm() < 1e-3))
        return {};
    return describe(a) + " vs " + describe(b);
}

} // namespace shallot::test

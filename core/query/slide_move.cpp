#include "query/slide_move.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace shallot {

namespace {

// Surfaces remembered at once while sliding (the oldest is forgotten first).
constexpr int kMaxClipPlanes = 8;

// A surface is still slid along while the box is at most this far off its plane; farther,
// it was left behind and no longer constrains the motion.
constexpr double kKeepPlaneDistance = 2.0 * kSlideBackoff;

// Motion shorter than this (world units) is not traced.
constexpr double kMinMotion = 1e-9;

// A motion counts as not entering a surface when it goes into it by at most this fraction
// of its own length (rounding of the projections).
constexpr double kConeTolerance = 1e-12;

constexpr int kMaxBumps = 64;

struct ClipPlane {
    Vec3 normal;
    Vec3 point; // a point of the surface (the contact)
};

struct Mover {
    const MoveSpace& space;
    int bumps;

    bool empty(const Vec3& p) const { return p.allFinite() && !space.isSolid(p); }
    TraceResult trace(const Vec3& from, const Vec3& to) const { return space.trace(from, to); }
};

// The motion closest to `w` that enters none of the planes (v . n >= 0 for every normal):
// w itself, w projected onto one plane, onto the crease of two, or nothing. The closest
// point of a polyhedral cone is the projection onto the subspace of its active planes, so
// the longest admissible candidate of these is it (|w - v|^2 = |w|^2 - |v|^2).
Vec3 projectOntoCone(const Vec3& w, const ClipPlane* planes, int count) {
    const double tolerance = kConeTolerance * w.norm();
    auto admissible = [&](const Vec3& v) {
        for (int i = 0; i < count; ++i)
            if (planes[i].normal.dot(v) < -tolerance) return false;
        return true;
    };
    if (admissible(w)) return w;
    Vec3 best = Vec3::Zero();
    double bestLength = 0.0;
    auto consider = [&](const Vec3& v) {
        const double length = v.squaredNorm();
        if (length > bestLength && admissible(v)) {
            best = v;
            bestLength = length;
        }
    };
    for (int i = 0; i < count; ++i) {
        const Vec3& n = planes[i].normal;
        if (n.dot(w) < 0.0) consider(w - n.dot(w) * n);
    }
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) {
            const Vec3 crease = planes[i].normal.cross(planes[j].normal);
            const double length = crease.norm();
            if (length < 1e-9) continue; // parallel planes: the single-plane candidates cover them
            const Vec3 dir = crease / length;
            consider(dir.dot(w) * dir);
        }
    return best;
}

// Where the box stops after `hit` on the trace pos -> pos + motion: kSlideBackoff off the
// surface along its normal; if that reads solid or is not reachable in a straight line
// (another surface in the way, e.g. in an acute corner), kSlideBackoff back along the
// motion; else where it was (pos is empty).
Vec3 stopShort(const Mover& m, const Vec3& pos, const Vec3& motion, const TraceResult& hit) {
    const Vec3 off = hit.point + kSlideBackoff * hit.normal;
    if (m.empty(off)) {
        const TraceResult check = m.trace(pos, off);
        if (!check.startSolid && !check.hit) return off;
    }
    const double length = motion.norm();
    const double back = hit.t - kSlideBackoff / length;
    if (back > 0.0) {
        const Vec3 behind = pos + back * motion;
        if (m.empty(behind)) return behind;
    }
    return pos;
}

// The end of an unobstructed trace pos -> pos + motion, or short of it when it reads solid.
Vec3 arrive(const Mover& m, const Vec3& pos, const Vec3& motion) {
    const Vec3 target = pos + motion;
    if (m.empty(target)) return target;
    const double back = 1.0 - kSlideBackoff / motion.norm();
    if (back > 0.0 && m.empty(pos + back * motion)) return pos + back * motion;
    return pos;
}

// Slides from `start` (empty) by `delta` over unit move time; appends the contacts.
// Returns the end (empty).
Vec3 slide(const Mover& m, const Vec3& start, const Vec3& delta, std::vector<Contact>& contacts) {
    Vec3 pos = start;
    Vec3 rest = delta; // the motion for the rest of the move time
    double time = 0.0;
    std::array<ClipPlane, kMaxClipPlanes> planes;
    int count = 0;
    for (int bump = 0; bump < m.bumps && rest.norm() > kMinMotion; ++bump) {
        const TraceResult hit = m.trace(pos, pos + rest);
        if (hit.startSolid) break; // pos is empty; only a contact on a rounding edge gets here
        if (!hit.hit) {
            pos = arrive(m, pos, rest);
            break;
        }
        time += hit.t * (1.0 - time);
        contacts.push_back({hit.point, hit.normal, time});
        pos = stopShort(m, pos, rest, hit);
        rest *= 1.0 - hit.t;

        int kept = 0;
        for (int i = 0; i < count; ++i)
            if (planes[size_t(i)].normal.dot(pos - planes[size_t(i)].point) <= kKeepPlaneDistance)
                planes[size_t(kept++)] = planes[size_t(i)];
        count = kept;
        if (count == kMaxClipPlanes) {
            std::move(planes.begin() + 1, planes.end(), planes.begin());
            --count;
        }
        planes[size_t(count++)] = {hit.normal, hit.point};
        rest = projectOntoCone(rest, planes.data(), count);
        if (rest.dot(delta) <= 0.0) break; // never turn against the move
    }
    return pos;
}

// A straight move (no sliding) from pos by motion; stops short of what it hits.
struct Straight {
    Vec3 end;
    bool hit = false;
    Vec3 normal = Vec3::Zero();
};

Straight moveStraight(const Mover& m, const Vec3& pos, const Vec3& motion, double time,
                      std::vector<Contact>& contacts) {
    Straight s{pos};
    if (motion.norm() <= kMinMotion) return s;
    const TraceResult hit = m.trace(pos, pos + motion);
    if (hit.startSolid) return s;
    if (!hit.hit) {
        s.end = arrive(m, pos, motion);
        return s;
    }
    contacts.push_back({hit.point, hit.normal, time});
    s.end = stopShort(m, pos, motion, hit);
    s.hit = true;
    s.normal = hit.normal;
    return s;
}

// The start, or a point kSlideBackoff from it that reads empty when the start itself reads
// solid (a start on a surface: a point on a split plane reads the plane's front side).
// Tries the 26 directions of a cube's faces, edges and corners, in that order.
std::optional<Vec3> freeStart(const Mover& m, const Vec3& from) {
    if (m.empty(from)) return from;
    for (int axes = 1; axes <= 3; ++axes)
        for (int x = -1; x <= 1; ++x)
            for (int y = -1; y <= 1; ++y)
                for (int z = -1; z <= 1; ++z) {
                    if (std::abs(x) + std::abs(y) + std::abs(z) != axes) continue;
                    const Vec3 p = from + kSlideBackoff * Vec3(x, y, z).normalized();
                    if (m.empty(p)) return p;
                }
    return std::nullopt;
}

} // namespace

MoveResult slideMove(const BspTree& tree, int pose, const Vec3& from, const Vec3& delta, double stepHeight,
                     const MoveOptions& options) {
    return slideMove(TreeMoveSpace(tree, pose), from, delta, stepHeight, options);
}

MoveResult slideMove(const MoveSpace& space, const Vec3& from, const Vec3& deltaIn, double stepHeightIn,
                     const MoveOptions& options) {
    MoveResult r;
    r.end = from;
    if (!from.allFinite()) {
        r.startSolid = true;
        return r;
    }
    const Vec3 delta = deltaIn.allFinite() ? deltaIn : Vec3::Zero();
    const double stepHeight = std::isfinite(stepHeightIn) && stepHeightIn > 0.0 ? stepHeightIn : 0.0;
    const Mover m{space, std::clamp(options.bumps, 1, kMaxBumps)};
    Vec3 up = Vec3::UnitZ();
    if (options.up.allFinite() && options.up.norm() > 1e-12) up = options.up.normalized();

    if (space.trace(from, from + delta).startSolid) {
        r.startSolid = true;
        return r;
    }
    const std::optional<Vec3> start = freeStart(m, from);
    if (!start) {
        r.startSolid = true;
        return r;
    }
    r.end = slide(m, *start, delta, r.contacts);

    // Step-up: only when something steep was in the way, and the move goes somewhere across.
    if (stepHeight == 0.0) return r;
    const bool blocked = std::any_of(r.contacts.begin(), r.contacts.end(), [&](const Contact& c) {
        return c.normal.dot(up) < options.minStepNormal;
    });
    const Vec3 across = delta - delta.dot(up) * up;
    if (!blocked || across.norm() <= kSlideBackoff) return r;
    const Vec3 acrossDir = across.normalized();

    std::vector<Contact> path;
    const Straight rise = moveStraight(m, *start, stepHeight * up, 0.0, path);
    const double climbed = (rise.end - *start).dot(up);
    if (climbed <= kSlideBackoff) return r; // a ceiling right above
    const Vec3 forward = slide(m, rise.end, delta, path);
    const Straight land = moveStraight(m, forward, -climbed * up, 1.0, path);
    if (!land.hit || land.normal.dot(up) < options.minStepNormal) return r; // nothing to stand on
    if ((land.end - *start).dot(acrossDir) <= (r.end - *start).dot(acrossDir) + kSlideBackoff) return r;
    r.end = land.end;
    r.contacts = std::move(path);
    r.stepped = true;
    return r;
}

} // namespace shallot

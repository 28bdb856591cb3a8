#include "objects/box_obstacle_trace.h"

#include <algorithm>
#include <cmath>

namespace shallot {

bool insideObstacleBox(const Aabb& box, const Vec3& p) {
    return (p.array() > box.mins.array() + kTraceOnPlaneEpsilon).all() &&
           (p.array() < box.maxs.array() - kTraceOnPlaneEpsilon).all();
}

namespace {

// The part [enter, leave] of s + t d inside the box's closed slabs, and the axis (and the
// side) that was crossed last on the way in.
struct SlabClip {
    double enter = -INFINITY, leave = INFINITY;
    int axis = -1;
    bool empty = false;
};

SlabClip clipSlabs(const Aabb& box, const Vec3& s, const Vec3& d) {
    SlabClip c;
    for (int a = 0; a < 3; ++a) {
        if (d[a] == 0.0) {
            // Parallel to the slab: inside only strictly within it (on a face is touching).
            if (!(s[a] > box.mins[a] + kTraceOnPlaneEpsilon && s[a] < box.maxs[a] - kTraceOnPlaneEpsilon)) c.empty = true;
            continue;
        }
        double t0 = (box.mins[a] - s[a]) / d[a], t1 = (box.maxs[a] - s[a]) / d[a];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > c.enter) {
            c.enter = t0;
            c.axis = a;
        }
        c.leave = std::min(c.leave, t1);
    }
    return c;
}

TraceResult sweep(const Aabb& box, const Vec3& from, const Vec3& to) {
    TraceResult r;
    r.point = to;
    const Vec3 d = to - from;
    const double length = d.norm();
    const SlabClip c = clipSlabs(box, from, d);
    // Inside for less than kTraceOnPlaneEpsilon of the way: a graze, no contact.
    if (c.empty || c.axis < 0 || (c.leave - c.enter) * length <= kTraceOnPlaneEpsilon || c.leave <= 0.0 ||
        c.enter >= 1.0)
        return r;
    r.hit = true;
    r.t = std::max(c.enter, 0.0);
    r.point = from + r.t * d;
    r.normal = Vec3::Zero();
    r.normal[c.axis] = d[c.axis] > 0.0 ? -1.0 : 1.0;
    return r;
}

} // namespace

TraceResult traceObstacleBox(const Aabb& box, const Vec3& from, const Vec3& to) {
    TraceResult r;
    r.point = to;
    const Vec3 d = to - from;
    const double length = d.norm();
    if (length == 0.0) {
        r.startSolid = r.allSolid = insideObstacleBox(box, from);
        r.t = 0.0;
        r.point = from;
        return r;
    }
    if (!insideObstacleBox(box, from)) return sweep(box, from, to);
    // The article's start-solid retry: from a little back along the motion.
    const Vec3 back = from - kStartSolidNudge * d / length;
    if (!insideObstacleBox(box, back)) {
        TraceResult retry = sweep(box, back, to);
        if (retry.hit) {
            // The contact along the original segment (clamped: it may lie behind its start).
            retry.t = std::clamp((retry.point - from).dot(d) / (length * length), 0.0, 1.0);
            retry.point = from + retry.t * d;
        }
        return retry;
    }
    r.startSolid = true;
    r.t = 0.0;
    r.point = from;
    r.allSolid = insideObstacleBox(box, to) || clipSlabs(box, from, d).leave >= 1.0;
    return r;
}

} // namespace shallot

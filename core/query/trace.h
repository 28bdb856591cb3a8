#pragma once
#include "compile/bsp_tree.h"
#include "geometry/tolerances.h"

namespace shallot {

// A segment end within this distance of a split plane counts as on it: the tolerance the
// compiler classifies polygons with, so the trace sees the surfaces the compiler built.
inline constexpr double kTraceOnPlaneEpsilon = kOnPlaneEpsilon;

// The article's start-solid retry: when the start reads solid, trace again from a source
// moved back along the movement by this distance (world units). A start that is solid
// only within this distance of a surface (rounding, pooled planes) is on that surface.
// Ten times kTraceOnPlaneEpsilon, ten times below the 0.01 the property tests resolve.
inline constexpr double kStartSolidNudge = 1e-3;

// The answer to a swept query along from -> to. A point is solid when it lies in the
// interior of the pose's solid (configuration-space) region; touching a surface is not.
//   startSolid: the start is solid (after the nudge); then t = 0, point = from, hit = false.
//   allSolid:   startSolid and no empty stretch anywhere on the segment.
//   hit:        the segment enters solid at parameter t in [0, 1): point = from + t (to - from),
//               normal = the unit normal of the surface entered, facing against the motion;
//               plane = its id in the tree's plane table (-1 for box traces).
//   otherwise:  t = 1, point = to.
// A zero-length segment (from == to) reports the point's solidity as startSolid, never hit.
struct TraceResult {
    bool startSolid = false;
    bool allSolid = false;
    bool hit = false;
    double t = 1.0;
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    PlaneId plane = -1;
};

// Find first transition (the article's Listing 5) of the segment from -> to through any
// BspTree (onion tree or map tree), reading leaf solidity bit `pose` (0 <= pose <
// tree.poses.size(); a map tree's one pose is 0). Iterative, const and thread-safe; it
// allocates only if more than 64 spans are pending at once (never seen: about the depth).
TraceResult traceSegment(const BspTree& tree, int pose, const Vec3& from, const Vec3& to);

// Folds trace b into a, both of the same segment through different parts of a world (the
// tree, a placed object, a mover's brushes): a start in solid anywhere wins, then the
// earliest contact. True when b's answer was taken.
inline bool combineTraces(TraceResult& a, const TraceResult& b) {
    if (a.startSolid) {
        a.allSolid = a.allSolid || b.allSolid;
        return false;
    }
    if (!(b.startSolid || (b.hit && (!a.hit || b.t < a.t)))) return false;
    a = b;
    return true;
}

} // namespace shallot

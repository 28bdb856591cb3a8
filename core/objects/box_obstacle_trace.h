#pragma once
// The exact test between two agents: each is an axis-aligned box (its pose's box at its
// position), so the region the moving agent's reference point must keep out of is their
// Minkowski difference, again a box. Sweeping the point against it is six slab planes.
#include "geometry/aabb.h"
#include "query/trace.h"

namespace shallot {

// The box the reference point of a `moving` pose box may not enter because of an `other`
// box placed at [otherMins, otherMaxs] (world coordinates).
inline Aabb obstacleBox(const Vec3& movingMins, const Vec3& movingMaxs, const Aabb& other) {
    return {other.mins - movingMaxs, other.maxs - movingMins};
}

// Whether p lies in the interior of `box` by more than kTraceOnPlaneEpsilon on every axis:
// touching or grazing a face is not solid, as in the trees.
bool insideObstacleBox(const Aabb& box, const Vec3& p);

// The segment from -> to against the interior of `box`, with traceSegment's conventions
// (query/trace.h): a start inside (insideObstacleBox) is retried from kStartSolidNudge
// back along the motion, and is startSolid when that is inside too (allSolid when the
// segment never leaves the box); a segment that only grazes a face or an edge (inside for
// less than kTraceOnPlaneEpsilon of its length) does not hit; a hit's normal is the
// entered face's, facing against the motion. `plane` is -1. A zero-length segment reports
// the point's solidity as startSolid.
TraceResult traceObstacleBox(const Aabb& box, const Vec3& from, const Vec3& to);

} // namespace shallot

#pragma once
// Does a round shape overlap a convex brush? The shape is the set of points within the
// frame's radius of its core (a point or a vertical segment, in shape space), so it
// overlaps the brush's inside iff the core comes closer than the radius to the brush.
#include "query/round_shape_space.h"

namespace shallot {

// Closest points of the core segment [a, b] and a brush (shape space). distance is 0 when
// the segment meets the brush (then both points are one point of the meeting).
struct CoreDistance {
    double distance = 0.0;
    Vec3 onCore = Vec3::Zero();
    Vec3 onBrush = Vec3::Zero();
};

// Exact: the segment clipped against the planes, else the least of the distances from its
// ends to the brush (a face's inside or an edge) and from the segment to every edge. A
// closest pair with the segment's inside on a face's inside needs the segment parallel to
// the face, and then an end or a crossing of a face edge is as close.
CoreDistance coreToBrush(const RoundBrush& brush, const Vec3& a, const Vec3& b);

// How far the shape centred at `centre` (shape space) stays from the brush: the core's
// distance minus the radius; negative when they overlap.
double roundShapeClearance(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& centre);

// Closest points of segments [p0, p1] and [q0, q1] (Ericson, Real-Time Collision
// Detection 5.1.9); degenerate segments are points.
void closestSegmentPoints(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec3& onP, Vec3& onQ);

} // namespace shallot

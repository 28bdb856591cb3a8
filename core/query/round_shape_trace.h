#pragma once
// First contact of a round shape swept along a segment against one convex brush.
//
// The centres c at which the shape touches the brush's inside form the brush grown by the
// core and the sphere: M = brush + core + ball(radius), a convex set whose surface is made
// of patches: faces moved out by the radius, edges as cylinders, vertices as spheres (for
// each end of the core), and for a capsule's core also the side of the core against edges
// (planes along edge x up) and against vertices (vertical cylinders). Every candidate
// point found on a patch lies in M, and the ray's entry into M lies on a patch, so the
// least candidate parameter is the entry, exactly.
#include "query/round_shape_space.h"

#include <optional>

namespace shallot {

// A point on a patch whose edge tests miss by at most this much (shape-space units) still
// counts (the neighbouring patch covers the seam; this only absorbs rounding there).
inline constexpr double kRoundPatchTolerance = 1e-9;

// A start within this distance of touching (world units, either side) is a contact, not
// solid: the sweep then hits at t = 0 when it moves inward and passes when it moves away.
// The counterpart of the trees' kStartSolidNudge (query/trace.h), and the same value.
inline constexpr double kRoundContactBand = 1e-3;

struct RoundEntry {
    double t = 0.0;
    Vec3 normal = Vec3::Zero(); // shape space, unit, facing against the motion
};

// The least parameter t (any sign) at which the centre origin + t * dir enters M, and M's
// normal there; nothing when the line misses M (or dir is zero).
std::optional<RoundEntry> lineEntry(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& origin,
                                    const Vec3& dir);

// The sweep of the shape centred at `from` by `delta` (both shape space), over t in [0, 1].
struct RoundSweep {
    bool startSolid = false; // overlaps the brush by more than the contact band at from
    bool hit = false;        // touches first at t in [0, 1)
    double t = 1.0;
    Vec3 normal = Vec3::Zero(); // shape space
};
// `contactBand` (shape space): kRoundContactBand's, or 0 for a sweep that continues one
// already known to be clear up to `from` (then only an overlap at from is solid).
RoundSweep sweepRoundShape(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from,
                           const Vec3& delta, double contactBand);

// kRoundContactBand in a frame's shape space.
inline double contactBandOf(const RoundShapeFrame& frame) { return kRoundContactBand * frame.shapePerWorld; }

} // namespace shallot

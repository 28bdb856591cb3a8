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
// normal there; nothing when the line misses M (or dir is zero). forwardOnly, for a start
// outside M: patches met only behind the start are skipped (then a t < 0 is meaningless).
std::optional<RoundEntry> lineEntry(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& origin,
                                    const Vec3& dir, bool forwardOnly = false);

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

// sweepRoundShape in two steps, so that a caller with many brushes can finish them in
// order of `earliest` and stop at the first hit before the next one's earliest.
// boundRoundSweep clips the sweep by every face plane moved out by the shape's reach along
// its normal (plus the band): they bound a superset of M (Quake 3's plane shifting: exact
// on faces, too big at edges), so missing it misses M, and M is entered no earlier.
struct RoundSweepBound {
    bool missed = false;     // the sweep misses the superset: no contact
    bool startClear = false; // the start is outside the superset: clear by more than the band
    double earliest = 0.0;   // no contact before this t
};
RoundSweepBound boundRoundSweep(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from,
                                const Vec3& delta, double contactBand);
RoundSweep finishRoundSweep(const RoundShapeFrame& frame, const RoundBrush& brush, const Vec3& from,
                            const Vec3& delta, double contactBand, const RoundSweepBound& bound);

// kRoundContactBand in a frame's shape space.
inline double contactBandOf(const RoundShapeFrame& frame) { return kRoundContactBand * frame.shapePerWorld; }

} // namespace shallot

#pragma once
#include "query/trace.h"

#include <vector>

namespace shallot {

// How far a move stops short of the surface it hit, along that surface's normal (Quake's
// DIST_EPSILON, 1/32 unit). Far above the trace tolerances (kTraceOnPlaneEpsilon,
// kStartSolidNudge), so the end position is clearly empty, and a following move along
// the surface runs parallel to it at this distance rather than in it.
inline constexpr double kSlideBackoff = 1.0 / 32.0;

// Traces per slide: the first plus one per surface slid along (the thesis stops at 5).
inline constexpr int kSlideBumps = 5;

// A step-up lands only on a surface at most this steep (Quake's MIN_STEP_NORMAL: the
// normal's component along `up`; 0.7 is about 45 degrees).
inline constexpr double kMinStepNormal = 0.7;

// A surface the moving box touched: the exact contact of its reference point (not backed
// off), the unit normal facing against the motion that hit it, and the move time in [0, 1]
// at which it happened (the move runs `delta` over unit time; contacts are in time order).
struct Contact {
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    double t = 0.0;
};

struct MoveOptions {
    int bumps = kSlideBumps;       // traces per slide, clamped to [1, 64]
    Vec3 up = Vec3::UnitZ();       // the direction a step-up climbs (normalised; zero: +z)
    double minStepNormal = kMinStepNormal;
};

// end: where the box's reference point ends (never solid: see slideMove).
// startSolid: the start is inside the pose's solid (as traceSegment along delta reads it,
// or the point itself for a zero delta), or on a surface with no empty point within
// kSlideBackoff of it; then end = from and there are no contacts.
// stepped: the step-up path was taken.
struct MoveResult {
    Vec3 end = Vec3::Zero();
    std::vector<Contact> contacts;
    bool startSolid = false;
    bool stepped = false;
};

// What a move collides with: a swept query and a point test with traceSegment's
// conventions (query/trace.h). A compiled pose of a tree is one; a round pose is another
// (query/round_pose_queries.h). Implementations are const and thread-safe.
class MoveSpace {
public:
    virtual TraceResult trace(const Vec3& from, const Vec3& to) const = 0;
    virtual bool isSolid(const Vec3& p) const = 0;

protected:
    ~MoveSpace() = default;
};

// Pose `pose` of a tree as a MoveSpace.
class TreeMoveSpace final : public MoveSpace {
public:
    TreeMoveSpace(const BspTree& tree, int pose) : tree_(tree), pose_(pose) {}
    TraceResult trace(const Vec3& from, const Vec3& to) const override { return traceSegment(tree_, pose_, from, to); }
    bool isSolid(const Vec3& p) const override { return tree_.isSolid(p, pose_); }

private:
    const BspTree& tree_;
    int pose_;
};

// Collide and slide (the thesis's chapter 6, done with exact traces as in Quake's
// SV_FlyMove / PM_StepSlideMove): move the box of pose `pose` (0 <= pose <
// tree.poses.size()) from `from` by `delta`. Each trace that hits stops kSlideBackoff off
// the surface; the rest of the motion is projected onto every surface touched so far (the
// closest motion that enters none of them: along a plane, along the crease of two, or
// none), and traced again, at most options.bumps times. A slide that would turn against
// `delta` stops.
// Step-up (stepHeight > 0): when the slide was blocked by a surface steeper than
// options.minStepNormal, also try up by stepHeight (less under a ceiling), the same slide,
// then down by as much as was climbed; that path is kept when it lands on a walkable
// surface and got further along delta's horizontal part (Quake's stairs).
// Every position the box stops at is checked with tree.isSolid: one that reads solid (a
// contact on a rounding edge) is not taken, the box stays at its last empty position, so
// the end is never solid. A start touching a surface that reads solid is first moved
// kSlideBackoff off it. Non-finite delta or stepHeight count as zero (a non-finite from
// is startSolid); the result is always finite. Const and thread-safe.
MoveResult slideMove(const BspTree& tree, int pose, const Vec3& from, const Vec3& delta, double stepHeight,
                     const MoveOptions& options = {});
// The same through any MoveSpace (tree.isSolid and traceSegment above are its two queries).
MoveResult slideMove(const MoveSpace& space, const Vec3& from, const Vec3& delta, double stepHeight,
                     const MoveOptions& options = {});

} // namespace shallot

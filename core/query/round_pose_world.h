#pragma once
// A round pose (ellipsoid or capsule) against every brush of a world that blocks it,
// exactly: the per-brush tests of round_shape_overlap.h and round_shape_trace.h behind an
// AABB tree over the brushes' bounds. No onion tree: round_pose_queries.h puts one in front.
#include "query/box_trace.h"
#include "query/round_shape_space.h"
#include "query/slide_move.h"
#include "world/world.h"

#include <vector>

namespace shallot {

class RoundPoseWorld final : public MoveSpace {
public:
    // `pose` must be a valid round pose (Pose::round); throws std::invalid_argument with
    // poseShapeProblem's message otherwise. Keeps no reference to `world`.
    RoundPoseWorld(const World& world, const Pose& pose);

    const Pose& pose() const { return pose_; }
    const RoundShapeFrame& frame() const { return frame_; }

    // The shape at p overlaps a blocking brush by more than kRoundContactBand (touching,
    // or overlapping less, is empty, as a surface point is for the trees).
    bool isSolid(const Vec3& p) const override;

    // The shape swept from -> to, with traceSegment's conventions (query/trace.h); the
    // contact band plays the start-solid nudge's part. plane is always -1.
    TraceResult trace(const Vec3& from, const Vec3& to) const override;

    // The same over the part [t0, t1] of from -> to only (0 <= t0 <= t1 <= 1): brushes are
    // gathered around that part, the sweep starts at its start, t is still along from -> to
    // (a hit in [t0, t1), or t = t1 when clear). For callers that know nothing is touched
    // outside it (round_pose_queries.h).
    TraceResult tracePart(const Vec3& from, const Vec3& to, double t0, double t1) const;

    // How many valid brushes block the pose (for reports).
    size_t blockingBrushCount() const;

private:
    template <class Visit>
    void forEachNear(const Aabb& box, const Visit& visit) const;
    bool allSolid(const Vec3& from, const Vec3& to) const;

    Pose pose_;
    RoundShapeFrame frame_;
    BoxTraceWorld boxes_;
    std::vector<RoundBrush> round_;  // per boxes_.brushes; empty for brushes not blocking
    std::vector<bool> blocking_;     // per boxes_.brushes
};

} // namespace shallot

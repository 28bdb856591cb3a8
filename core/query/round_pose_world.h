#pragma once
// A round pose (ellipsoid or capsule) against every brush of a world that blocks it,
// exactly: the per-brush tests of round_shape_overlap.h and round_shape_trace.h behind an
// AABB tree over the brushes' bounds. No onion tree: round_pose_queries.h puts one in front.
#include "query/box_trace.h"
#include "query/round_shape_space.h"
#include "query/slide_move.h"
#include "world/world.h"

#include <memory>
#include <mutex>
#include <vector>

namespace shallot {

class RoundPoseWorld final : public MoveSpace {
public:
    // `pose` must be a valid round pose (Pose::round); throws std::invalid_argument with
    // poseShapeProblem's message otherwise. Keeps no reference to `world`.
    RoundPoseWorld(const World& world, const Pose& pose);
    // A copy makes its brushes again as queries come near them.
    RoundPoseWorld(const RoundPoseWorld& other);
    RoundPoseWorld& operator=(const RoundPoseWorld& other);
    RoundPoseWorld(RoundPoseWorld&&) = default;
    RoundPoseWorld& operator=(RoundPoseWorld&&) = default;
    ~RoundPoseWorld() = default;

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
    // A blocking brush in the shape's space, made the first time a query comes near it (by
    // any thread): most queries (an editor's spawn checks, a few test rays) meet a few of a
    // level's brushes (making all of id_e1m1's takes 2-4 ms).
    const RoundBrush& roundBrush(uint32_t b) const;
    mutable std::vector<RoundBrush> round_;     // per boxes_.brushes; empty until made or not blocking
    std::unique_ptr<std::once_flag[]> made_;    // per boxes_.brushes
    std::vector<bool> blocking_;     // per boxes_.brushes
};

} // namespace shallot

#pragma once
// A round pose's queries over a whole world, with the onion tree in front of the exact
// tests: the tree holds the pose as two boxes (world/round_pose_boxes.h), its bounding
// box and its largest inscribed box.
//   classify: a leaf empty for the bounding box is empty for the shape, a leaf solid for
//             the inscribed box is solid for it; only between are the nearby brushes tested.
//   traceTreeFirst: a bounding box that sweeps clear settles it; else the shape cannot
//             touch anything before the bounding box does, and touches by the time the
//             inscribed box does, so the exact sweep runs only between those two.
//   trace:    the exact sweep alone (RoundPoseWorld::trace). Its brushes are clipped by
//             their shifted face planes and finished in order of earliest contact, which
//             on id_e1m1 costs less than the tree traces in front of it (docs/round_poses.md:
//             2.1 M against 1.6 M ellipsoid traces/s), so it is what moves use.
//   move:     slideMove (query/slide_move.h) over isSolid and trace.
#include "compile/bsp_tree.h"
#include "query/round_pose_world.h"

#include <atomic>
#include <cstdint>

namespace shallot {

// The trees answer to their tolerances (kOnPlaneEpsilon, kStartSolidNudge); the exact part
// of a trace starts and ends this far (world units) beyond where the boxes say, so a box
// contact read a tolerance early or late cannot hide the shape's.
inline constexpr double kRoundTreeMargin = 0.01;

// How many queries the tree settled alone, and how many needed the exact tests.
struct RoundQueryTally {
    uint64_t settled = 0;
    uint64_t exact = 0;
    double settledShare() const { return settled + exact ? double(settled) / double(settled + exact) : 0.0; }
};

class RoundPoseQueries final : public MoveSpace {
public:
    // `exact` is the round pose; `tree` must hold its boxes (compiled from treePoses):
    // throws std::invalid_argument when it does not.
    RoundPoseQueries(const RoundPoseWorld& exact, const BspTree& tree);

    bool isSolid(const Vec3& p) const override;
    TraceResult trace(const Vec3& from, const Vec3& to) const override { return exact_.trace(from, to); }
    TraceResult traceTreeFirst(const Vec3& from, const Vec3& to) const;
    MoveResult move(const Vec3& from, const Vec3& delta, double stepHeight, const MoveOptions& options = {}) const {
        return slideMove(*this, from, delta, stepHeight, options);
    }

    // Counts of the isSolid and traceTreeFirst calls so far (relaxed atomics: thread-safe).
    RoundQueryTally classifyTally() const { return {classifySettled_.load(), classifyExact_.load()}; }
    RoundQueryTally traceTally() const { return {traceSettled_.load(), traceExact_.load()}; }

    const RoundPoseWorld& exact() const { return exact_; }
    int boundingPose() const { return bounding_; }
    int inscribedPose() const { return inscribed_; }

private:
    const RoundPoseWorld& exact_;
    const BspTree& tree_;
    int bounding_ = -1;
    int inscribed_ = -1;
    mutable std::atomic<uint64_t> classifySettled_{0}, classifyExact_{0}, traceSettled_{0}, traceExact_{0};
};

} // namespace shallot

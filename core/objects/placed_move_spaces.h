#pragma once
// The world plus movers placed at offsets, for agents the movers' trees cannot answer:
// round poses (query/round_pose_world.h) and boxes other than the compiled poses
// (query/box_trace.h). Each part is an exact MoveSpace in its mover's own frame, queried at
// p - offset, as the collision scene queries an object's tree; the earliest contact wins
// (combineTraces). A part is met only when the query's region reaches its bounds grown by
// the agent's extent, so a query pays for the movers near it.
#include "geometry/aabb.h"
#include "query/slide_move.h"

#include <vector>

namespace shallot {

struct PlacedSpace {
    const MoveSpace* space = nullptr; // in the mover's own frame (its file position)
    Vec3 offset = Vec3::Zero();       // where it is placed: it answers for p at p - offset
    // The reference points, placed, whose agent may touch it: the mover's bounds grown by
    // the agent's extent and a margin (placedReach).
    Aabb reach;
};

// `bounds` (a mover's, at its file position) grown by the agent's box [agentMins,
// agentMaxs] and kQueryRegionMargin, moved by `offset`.
Aabb placedReach(const Aabb& bounds, const Vec3& agentMins, const Vec3& agentMaxs, const Vec3& offset);

class PlacedMoveSpaces final : public MoveSpace {
public:
    // `base` (the world) and the parts' spaces are kept by reference.
    PlacedMoveSpaces(const MoveSpace& base, std::vector<PlacedSpace> parts)
        : base_(base), parts_(std::move(parts)) {}

    bool isSolid(const Vec3& p) const override;
    TraceResult trace(const Vec3& from, const Vec3& to) const override { return traceWhich(from, to).result; }

    struct Answer {
        TraceResult result;
        int part = -1; // the part whose answer it is (its contact or its start in solid); -1: the base's or none
    };
    Answer traceWhich(const Vec3& from, const Vec3& to) const;

private:
    const MoveSpace& base_;
    std::vector<PlacedSpace> parts_;
};

} // namespace shallot

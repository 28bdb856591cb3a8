#pragma once
// Each mover's brushes as exact spaces, in its own frame, for the agents its tree cannot
// answer: boxes other than the compiled poses (query/box_trace.h) and round poses
// (query/round_pose_world.h). With the world's own space they make a PlacedMoveSpaces at
// the movers' offsets, so those agents meet the movers as the poses' boxes do.
#include "movers/mover.h"
#include "objects/placed_move_spaces.h"
#include "query/box_trace.h"
#include "query/round_pose_world.h"

#include <memory>
#include <mutex>
#include <vector>

namespace shallot {

class MoverShapes {
public:
    // `movers` is kept by reference; `worldBounds` bounds their brushes (the world's).
    MoverShapes(const std::vector<Mover>& movers, const Aabb& worldBounds) : movers_(movers), worldBounds_(worldBounds) {}

    // The movers, placed at `offsets` (one per mover), as parts for the box [mins, maxs];
    // `spaces` receives the parts' spaces (one per mover, kept alive by the caller).
    std::vector<PlacedSpace> boxParts(const Vec3& mins, const Vec3& maxs, const std::vector<Vec3>& offsets,
                                      std::vector<BoxMoveSpace>& spaces) const;
    // The same for a round pose (Pose::isRound, valid): each mover's exact shape for it,
    // made the first time a pose of that name, shape and blocking set asks, and kept.
    std::vector<PlacedSpace> roundParts(const Pose& pose, const std::vector<Vec3>& offsets) const;

private:
    const std::vector<Mover>& movers_;
    Aabb worldBounds_;
    mutable std::once_flag boxesOnce_;
    mutable std::vector<BoxTraceWorld> boxes_; // per mover
    mutable std::mutex roundMutex_;
    struct RoundShapes {
        Pose pose;
        std::vector<std::unique_ptr<const RoundPoseWorld>> perMover;
    };
    mutable std::vector<std::unique_ptr<RoundShapes>> round_;
};

} // namespace shallot

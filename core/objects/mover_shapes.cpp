#include "objects/mover_shapes.h"

namespace shallot {

std::vector<PlacedSpace> MoverShapes::boxParts(const Vec3& mins, const Vec3& maxs, const std::vector<Vec3>& offsets,
                                               std::vector<BoxMoveSpace>& spaces) const {
    std::call_once(boxesOnce_, [&] {
        for (const Mover& m : movers_) boxes_.push_back(BoxTraceWorld::build(World{m.brushes, {}, worldBounds_}));
    });
    spaces.clear();
    spaces.reserve(movers_.size()); // the parts point into it
    std::vector<PlacedSpace> parts;
    for (size_t i = 0; i < movers_.size() && i < offsets.size(); ++i) {
        spaces.emplace_back(boxes_[i], mins, maxs);
        parts.push_back({&spaces.back(), offsets[i], placedReach(movers_[i].bounds, mins, maxs, offsets[i])});
    }
    return parts;
}

std::vector<PlacedSpace> MoverShapes::roundParts(const Pose& pose, const std::vector<Vec3>& offsets) const {
    const RoundShapes* shapes = nullptr;
    {
        std::lock_guard lock(roundMutex_);
        for (const auto& made : round_)
            if (made->pose.name == pose.name && made->pose.shape == pose.shape && made->pose.blockingSet() == pose.blockingSet())
                shapes = made.get();
        if (!shapes) {
            auto made = std::make_unique<RoundShapes>();
            made->pose = pose;
            for (const Mover& m : movers_)
                made->perMover.push_back(std::make_unique<const RoundPoseWorld>(World{m.brushes, {pose}, worldBounds_}, pose));
            shapes = round_.emplace_back(std::move(made)).get();
        }
    }
    std::vector<PlacedSpace> parts;
    for (size_t i = 0; i < movers_.size() && i < offsets.size(); ++i)
        parts.push_back({shapes->perMover[i].get(), offsets[i], placedReach(movers_[i].bounds, pose.mins, pose.maxs, offsets[i])});
    return parts;
}

} // namespace shallot

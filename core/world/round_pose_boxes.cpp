#include "world/round_pose_boxes.h"

namespace shallot {

std::string inscribedPoseName(const std::string& roundName) { return roundName + "~inscribed"; }

Pose boundingBoxPose(const Pose& round) {
    Pose box = round;
    box.shape = {};
    return box;
}

Pose inscribedBoxPose(const Pose& round) {
    Pose box = boundingBoxPose(round);
    box.name = inscribedPoseName(round.name);
    box.maxs = inscribedHalfExtents(round.shape);
    box.mins = -box.maxs;
    return box;
}

std::vector<Pose> treePoses(const std::vector<Pose>& poses) {
    std::vector<Pose> out;
    out.reserve(poses.size());
    for (const Pose& p : poses) out.push_back(p.shape.isRound() ? boundingBoxPose(p) : p);
    for (const Pose& p : poses)
        if (p.shape.isRound()) out.push_back(inscribedBoxPose(p));
    return out;
}

} // namespace shallot

#pragma once
// An onion tree holds boxes only. A round pose goes into it as two boxes: its bounding box
// (a leaf empty for that box is empty for the shape) and its largest inscribed box (a leaf
// solid for that box is solid for the shape); only between the two are the brushes near
// the shape tested exactly (query/round_pose_queries.h).
#include "world/pose.h"

#include <string>
#include <vector>

namespace shallot {

// What the inscribed box of round pose NAME is called in the tree: "NAME~inscribed".
std::string inscribedPoseName(const std::string& roundName);

// The round pose as a box pose: its bounding box, same name, colour, blocking and walking.
Pose boundingBoxPose(const Pose& round);
// Its largest inscribed box (world/pose_shape.h), named inscribedPoseName(round.name).
Pose inscribedBoxPose(const Pose& round);

// The poses to compile for `poses`: box poses as they are, each round pose as its bounding
// box in its place (so pose indices keep their meaning), then the inscribed boxes of the
// round poses in their order.
std::vector<Pose> treePoses(const std::vector<Pose>& poses);

} // namespace shallot

#pragma once
// The Poses dock's Shape column: what it shows for a pose (its box's size, "point", or a
// round pose's shape, "capsule 16×56") and what typing into it does (six numbers: a box's
// corners; "capsule:R,HEIGHT" / "ellipsoid:R,H": a round shape, as shallot-cli's --pose
// takes it; "box": a round pose becomes its bounding box).
#include "world/pose.h"

#include <QString>

namespace shallot {

// "point", "32×32×56", "capsule 16×56" (radius × height), "ellipsoid 16×28" (across × up).
QString poseShapeSummary(const Pose& pose);
// The text the cell's editor starts from: the box's corners, or "capsule:16,56".
QString poseShapeEditText(const Pose& pose);
QString poseShapeTooltip(const Pose& pose);

// Applies the typed `text` to `pose` (its name, colour, blocking and walking kept); the
// reason it cannot, for the user (the core's for a bad round shape), else empty.
QString applyPoseShapeText(const QString& text, Pose& pose);

} // namespace shallot

#pragma once
#include "world/brush_geometry.h"
#include "world/pose.h"

#include <vector>

namespace shallot {

// The pose's configuration-space obstacle of a brush: the set of reference points p at
// which the box [p + mins, p + maxs] overlaps the brush's interior. That is the Minkowski
// sum brush + [-maxs, -mins], built exactly from its supporting planes: the brush's face
// planes pushed out by the box's support distance, the 6 axial bevels, and the bevels
// through brush edges parallel to each box axis (edge x axis) where the edge is on the
// brush's silhouette. Redundant planes produce no face and are dropped.
std::vector<Plane> expandedPlanes(const BrushGeometry& brush, const Pose& pose);

// Support distance of the box [-maxs, -mins] along `n`: max over the box of n . x.
double poseSupport(const Pose& pose, const Vec3& n);

// The expanded brush as a polyhedron (faces tagged with their index in expandedPlanes).
ConvexPolyhedron expandBrush(const BrushGeometry& brush, const Pose& pose, double worldExtent);

} // namespace shallot

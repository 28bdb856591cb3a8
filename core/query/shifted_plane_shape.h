#pragma once
// Quake 3's way of colliding a round agent with a brush, for comparison with the exact
// tests (issue 42, item 5; docs/round_poses.md, "Where Quake 3's capsule is wrong"): every
// plane of the brush moved out by the shape's reach along its normal, and the shape at p
// taken to be in the brush when p is behind all the moved planes. The planes are the
// brush's faces plus the bevels Quake 3's compiler adds to every brush (q3map's
// AddBrushBevels, read as a description): the six axial planes of its bounds and, for each
// edge, the planes through it along an axis that have the whole brush behind them.
// Exact on faces; at a convex edge between faces whose normals are a apart (no bevel in
// between) the moved planes reach r (1 / cos(a/2) - 1) beyond the rounded surface.
#include "world/brush_geometry.h"
#include "world/pose_shape.h"

#include <vector>

namespace shallot {

// How far the shape reaches from its centre along the unit direction n: its support
// function (a capsule: r + (H/2 - r) |n.z|; an ellipsoid: sqrt(r^2 (nx^2 + ny^2) + h^2 nz^2)).
double roundShapeReach(const PoseShape& shape, const Vec3& n);

// A brush as Quake 3 collides a shape with it: its planes already moved out.
struct ShiftedPlaneBrush {
    std::vector<Plane> planes; // moved out by the shape's reach; faces first, then bevels
    int faceCount = 0;         // planes[0, faceCount) are the brush's faces
    Aabb bounds;               // the moved planes' region's box: the brush's grown by the shape's
};

// A vertex lies behind a candidate bevel plane when no farther out than this (world
// units): looser would add bevels that cut into the brush (refusing less than Quake 3).
inline constexpr double kBevelVertexTolerance = 1e-6;

ShiftedPlaneBrush shiftPlanes(const BrushGeometry& brush, const PoseShape& shape);

// How deep p lies inside the moved planes: the least distance from p to one of them, the
// distance the shape must move along that plane's normal to be let go; negative outside.
double shiftedPlaneDepth(const ShiftedPlaneBrush& brush, const Vec3& p);

} // namespace shallot

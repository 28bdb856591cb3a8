#pragma once
// The Too dark overlay (issue 41): the parts of a pose's walkable floors where the light
// the engine would read is under a limit, luxel cell by luxel cell, drawn a hair above them.
#include "light/level_light.h"
#include "mesh_batch.h"
#include "nav/nav_mesh.h"

namespace shallot::render {

// A face is a floor when its normal's z is at least this (Quake's walkable slope).
inline constexpr double kDarkFloorNz = 0.7;
// The cells are drawn this far above their floor (world units), over the lit faces.
inline constexpr double kDarkCellLift = 0.25;
// A floor point is walkable when a walkable polygon lies above it within this of the pose's
// reference height (world units): on a slope the box stands higher than on flat ground by
// its half width times the slope's tangent (at most 16 for Quake's player on a 0.7 slope).
inline constexpr double kDarkFloorMatch = 17.0;

// `mesh` is the pose's navigation mesh, whose polygons lie at the pose's reference point:
// `feet` (the pose's mins.z, <= 0) below it. A cell is walkable when a polygon of the mesh
// covers its middle seen from above, at its height raised to the reference point.
MeshBatch buildTooDarkBatch(const LevelLighting& lighting, const NavMesh& mesh, double feet, int limit);

} // namespace shallot::render

#pragma once
// A round pose's expanded world (core/query/round_expanded_surface.h) as the views draw it:
// in 3D its rounded surface, lit and opaque in kExpandedWorldColour (each brush's grown
// copy is closed, so the depth test shows the outermost: the expanded world's boundary as
// seen from the empty space, which the box poses' outlines show); in a 2D view its
// section by the view's plane, as lines (the cut of the tessellation: every line's ends
// lie on a chord of the exact surface, at most the tessellation's sag inside it).
#include "compile/bsp_tree.h"
#include "mesh_batch.h"
#include "query/round_expanded_world.h"

#include <vector>

namespace shallot::render {

// A triangle whose three corners, moved kRoundSurfaceLeafProbe out along their normals,
// lie in one leaf of `tree` empty for its sight pose belongs to that leaf: that convex cell
// holds the triangle so moved, and every line of sight to its front (back faces are
// culled) crosses it, so the 3D view may draw it only when it sees the leaf, as it does the
// box poses' outlines. The others (across leaves, or inside another brush) belong to none
// and are drawn whenever in range.
MeshBatch roundSurfaceBatch(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree);

// How far out along its normal a corner's leaf is looked up (world units): off the
// surface, well inside the empty space the shape keeps from the brushes.
inline constexpr double kRoundSurfaceLeafProbe = 0.25;

// The segments where the plane x[axis] = at cuts the triangles, in kExpandedWorldColour.
void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfacePiece>& pieces, int axis, double at);

} // namespace shallot::render

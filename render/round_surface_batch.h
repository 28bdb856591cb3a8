#pragma once
// A round pose's expanded world (core/query/round_expanded_surface.h) as the views draw it:
// in 3D its rounded surface, lit and opaque in kExpandedWorldColour (each brush's grown
// copy is closed, so the depth test shows the outermost: the expanded world's boundary as
// seen from the empty space, which the box poses' outlines show); in a 2D view its
// section by the view's plane, as lines (the cut of the tessellation: every line's ends
// lie on a chord of the exact surface, at most the tessellation's sag inside it).
#include "mesh_batch.h"
#include "query/round_expanded_world.h"

#include <vector>

namespace shallot::render {

MeshBatch roundSurfaceBatch(const std::vector<RoundSurfacePiece>& pieces);

// The segments where the plane x[axis] = at cuts the triangles, in kExpandedWorldColour.
void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfacePiece>& pieces, int axis, double at);

} // namespace shallot::render

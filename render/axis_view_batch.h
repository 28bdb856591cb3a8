#pragma once
// What a 2D view (an orthographic view along a world axis, without depth testing) needs of
// a batch: the same pixels from less geometry. The whole map's overlays stack up in a 2D
// view; under llvmpipe each vertex and line costs the UI thread, and librequake_e3m4's
// portal outlines took 120 ms a 2D frame.
#include "mesh_batch.h"

namespace shallot::render {

// The batch as a view along `axis` (0: x, 1: y, 2: z) draws it, with what draws no pixel
// or no new pixel left out:
// - triangles whose plane contains the axis: seen edge-on, they cover no pixel;
// - for an opaque batch (no blending, so the last line drawn over a pixel sets it),
//   lines that project onto a point, and each line that projects onto the same segment
//   (same endpoints, same direction, same colour) as a later one, which draws over it.
// Leaf runs are dropped: 2D views draw every leaf.
MeshBatch batchForAxisView(const MeshBatch& batch, int axis, bool opaque);

} // namespace shallot::render

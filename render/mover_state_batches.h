#pragma once
// What the editor draws of the movers at their state (issue 40): the volume each mover
// brush sweeps along its motion, ghosted, and the agents walking while the movers play.
#include "mesh_batch.h"
#include "world/brush_geometry.h"

#include <span>

namespace shallot::render {

// The swept volumes (movers/swept_brush.h, one per brush and move) as translucent faces.
MeshBatch buildMoverSweptBatch(std::span<const BrushGeometry> volumes);

// Each agent's box, translucent, outlined.
MeshBatch buildAgentBatch(std::span<const Aabb> boxes);

} // namespace shallot::render

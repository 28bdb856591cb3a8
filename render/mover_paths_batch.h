#pragma once
// Where the level's movers go (issue 40): each door's, plat's, train's and button's swept
// volume (every place its brushes pass through) as a ghosted box, the box of its brushes at
// every stop but the first as an outline, and a train's path from corner to corner.
#include "mesh_batch.h"
#include "movers/mover.h"

namespace shallot::render {

struct MoverPathBatches {
    MeshBatch volumes; // translucent triangles
    MeshBatch outlines; // lines
};

MoverPathBatches buildMoverPathBatches(const LevelMovers& movers);

} // namespace shallot::render

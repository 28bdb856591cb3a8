#pragma once
// A batch split into spatial chunks, so views draw only the chunks they can see (and, in
// 3D, overlays only near the camera). Large maps' overlays run to millions of vertices;
// software rendering cannot draw them all every frame.
#include "geometry/aabb.h"
#include "mesh_batch.h"

#include <vector>

namespace shallot::render {

// Edge of the cubic grid cells primitives are sorted into (world units).
inline constexpr double kChunkSize = 512.0;

struct MeshChunk {
    Aabb bounds; // of the chunk's vertices
    MeshBatch batch;
};

// Splits by the grid cell of each primitive's first vertex (triangles stay whole). A batch
// with leaf runs gives chunks whose vertices are grouped by leaf, one run per leaf.
std::vector<MeshChunk> splitIntoChunks(MeshBatch batch);

} // namespace shallot::render

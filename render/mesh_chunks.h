#pragma once
// A batch split into spatial chunks, so views draw only the chunks they can see (and, in
// 3D, overlays only near the camera). Large maps' overlays run to millions of vertices;
// software rendering cannot draw them all every frame.
#include "geometry/aabb.h"
#include "mesh_batch.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace shallot::render {

// Edge of the cubic grid cells primitives are sorted into (world units).
inline constexpr double kChunkSize = 512.0;

// The grid cell of a coordinate along one axis, and the key of the cell at grid
// coordinates (x, y, z): what MeshChunk::cell holds.
int64_t chunkCoordinate(double v);
uint64_t chunkCellKey(int64_t x, int64_t y, int64_t z);

struct MeshChunk {
    Aabb bounds; // of the chunk's vertices
    // The chunk's primitives, never changed once made (its own leafRuns are empty): the
    // versions of a layer that keep the chunk share them (an update of the tree renumbers
    // the leaves but keeps the vertices; a copy took librequake_e3m4's overlays 8-14 ms).
    // Never null in a chunk from splitIntoChunks.
    std::shared_ptr<const MeshBatch> geometry;
    std::vector<LeafRun> leafRuns; // over geometry's vertices
    uint64_t cell = 0; // the grid cell's key; chunks of one split come in increasing order

    size_t vertexCount() const { return geometry->vertices.size(); }
};

// Splits by the grid cell of each primitive's first vertex (triangles stay whole). A batch
// with leaf runs gives chunks whose vertices are grouped by leaf, one run per leaf.
std::vector<MeshChunk> splitIntoChunks(MeshBatch batch);

// How the chunks `after` differ from `before` (both from splitIntoChunks), cell by cell.
struct ChunkChanges {
    // The boxes of the chunks the two do not hold alike: a cell's chunk whose vertices differ
    // in any byte gives its boxes in both, a cell in one of them only its box there. Pixels
    // outside these boxes draw the same from both.
    std::vector<Aabb> boxes;
    // Per chunk of `after`: the chunk of `before` with the same vertices, byte for byte
    // (-1: none), and whether its leaf runs are the same too (leaves are renumbered when a
    // tree is updated, so a chunk can be alike in pixels but not in the leaves it names).
    std::vector<int32_t> keptFrom;
    std::vector<bool> sameRuns;
};
// With `onlyCells` (ascending), a cell outside it that both hold is taken as alike in
// vertices without comparing them: `after` kept that chunk of `before` (updatedChunks).
ChunkChanges chunkChanges(const std::vector<MeshChunk>& before, const std::vector<MeshChunk>& after,
                          const std::vector<uint64_t>* onlyCells = nullptr);

} // namespace shallot::render

#include "mesh_chunks.h"

#include <cmath>
#include <map>
#include <tuple>

namespace shallot::render {

std::vector<MeshChunk> splitIntoChunks(MeshBatch batch) {
    const size_t stride = batch.primitive == Primitive::Lines ? 2 : 3;
    std::map<std::tuple<long, long, long>, MeshChunk> cells;
    for (size_t i = 0; i + stride <= batch.vertices.size(); i += stride) {
        const float* p = batch.vertices[i].position;
        const auto key = std::make_tuple(long(std::floor(p[0] / kChunkSize)), long(std::floor(p[1] / kChunkSize)),
                                         long(std::floor(p[2] / kChunkSize)));
        MeshChunk& chunk = cells[key];
        if (chunk.batch.vertices.empty()) {
            chunk.batch.primitive = batch.primitive;
            chunk.batch.lit = batch.lit;
        }
        for (size_t k = 0; k < stride; ++k) {
            const Vertex& v = batch.vertices[i + k];
            chunk.batch.vertices.push_back(v);
            chunk.bounds.add(Vec3(v.position[0], v.position[1], v.position[2]));
        }
    }
    std::vector<MeshChunk> out;
    out.reserve(cells.size());
    for (auto& [key, chunk] : cells) out.push_back(std::move(chunk));
    return out;
}

} // namespace shallot::render

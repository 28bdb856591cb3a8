#include "mesh_chunks.h"

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace shallot::render {

std::vector<MeshChunk> splitIntoChunks(MeshBatch batch) {
    const size_t stride = batch.primitive == Primitive::Lines ? 2 : 3;
    // Grid coordinates fit in 21 bits each for worlds within +-2^29 units.
    auto key = [](const float* p) {
        auto cell = [](float v) { return uint64_t(int64_t(std::floor(v / kChunkSize)) + (1 << 20)) & 0x1fffff; };
        return cell(p[0]) | cell(p[1]) << 21 | cell(p[2]) << 42;
    };
    std::unordered_map<uint64_t, MeshChunk> cells;
    for (size_t i = 0; i + stride <= batch.vertices.size(); i += stride) {
        MeshChunk& chunk = cells[key(batch.vertices[i].position)];
        if (chunk.batch.vertices.empty()) {
            chunk.batch.primitive = batch.primitive;
            chunk.batch.lit = batch.lit;
            chunk.batch.outline = batch.outline;
        }
        for (size_t k = 0; k < stride; ++k) {
            const Vertex& v = batch.vertices[i + k];
            chunk.batch.vertices.push_back(v);
            chunk.bounds.add(Vec3(v.position[0], v.position[1], v.position[2]));
        }
    }
    std::vector<std::pair<uint64_t, MeshChunk>> sorted(std::make_move_iterator(cells.begin()), std::make_move_iterator(cells.end()));
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; }); // deterministic
    std::vector<MeshChunk> out;
    out.reserve(sorted.size());
    for (auto& [k, chunk] : sorted) out.push_back(std::move(chunk));
    return out;
}

} // namespace shallot::render

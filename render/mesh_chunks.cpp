#include "mesh_chunks.h"

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace shallot::render {

std::vector<MeshChunk> splitIntoChunks(MeshBatch batch) {
    const size_t stride = batch.primitive == Primitive::Lines ? 2 : 3;
    // Grid coordinates fit in 21 bits each for worlds within +-2^29 units.
    auto key = [](const float* p) {
        auto cell = [](float v) { return uint64_t(int64_t(std::floor(v / kChunkSize)) + (1 << 20)) & 0x1fffff; };
        return cell(p[0]) | cell(p[1]) << 21 | cell(p[2]) << 42;
    };
    // Each chunk's primitives as (leaf, first vertex), in batch order.
    std::unordered_map<uint64_t, std::vector<std::pair<int32_t, uint32_t>>> cells;
    size_t run = 0;
    for (size_t i = 0; i + stride <= batch.vertices.size(); i += stride) {
        while (run < batch.leafRuns.size() && batch.leafRuns[run].first <= i) ++run;
        const int32_t leaf = run > 0 ? batch.leafRuns[run - 1].leaf : -1;
        cells[key(batch.vertices[i].position)].emplace_back(leaf, uint32_t(i));
    }
    std::vector<std::pair<uint64_t, std::vector<std::pair<int32_t, uint32_t>>>> sorted(
        std::make_move_iterator(cells.begin()), std::make_move_iterator(cells.end()));
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; }); // deterministic
    const bool byLeaf = !batch.leafRuns.empty();
    std::vector<MeshChunk> out;
    out.reserve(sorted.size());
    for (auto& [k, primitives] : sorted) {
        if (byLeaf)
            std::stable_sort(primitives.begin(), primitives.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        MeshChunk& chunk = out.emplace_back();
        chunk.cell = k;
        chunk.batch.primitive = batch.primitive;
        chunk.batch.lit = batch.lit;
        chunk.batch.outline = batch.outline;
        chunk.batch.vertices.reserve(primitives.size() * stride);
        for (const auto& [leaf, first] : primitives) {
            if (byLeaf) chunk.batch.setLeaf(leaf);
            for (size_t v = first; v < first + stride; ++v) {
                const Vertex& vertex = batch.vertices[v];
                chunk.batch.vertices.push_back(vertex);
                chunk.bounds.add(Vec3(vertex.position[0], vertex.position[1], vertex.position[2]));
            }
        }
    }
    return out;
}

ChunkChanges chunkChanges(const std::vector<MeshChunk>& before, const std::vector<MeshChunk>& after) {
    auto alike = [](const MeshBatch& a, const MeshBatch& b) {
        return a.primitive == b.primitive && a.lit == b.lit && a.outline == b.outline &&
               a.vertices.size() == b.vertices.size() &&
               std::memcmp(a.vertices.data(), b.vertices.data(), a.vertices.size() * sizeof(Vertex)) == 0;
    };
    ChunkChanges out;
    out.keptFrom.assign(after.size(), -1);
    out.sameRuns.assign(after.size(), false);
    size_t i = 0, j = 0;
    while (i < before.size() || j < after.size()) {
        if (j == after.size() || (i < before.size() && before[i].cell < after[j].cell)) {
            out.boxes.push_back(before[i++].bounds);
        } else if (i == before.size() || after[j].cell < before[i].cell) {
            out.boxes.push_back(after[j++].bounds);
        } else {
            if (alike(before[i].batch, after[j].batch)) {
                out.keptFrom[j] = int32_t(i);
                out.sameRuns[j] = before[i].batch.leafRuns == after[j].batch.leafRuns;
            } else {
                out.boxes.push_back(before[i].bounds);
                out.boxes.push_back(after[j].bounds);
            }
            ++i, ++j;
        }
    }
    return out;
}

} // namespace shallot::render

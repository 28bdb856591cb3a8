#include "mesh_chunks.h"

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace shallot::render {

int64_t chunkCoordinate(double v) { return int64_t(std::floor(v / kChunkSize)); }

uint64_t chunkCellKey(int64_t x, int64_t y, int64_t z) {
    // Grid coordinates fit in 21 bits each for worlds within +-2^29 units.
    auto bits = [](int64_t c) { return uint64_t(c + (1 << 20)) & 0x1fffff; };
    return bits(x) | bits(y) << 21 | bits(z) << 42;
}

std::vector<MeshChunk> splitIntoChunks(MeshBatch batch) {
    const size_t stride = batch.primitive == Primitive::Lines ? 2 : 3;
    auto key = [](const float* p) { return chunkCellKey(chunkCoordinate(p[0]), chunkCoordinate(p[1]), chunkCoordinate(p[2])); };
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
        auto geometry = std::make_shared<MeshBatch>();
        geometry->primitive = batch.primitive;
        geometry->lit = batch.lit;
        geometry->outline = batch.outline;
        geometry->vertices.reserve(primitives.size() * stride);
        for (const auto& [leaf, first] : primitives) {
            if (byLeaf) geometry->setLeaf(leaf);
            for (size_t v = first; v < first + stride; ++v) {
                const Vertex& vertex = batch.vertices[v];
                geometry->vertices.push_back(vertex);
                chunk.bounds.add(Vec3(vertex.position[0], vertex.position[1], vertex.position[2]));
            }
        }
        chunk.leafRuns = std::move(geometry->leafRuns);
        geometry->leafRuns = {};
        chunk.geometry = std::move(geometry);
    }
    return out;
}

ChunkChanges chunkChanges(const std::vector<MeshChunk>& before, const std::vector<MeshChunk>& after,
                          const std::vector<uint64_t>* onlyCells) {
    auto compared = [&](uint64_t cell) { return !onlyCells || std::binary_search(onlyCells->begin(), onlyCells->end(), cell); };
    auto alike = [](const MeshChunk& c, const MeshChunk& d) {
        if (c.geometry == d.geometry) return true; // a chunk kept by updatedChunks
        const MeshBatch &a = *c.geometry, &b = *d.geometry;
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
            if (!compared(after[j].cell) || alike(before[i], after[j])) {
                out.keptFrom[j] = int32_t(i);
                out.sameRuns[j] = before[i].leafRuns == after[j].leafRuns;
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

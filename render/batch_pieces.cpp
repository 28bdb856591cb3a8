#include "batch_pieces.h"

#include <algorithm>

namespace shallot::render {

void VertexRanges::add(int first, int end) {
    if (!firsts.empty() && firsts.back() + counts.back() == first) {
        counts.back() += end - first;
    } else {
        firsts.push_back(first);
        counts.push_back(end - first);
    }
}

BatchPieces::BatchPieces(const MeshBatch& batch) {
    const uint32_t stride = batch.primitive == Primitive::Lines ? 2 : 3, size = kPrimitivesPerPiece * stride;
    const uint32_t count = uint32_t(batch.vertices.size());
    pieces_.reserve((count + size - 1) / size);
    for (uint32_t first = 0; first < count; first += size) {
        Piece& piece = pieces_.emplace_back(Piece{first, std::min(size, count - first), {}});
        for (uint32_t v = first; v < first + piece.count; ++v) {
            const float* p = batch.vertices[v].position;
            piece.bounds.add(Vec3(p[0], p[1], p[2]));
        }
    }
}

} // namespace shallot::render

#pragma once
// A batch's primitives in pieces of a few, each with its bounds, so that a draw can leave out
// the pieces that miss a small part of the view. A 2D view's picture patched after an edit
// covers a few hundred pixels, but the chunks that reach it held 360,000-500,000 vertices on
// librequake_e3m4 with every overlay, and llvmpipe pays for each vertex whether it draws a
// pixel or not.
#include "geometry/aabb.h"
#include "mesh_batch.h"

#include <cstdint>
#include <vector>

namespace shallot::render {

// Vertex ranges of one draw call (glMultiDrawArrays).
struct VertexRanges {
    std::vector<int> firsts, counts;
    // Appends [first, end), joined to the last range when they meet.
    void add(int first, int end);
    bool empty() const { return firsts.empty(); }
};

class BatchPieces {
public:
    // Primitives per piece. Of the vertices of the chunks reaching a patch on librequake_e3m4,
    // pieces of 64 left 47-76%, of 8 33-65%, of 32 a median 60%: smaller pieces cost more
    // tests and more ranges for little.
    static constexpr uint32_t kPrimitivesPerPiece = 32;

    BatchPieces() = default;
    explicit BatchPieces(const MeshBatch& batch);
    bool empty() const { return pieces_.empty(); }
    size_t size() const { return pieces_.size(); }
    // The vertices of every piece for which `outside(bounds)` is false, in batch order.
    template <class Outside>
    VertexRanges inside(const Outside& outside) const {
        VertexRanges out;
        for (const Piece& p : pieces_)
            if (!outside(p.bounds)) out.add(int(p.first), int(p.first + p.count));
        return out;
    }

private:
    struct Piece {
        uint32_t first, count; // vertices
        Aabb bounds;           // of their positions
    };
    std::vector<Piece> pieces_;
};

} // namespace shallot::render

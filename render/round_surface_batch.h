#pragma once
// A round pose's expanded world (core/query/round_expanded_surface.h) as the views draw it:
// in 3D its rounded surface, lit and opaque in kExpandedWorldColour (each brush's grown
// copy is closed, so the depth test shows the outermost: the expanded world's boundary as
// seen from the empty space, which the box poses' outlines show); in a 2D view its
// section by the view's plane, as lines (the cut of the tessellation: every line's ends
// lie on a chord of the exact surface, at most the tessellation's sag inside it).
#include "compile/bsp_tree.h"
#include "mesh_chunks.h"
#include "query/round_expanded_world.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace shallot::render {

// A triangle whose three corners, moved kRoundSurfaceLeafProbe out along their normals,
// lie in one leaf of `tree` empty for its sight pose belongs to that leaf: that convex cell
// holds the triangle so moved, and every line of sight to its front (back faces are
// culled) crosses it, so the 3D view may draw it only when it sees the leaf, as it does the
// box poses' outlines. The others (across leaves, or inside another brush) belong to none
// and are drawn whenever in range.
MeshBatch roundSurfaceBatch(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree);

// How far out along its normal a corner's leaf is looked up (world units): off the
// surface, well inside the empty space the shape keeps from the brushes.
inline constexpr double kRoundSurfaceLeafProbe = 0.25;

// The chunks of splitIntoChunks(roundSurfaceBatch(pieces, tree)) (the same triangles in
// each chunk cell, each with the same leaf; the order within a chunk may differ), kept
// between updates so that an edit costs what it changed: each piece (a brush's surface) is
// turned into vertices and sorted into chunk cells once while it is kept; its corners'
// leaves are carried to the next tree through the incremental compile's leaf map (a kept
// leaf keeps its cell, so a point in it stays in it) and looked up again only where their
// leaf is gone; a chunk cell that no new, gone or looked-up triangle reaches keeps its
// geometry (the views keep its upload) and only has its leaf runs renumbered. Used by one
// thread at a time.
class RoundSurfaceChunker {
public:
    // `leafOfLast`: per leaf of the tree of the last update, its leaf in `tree` (-1: gone);
    // null when `tree` does not carry over that one's leaves (every corner looked up).
    std::vector<MeshChunk> update(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree,
                                  const std::vector<int32_t>* leafOfLast);
    // Corners the last update looked up in the tree, and chunks whose geometry it kept.
    size_t lookedUp() const { return lookedUp_; }
    size_t keptChunks() const { return keptChunks_; }

private:
    struct Piece {
        RoundSurfacePiece source; // held, so that its address names it while it is kept
        std::vector<Vertex> vertices;
        std::vector<std::pair<uint64_t, std::vector<uint32_t>>> cells; // chunk cell -> its triangles, ascending cells
        std::vector<uint32_t> cellOfTriangle; // per triangle: its index in `cells`
        std::vector<int32_t> cornerLeaves; // per vertex: its probe's leaf in the last update's tree
    };
    std::unordered_map<const void*, Piece> pieces_;
    std::unordered_map<uint64_t, MeshChunk> chunks_; // the last update's, by cell
    size_t lookedUp_ = 0, keptChunks_ = 0;
};

// The segments where the plane x[axis] = at cuts the triangles, in kExpandedWorldColour.
// With `bounds` (per piece, as RoundExpandedWorld::bounds gives them) only the pieces
// whose box the plane crosses are cut.
void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfacePiece>& pieces, int axis, double at,
                            const std::vector<Aabb>* bounds = nullptr);

} // namespace shallot::render

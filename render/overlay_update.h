#pragma once
// Tree overlays after an edit, drawn again only near it. An incremental compile keeps most
// onion leaves (IncrementalCompiler::onionLeafOfPrevious): the same cells and polygons,
// renumbered, in the same order. What an overlay draws of a leaf lies on the leaf's cell
// and depends only on the leaf and the leaves it touches. So an overlay chunk (a grid cell
// of mesh_chunks.h) that no changed leaf reaches comes out as before but for its leaf
// numbers; the others are drawn again from the leaves that reach them.
#include "compile/leaf_cell_list.h"
#include "mesh_chunks.h"
#include "tree_overlays.h"

#include <optional>
#include <vector>

namespace shallot::render {

// What the tree overlays of one tree were drawn from, leaf by leaf.
struct OverlayLeafInputs {
    std::vector<Aabb> cellBounds;     // per leaf, of its cell
    std::vector<uint64_t> leafSolid;  // per leaf
    std::vector<bool> reached;        // per leaf; empty when reachability is not drawn
    std::vector<bool> greyed;         // per leaf; empty when nothing is greyed
    std::vector<Vec3> leakPath;
    Aabb extent; // the overlays draw nothing outside it (drawnExtent)
};

// leafCellBounds (tree_overlays.h) of a tree whose leaves carry over from an earlier one
// (leafOfBefore[old] = leaf): the kept leaves take their box from `before`.
std::vector<Aabb> leafCellBounds(const LeafCellList& cells, const std::vector<Aabb>& before,
                                 const std::vector<int32_t>& leafOfBefore);

// Where the overlays of a tree draw: within the cells of the leaves that do not touch the
// world box and the tree's boundary polygons (the void's leaves draw nothing but their
// polygons), unless `voidDrawn` (cells drawn with includeOutside, or a reach that leaks):
// then the world box. An edit near a level's outer wall renews leaves of the void that
// reach the world box; only their part within this box can change what is drawn.
Aabb drawnExtent(const BspTree& tree, const std::vector<Aabb>& cellBounds, bool voidDrawn);

// Where the overlays drawn from `after` may differ from those drawn from `before` (the same
// overlays, options and pose), whose tree's leaves carry over as leafOfBefore says.
struct OverlayRegion {
    std::vector<uint64_t> cells; // chunk cells to draw again (MeshChunk::cell), ascending
    LeafMask leaves;             // per leaf of `after`: whether it reaches one of those cells
    size_t markedLeaves = 0;
};
// A leaf changed when it is new, or its solidity, reach or grey differs; the region is
// the chunk cells that the cells of the changed and the removed leaves reach within the
// two extents (and the leak path's, when it moved). nullopt when that is more than maxCells chunk cells: then
// the caller draws everything.
std::optional<OverlayRegion> changedRegion(const OverlayLeafInputs& before, const OverlayLeafInputs& after,
                                           const std::vector<int32_t>& leafOfBefore, size_t maxCells);

// The overlay's chunks as splitIntoChunks of the whole overlay drawn from `after` gives
// them: outside the region, the chunks of `before` (that overlay drawn from `before`) with
// their leaf runs renumbered; inside it, the chunks of `redrawn`, the overlay drawn for
// region.leaves alone.
std::vector<MeshChunk> updatedChunks(const std::vector<MeshChunk>& before, const std::vector<int32_t>& leafOfBefore,
                                     const OverlayRegion& region, MeshBatch redrawn);

} // namespace shallot::render

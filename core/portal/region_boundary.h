#pragma once
#include "compile/bsp_tree.h"
#include "compile/leaf_cell_list.h"
#include "geometry/convex_polyhedron.h"

#include <vector>

namespace shallot {

// A piece of a leaf's cell face whose other side is in another region.
struct BoundaryPiece {
    int32_t leaf;       // the leaf whose face it is
    int32_t neighbour;  // the leaf across, or -1 across the world box
    Polygon polygon;    // counter-clockwise seen from outside the leaf
    Vec3 normal;        // outward from the leaf
};

// The surfaces between regions of leaves: every piece of every cell face of a leaf with
// region[leaf] >= 0 whose leaf across has a different region (region -1, or a leaf past
// the end of `region`, belongs to none; the world box has none across it). Two regions
// that meet give each its own copy of the shared surface. `cells` is leafCells(tree).
// Faces are pushed across from the root (pushPolygon), leaves in blocks on up to
// `threads` threads; the pieces come out by leaf. With `onlyLeaves`, only the pieces of
// the leaves it marks (their neighbours' regions still decide which pieces those are).
//
// This is what the editor draws of a set of cells: their faces between two leaves of one
// region only cut the region into its cells, and drawn translucent they fill open space
// with layer upon layer that hides the level and costs the renderer most of a frame.
std::vector<BoundaryPiece> regionBoundary(const BspTree& tree, const LeafCellList& cells,
                                          const std::vector<int32_t>& region, int threads,
                                          const std::vector<bool>* onlyLeaves = nullptr);

} // namespace shallot

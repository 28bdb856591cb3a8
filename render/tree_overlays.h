#pragma once
// Render batches for the compiled onion tree: leaf cells, portals, a pose's expanded
// world (union surface), reachability and leak paths, and test rays with their contacts.
#include "compile/bsp_tree.h"
#include "compile/leaf_cell_list.h"
#include "geometry/convex_polyhedron.h"
#include "mesh_batch.h"
#include "palette.h"

#include <vector>

namespace shallot::render {

// The overlays' colours (which the views' legends name) are in palette.h.

enum class CellFilter { Empty, Solid, DiffersBetweenPoses, All };

enum class CellColouring { BySolidity, ByBitset };

struct CellOverlayOptions {
    int pose = 0;
    CellFilter filter = CellFilter::Empty;
    CellColouring colouring = CellColouring::BySolidity;
    // Leaves touching the world box are the void around a level: left out unless asked.
    bool includeOutside = false;
    int highlightLeaf = -1; // drawn brighter (leaf inspector)
    bool onlyHighlight = false; // draw the highlighted leaf alone
    // Leaves drawn grey (fill outside: not reachable from the start, or outside the level).
    const std::vector<bool>* greyed = nullptr;
    // The tree is a round pose's two boxes (its bounding box as pose 0, its inscribed box as
    // pose 1, world/round_pose_boxes.h): leaves are coloured by roundCellKind, the filter
    // read as roundCellPasses says; `pose` and `colouring` are not used.
    bool roundShape = false;
};

// A leaf of a round pose's two-box tree: empty for the bounding box is empty for the shape,
// solid for the inscribed box is solid for it, and in between the exact tests decide.
enum class RoundCellKind { CertainEmpty, DecidedExactly, CertainSolid };
RoundCellKind roundCellKind(uint64_t bits);
QColor roundCellColour(RoundCellKind kind);
// The cell filter for a round pose: Empty shows where the shape may be empty (certain-empty
// and decided exactly), Solid where it may be solid (certain-solid and decided exactly),
// Differs between poses the cells decided exactly, All all three.
bool roundCellPasses(RoundCellKind kind, CellFilter filter);

// Every builder below takes an optional `onlyLeaves`: per leaf, whether to draw what belongs
// to it (a cell's faces, the portals it bounds, its boundary polygons; the leak path is
// always drawn). The editor redraws the leaves near an edit so (overlay_update.h).
using LeafMask = std::vector<bool>;

// A compiled tree with what the overlays read of its leaves: their cells (leafCells) and
// the bounds of those (leafCellBounds).
struct OverlaySource {
    const BspTree& tree;
    const LeafCellList& cells;
    const std::vector<Aabb>& cellBounds;
};

// The bounds of every leaf's cell.
std::vector<Aabb> leafCellBounds(const LeafCellList& cells);

// Half the width of the leak path's red boxes.
inline constexpr double kLeakPathRadius = 2.0;

// Whether a leaf cell with these bounds touches the world box: a leaf of the void around a
// level, which the overlays leave out unless asked (includeOutside).
bool touchesWorldBox(const Aabb& cell, const Aabb& worldBox);

// Whether a leaf with solidity `bits` (over poseCount poses) passes the options' filter.
bool passes(uint64_t bits, int poseCount, const CellOverlayOptions& o);

// `top` blended over `under` as one colour: drawing it over anything gives what drawing
// `under` and then `top` over it gives (Porter-Duff "over", up to 8-bit rounding).
QColor over(const QColor& top, const QColor& under);

// A colour for a full solidity bitset (the article's Figure 2 colours leaves this way).
QColor bitsetColour(uint64_t bits);

// The leaf cells that pass the filter, as translucent surfaces where a cell meets a cell
// of another colour or one left out (portal/region_boundary.h): the faces between two
// cells of one colour are not drawn. The highlighted leaf shows whole.
MeshBatch cellOverlay(const OverlaySource& source, const CellOverlayOptions& options,
                      const LeafMask* onlyLeaves = nullptr);

// Outlines of the portals open for `pose` (lines: translucent sheets, one per portal, stack
// up across open space and cost llvmpipe most of a frame); those of leaves touching the
// world box (the void around a level) only when includeOutside.
MeshBatch portalOverlay(const OverlaySource& source, int pose, bool includeOutside,
                        const LeafMask* onlyLeaves = nullptr);

// Outlines of the pose's expanded world: the boundary polygons of that pose.
MeshBatch unionWireOverlay(const BspTree& tree, int pose, const LeafMask* onlyLeaves = nullptr);

// The boundary of the reached leaves' cells (tinted) and the leak path, if any, as a thick
// red polyline.
MeshBatch reachOverlay(const OverlaySource& source, const std::vector<bool>& reached,
                       const std::vector<Vec3>& leakPath, const LeafMask* onlyLeaves = nullptr);

// The boundary of the visible leaves' cells (per leaf of source.tree, from the PVS of the
// eye's leaf), tinted kVisibleColour.
MeshBatch visibleOverlay(const OverlaySource& source, const std::vector<bool>& visible);

// The leaves empty for the sight pose coloured by their view weight (viewWeight: per leaf,
// the brush faces in its PVS) against `limit` (viewWeightColour), as region boundaries.
MeshBatch viewWeightOverlay(const OverlaySource& source, const std::vector<uint32_t>& viewWeight, uint32_t limit);

// The cell and reachability overlays as drawn one over the other (reachability on top), in
// one batch: where their surfaces coincide (for the point pose, every wall in view) one
// surface carries both colours composed, so the renderer blends one translucent layer
// over the picture instead of two.
MeshBatch cellAndReachOverlay(const OverlaySource& source, const CellOverlayOptions& options,
                              const std::vector<bool>& reached, const std::vector<Vec3>& leakPath,
                              const LeafMask* onlyLeaves = nullptr);

struct RayDrawing {
    Vec3 from, to;
    bool hit = false, startSolid = false;
    Vec3 point = Vec3::Zero(), normal = Vec3::Zero();
    std::vector<Vec3> walkPath; // collide-and-slide path instead of the straight segment
};
// Each ray: the segment (green up to the contact, red after), a cross and a normal arrow
// at the contact, and the pose's box at the start, the contact and the end.
MeshBatch rayOverlay(const std::vector<RayDrawing>& rays, const Pose& pose);

} // namespace shallot::render

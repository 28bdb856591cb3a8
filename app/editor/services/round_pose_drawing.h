#pragma once
// What the views draw for a round current pose (issue 42, item 4), built on the overlay
// worker after each compile, and again only when the compile or the pose changes:
//  - its cells: a small tree of the pose's two boxes alone (its bounding box as pose 0,
//    its largest inscribed box as pose 1, world/round_pose_boxes.h), compiled apart from
//    the document's tree, which keeps one tree pose per document pose (the pose selector,
//    the other overlays, rays, nav and spawn checks read that one). A leaf empty for the
//    bounding box is certain-empty, solid for the inscribed box certain-solid, and the
//    exact tests decide in the rest (render::RoundCellKind);
//  - its expanded world: every brush blocking it grown by the shape exactly
//    (query/round_expanded_surface.h), tessellated.
// Both are kept between builds (RoundPoseMakers) and updated after an edit where it
// changed things: the two-box tree by an incremental compiler, the surface brush by brush.
// Both stop early, throwing CompileCancelled, when `cancel` is set (a newer edit).
#include "compile/cancel_token.h"
#include "compile/compiler.h"
#include "compile/leaf_cell_list.h"
#include "incremental/incremental_compiler.h"
#include "query/round_expanded_world.h"
#include "overlay_update.h"
#include "round_surface_batch.h"
#include "services/compile_service.h"

#include <memory>
#include <vector>

namespace shallot {

struct RoundPoseCells {
    uint64_t serial = 0; // CompiledWorld::serial it was built for
    int pose = -1;
    std::shared_ptr<const CompileResult> result; // result->onion: the two-box tree
    LeafCellList cells;
    std::vector<Aabb> cellBounds;
    std::vector<bool> voidLeaves; // per leaf: reachable from outside for the bounding box
    uint64_t treeNumber = 0;             // which compile of RoundPoseMakers::boxes made the tree (1, 2, ...)
    std::vector<int32_t> leafOfPrevious; // per leaf of the tree before, its leaf here (empty: compiled from scratch)
};

// The cells as last drawn, their chunks' leaf runs naming the two-box tree's leaves.
struct RoundCellsDrawn {
    uint64_t treeNumber = 0; // 0: none
    render::CellFilter filter = render::CellFilter::Empty;
    bool includeOutside = false;
    render::OverlayLeafInputs inputs;
    std::vector<render::MeshChunk> chunks;
};

struct RoundPoseSurface {
    uint64_t serial = 0;
    int pose = -1;
    std::vector<RoundSurfacePiece> pieces; // per brush of the world, its whole grown surface
    std::vector<RoundSurfacePiece> shown;  // per brush, what is drawn: less what lies deep inside another's
    std::vector<Aabb> bounds;              // per brush, of its piece (the sections skip the pieces a plane misses)
};

// Whether `made` (either kind) was built for the round pose `pose` of `compiled`.
template <class Made>
bool roundDrawingFor(const std::shared_ptr<const Made>& made, const CompiledWorld& compiled, int pose) {
    return made && made->serial == compiled.serial && made->pose == pose;
}

// What the builds keep for the next: used by one build at a time (the overlay worker runs
// one at a time).
struct RoundPoseMakers {
    IncrementalCompiler boxes{true};
    RoundExpandedWorld surface;
    // The surface's 3D chunks, and the compile (CompiledWorld::serial) whose tree their
    // leaves were last looked up in (0: none).
    render::RoundSurfaceChunker chunker;
    uint64_t chunkedSerial = 0;
    uint64_t boxesCompiled = 0; // compiles of `boxes` so far
    RoundCellsDrawn cellsDrawn;
};

// `pose` must be round in compiled.world (CompiledWorld::isRound).
std::shared_ptr<const RoundPoseCells> buildRoundPoseCells(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                          const CancelToken* cancel);
// The cells' chunks as the views draw them (options.roundShape; leaf runs to none: they
// would name the two-box tree's leaves, not those of the tree the 3D view culls with),
// drawn again only near what changed since makers.cellsDrawn when `cells` is the next
// compile of its tree and the change reaches at most maxCells chunk cells and
// maxLeafShare of the leaves (render/overlay_update.h, as the box poses' cells). `inPart`:
// whether they were.
std::vector<render::MeshChunk> roundCellChunks(const RoundPoseCells& cells, const render::CellOverlayOptions& options,
                                               RoundPoseMakers& makers, size_t maxCells, double maxLeafShare, bool* inPart = nullptr);

std::shared_ptr<const RoundPoseSurface> buildRoundPoseSurface(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                              const CancelToken* cancel);

} // namespace shallot

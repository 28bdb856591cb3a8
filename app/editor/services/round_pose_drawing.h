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
};

// `pose` must be round in compiled.world (CompiledWorld::isRound).
std::shared_ptr<const RoundPoseCells> buildRoundPoseCells(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                          const CancelToken* cancel);
std::shared_ptr<const RoundPoseSurface> buildRoundPoseSurface(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                              const CancelToken* cancel);

} // namespace shallot

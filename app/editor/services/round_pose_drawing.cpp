#include "services/round_pose_drawing.h"

#include "portal/reachability.h"
#include "tree_overlays.h"
#include "world/round_pose_boxes.h"

namespace shallot {

namespace {
// Threads for the two-box compile (one per pose) and the brushes' surfaces: the machine's
// two cores, at the overlay worker's lowered priority.
constexpr int kRoundDrawingThreads = 2;
} // namespace

std::shared_ptr<const RoundPoseCells> buildRoundPoseCells(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                          const CancelToken* cancel) {
    const Pose& round = compiled.world.poses[size_t(pose)];
    World boxes = compiled.world;
    boxes.poses = {boundingBoxPose(round), inscribedBoxPose(round)};
    CompileOptions options;
    options.threads = kRoundDrawingThreads;
    options.cancel = cancel;
    auto out = std::make_shared<RoundPoseCells>();
    out->serial = compiled.serial;
    out->pose = pose;
    out->result = makers.boxes.compile(boxes, options);
    throwIfCancelled(cancel);
    if (!out->result->error.empty()) return out; // drawn as no cells; the document's compile says why
    out->cells = makers.boxes.leafCells();
    out->cellBounds = render::leafCellBounds(out->cells);
    out->voidLeaves = reachableFromOutside(out->result->onion, 0);
    return out;
}

std::shared_ptr<const RoundPoseSurface> buildRoundPoseSurface(const CompiledWorld& compiled, int pose, RoundPoseMakers& makers,
                                                              const CancelToken* cancel) {
    makers.surface.update(compiled.world, compiled.world.poses[size_t(pose)], kRoundDrawingThreads, cancel);
    auto out = std::make_shared<RoundPoseSurface>();
    out->serial = compiled.serial;
    out->pose = pose;
    // Each brush on its own (their surfaces overlap where brushes meet: the depth test
    // shows the outermost, which is the expanded world's boundary seen from the empty side),
    // less what lies deep inside another's (RoundExpandedWorld::shown).
    out->pieces = makers.surface.pieces();
    out->shown = makers.surface.shown();
    out->bounds = makers.surface.bounds();
    return out;
}

} // namespace shallot

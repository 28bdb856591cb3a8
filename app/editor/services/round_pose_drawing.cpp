#include "services/round_pose_drawing.h"

#include "portal/reachability.h"
#include "tree_overlays.h"
#include "world/round_pose_boxes.h"

#include <optional>

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
    out->treeNumber = ++makers.boxesCompiled;
    if (out->result->stats.incremental) out->leafOfPrevious = makers.boxes.onionLeafOfPrevious();
    if (!out->result->error.empty()) return out; // drawn as no cells; the document's compile says why
    out->cells = makers.boxes.leafCells();
    out->cellBounds = render::leafCellBounds(out->cells);
    out->voidLeaves = reachableFromOutside(out->result->onion, 0);
    return out;
}

std::vector<render::MeshChunk> roundCellChunks(const RoundPoseCells& cells, const render::CellOverlayOptions& options,
                                               RoundPoseMakers& makers, size_t maxCells, double maxLeafShare, bool* inPart) {
    const BspTree& tree = cells.result->onion;
    render::OverlayLeafInputs inputs;
    inputs.cellBounds = cells.cellBounds;
    inputs.leafSolid = tree.leafSolid;
    inputs.extent = render::drawnExtent(tree, inputs.cellBounds, options.includeOutside);
    RoundCellsDrawn& drawn = makers.cellsDrawn;
    const bool alike = drawn.treeNumber != 0 && drawn.filter == options.filter && drawn.includeOutside == options.includeOutside;
    std::optional<render::OverlayRegion> region;
    if (alike && drawn.treeNumber + 1 == cells.treeNumber && !cells.leafOfPrevious.empty()) {
        region = render::changedRegion(drawn.inputs, inputs, cells.leafOfPrevious, maxCells);
        if (region && double(region->markedLeaves) > maxLeafShare * double(tree.leafCount())) region.reset();
    }
    if (inPart) *inPart = region.has_value();
    const render::OverlaySource source{tree, cells.cells, cells.cellBounds};
    std::vector<render::MeshChunk> chunks =
        alike && drawn.treeNumber == cells.treeNumber ? drawn.chunks
        : region ? render::updatedChunks(drawn.chunks, cells.leafOfPrevious, *region, render::cellOverlay(source, options, &region->leaves))
                 : render::splitIntoChunks(render::cellOverlay(source, options));
    drawn = {cells.treeNumber, options.filter, options.includeOutside, std::move(inputs), chunks};
    for (render::MeshChunk& chunk : chunks) chunk.leafRuns = {{-1, 0}};
    return chunks;
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

#include "services/round_pose_drawing.h"

#include "compile/parallel_for.h"
#include "portal/leaf_cells.h"
#include "portal/reachability.h"
#include "tree_overlays.h"
#include "world/round_pose_boxes.h"

namespace shallot {

namespace {
// Threads for the two-box compile (one per pose) and the brushes' surfaces: the machine's
// two cores, at the overlay worker's lowered priority.
constexpr int kRoundDrawingThreads = 2;
} // namespace

std::shared_ptr<const RoundPoseCells> buildRoundPoseCells(const CompiledWorld& compiled, int pose, const CancelToken* cancel) {
    const Pose& round = compiled.world.poses[size_t(pose)];
    World boxes = compiled.world;
    boxes.poses = {boundingBoxPose(round), inscribedBoxPose(round)};
    CompileOptions options;
    options.threads = kRoundDrawingThreads;
    options.cancel = cancel;
    auto out = std::make_shared<RoundPoseCells>();
    out->serial = compiled.serial;
    out->pose = pose;
    out->result = std::make_shared<const CompileResult>(compileWorld(boxes, options));
    throwIfCancelled(cancel);
    if (!out->result->error.empty()) return out; // drawn as no cells; the document's compile says why
    out->cells = leafCells(out->result->onion);
    out->cellBounds = render::leafCellBounds(out->cells);
    out->voidLeaves = reachableFromOutside(out->result->onion, 0);
    return out;
}

std::shared_ptr<const RoundPoseSurface> buildRoundPoseSurface(const CompiledWorld& compiled, int pose, const CancelToken* cancel) {
    const World& world = compiled.world;
    const Pose& round = world.poses[size_t(pose)];
    // Each brush on its own (their surfaces overlap where brushes meet: the depth test
    // shows the outermost, which is the expanded world's boundary seen from the empty side).
    std::vector<std::vector<RoundSurfaceVertex>> perBrush(world.brushes.size());
    parallelFor(world.brushes.size(), kRoundDrawingThreads, [&](size_t b) {
        if (cancel && cancel->cancelled.load(std::memory_order_relaxed)) return;
        const Brush& brush = world.brushes[b];
        if (!blocks(brush, round)) return;
        if (const BrushGeometryResult g = buildBrushGeometry(brush, world.bounds); g.geometry)
            appendRoundExpandedSurface(*g.geometry, round.shape, kRoundSurfaceStep, perBrush[b]);
    });
    throwIfCancelled(cancel);
    auto out = std::make_shared<RoundPoseSurface>();
    out->serial = compiled.serial;
    out->pose = pose;
    size_t total = 0;
    for (const auto& t : perBrush) total += t.size();
    out->triangles.reserve(total);
    for (const auto& t : perBrush) out->triangles.insert(out->triangles.end(), t.begin(), t.end());
    return out;
}

} // namespace shallot

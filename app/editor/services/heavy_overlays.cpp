#include "services/heavy_overlays.h"

#include "services/background_release.h"
#include "compile/parallel_for.h"
#include "round_surface_batch.h"

#include <numeric>

namespace shallot {

namespace {

// An edit whose changes reach more chunk cells than this, or more than this share of the
// leaves, has the overlays drawn whole: about as quick then, and it bounds the region's
// bookkeeping.
constexpr size_t kMaxRedrawnCells = 4096;
constexpr double kMaxRedrawnLeafShare = 0.5;

} // namespace

HeavyBatches buildHeavyOverlays(HeavyJob job) {
    HeavyBatches out;
    out.before = std::move(job.shown);
    const std::shared_ptr<const CompiledWorld>& compiled = job.compiled;
    const BspTree& tree = compiled->result->onion;
    const HeavySettings& settings = job.settings;
    const int pose = settings.cells.pose;
    const bool cellsOn = settings.cellsOn || settings.cells.highlightLeaf >= 0;
    const bool reachOn = settings.reachOn && settings.reachStart;
    render::CellOverlayOptions cellOptions = settings.cells;
    cellOptions.onlyHighlight = !settings.cellsOn;
    out.drawn = std::make_shared<DrawnHeavy>();
    out.drawn->serial = compiled->serial;
    out.drawn->settings = settings;
    render::OverlayLeafInputs& inputs = out.drawn->inputs;
    const DrawnHeavy* base = job.base.get();
    // A round pose: its own cells and rounded expanded world instead of its bounding box's.
    const bool round = compiled->isRound(pose);
    const RoundPoseCells* roundCells = nullptr;
    const RoundPoseSurface* roundSurface = nullptr;
    if (round && settings.cellsOn) {
        out.roundCells = roundDrawingFor(job.keptRoundCells, *compiled, pose)
                             ? job.keptRoundCells
                             : buildRoundPoseCells(*compiled, pose, *job.roundMakers, job.roundCancel.get());
        roundCells = out.roundCells.get();
    }
    if (round && settings.unionOn) {
        out.roundSurface = roundDrawingFor(job.keptRoundSurface, *compiled, pose)
                               ? job.keptRoundSurface
                               : buildRoundPoseSurface(*compiled, pose, *job.roundMakers, job.roundCancel.get());
        roundSurface = out.roundSurface.get();
    }
    std::optional<render::OverlayRegion> region;
    // The tree's sight, and what the overlays are drawn from: side by side.
    parallelFor(2, 2, [&](size_t part) {
        if (part == 0) {
            out.visibility = job.keptVisibility ? std::move(job.keptVisibility)
                                                : std::make_shared<LeafVisibility>(partReleasedInBackground(compiled, &tree));
            out.brushes = job.keptBrushes         ? std::move(job.keptBrushes)
                          : job.brushBoxes.empty() ? nullptr
                                                   : std::make_shared<const LeafBrushes>(tree, job.brushBoxes);
            return;
        }
        if (reachOn) out.flood = std::make_shared<Flood>(flood(tree, pose, {*settings.reachStart}));
        // What the overlays are drawn from, leaf by leaf, kept for the next build.
        inputs.cellBounds = base ? render::leafCellBounds(compiled->cells, base->inputs.cellBounds, job.leafOfBase)
                                 : render::leafCellBounds(compiled->cells);
        inputs.leafSolid = tree.leafSolid;
        if (reachOn) {
            inputs.reached = out.flood->reached;
            inputs.leakPath = out.flood->leakPath;
        }
        if (cellsOn && settings.grey) {
            if (settings.reachStart) {
                inputs.greyed = out.flood ? out.flood->reached : flood(tree, pose, {*settings.reachStart}).reached;
                inputs.greyed.flip(); // unreached
            } else {
                inputs.greyed = reachableFromOutside(tree, pose);
            }
            cellOptions.greyed = &inputs.greyed;
        }
        inputs.extent = render::drawnExtent(tree, inputs.cellBounds,
                                            (cellsOn && settings.cells.includeOutside) || (reachOn && out.flood->leak));
        // Where the leaves changed since the shown layers were drawn: only there again.
        if (base) {
            region = render::changedRegion(base->inputs, inputs, job.leafOfBase, kMaxRedrawnCells);
            if (region && double(region->markedLeaves) > kMaxRedrawnLeafShare * double(tree.leafCount())) region.reset();
        }
    });
    out.redrawnInPart = region.has_value();
    const render::LeafMask* only = region ? &region->leaves : nullptr;
    std::array<std::vector<render::MeshChunk>, kHeavyLayerCount> chunks;
    std::array<bool, kHeavyLayerCount> whole{}; // drawn whole even when the rest is drawn in part
    auto drawnWhole = [&](size_t k, render::MeshBatch batch) {
        chunks[k] = render::splitIntoChunks(std::move(batch));
        whole[k] = true;
    };
    auto chunked = [&](size_t k, render::MeshBatch batch) {
        static const std::vector<render::MeshChunk> none;
        chunks[k] = region ? render::updatedChunks(base->chunks[k] ? *base->chunks[k] : none, job.leafOfBase, *region,
                                                   std::move(batch))
                           : render::splitIntoChunks(std::move(batch));
    };
    const render::OverlaySource source{tree, compiled->cells, inputs.cellBounds};
    // The overlays are independent: built side by side on the two cores (the cells'
    // boundary search, the longest, shares itself out too).
    parallelFor(3, 2, [&](size_t overlay) {
        if (overlay == 0) {
            // Both on: one translucent layer with the two composed where they coincide (the
            // reach layer stays empty), half the blending of two layers.
            if (roundCells) {
                if (roundCells->result->error.empty()) {
                    render::CellOverlayOptions roundOptions = cellOptions;
                    roundOptions.roundShape = true;
                    roundOptions.pose = 0;
                    roundOptions.greyed = nullptr;
                    roundOptions.highlightLeaf = -1;
                    roundOptions.onlyHighlight = false;
                    // Drawn again near the edit only, as the box poses' cells are; in 3D
                    // wherever in range (its runs would name leaves of the two-box tree).
                    chunks[0] = roundCellChunks(*roundCells, roundOptions, *job.roundMakers, kMaxRedrawnCells, kMaxRedrawnLeafShare);
                    whole[0] = true;
                } else {
                    drawnWhole(0, {});
                }
                if (reachOn) chunked(3, render::reachOverlay(source, inputs.reached, inputs.leakPath, only));
            } else if (cellsOn && reachOn)
                chunked(0, render::cellAndReachOverlay(source, cellOptions, inputs.reached, inputs.leakPath, only));
            else if (cellsOn)
                chunked(0, render::cellOverlay(source, cellOptions, only));
            else if (reachOn)
                chunked(3, render::reachOverlay(source, inputs.reached, inputs.leakPath, only));
        } else if (overlay == 1 && settings.portalsOn) {
            chunked(1, render::portalOverlay(source, pose, settings.cells.includeOutside, only));
        } else if (overlay == 2 && roundSurface) {
            // Its chunks kept where nothing in them changed; its corners' leaves carried
            // from the tree the chunker last saw when this one keeps its leaves.
            RoundPoseMakers& makers = *job.roundMakers;
            std::vector<int32_t> sameTree;
            const std::vector<int32_t>* carry = nullptr;
            if (makers.chunkedSerial == compiled->serial) {
                sameTree.resize(tree.leafCount());
                std::iota(sameTree.begin(), sameTree.end(), 0);
                carry = &sameTree;
            } else if (base && base->serial == makers.chunkedSerial) {
                carry = &job.leafOfBase;
            }
            makers.chunkedSerial = 0; // until the update is done
            chunks[2] = makers.chunker.update(roundSurface->shown, tree, carry);
            makers.chunkedSerial = compiled->serial;
            whole[2] = true;
        } else if (overlay == 2 && settings.unionOn) {
            chunked(2, render::unionWireOverlay(tree, pose, only));
        }
    });
    for (size_t k = 0; k < kHeavyLayerCount; ++k) {
        // Outside the region the chunks shown were kept: only those inside are compared.
        const bool keptShown = region && !whole[k] && base->chunks[k] == out.before[k];
        if (out.before[k])
            out.changed[k] = render::chunkChanges(*out.before[k], chunks[k], keptShown ? &region->cells : nullptr);
        out.drawn->chunks[k] = std::make_shared<const std::vector<render::MeshChunk>>(std::move(chunks[k]));
    }
    return out;
}

} // namespace shallot

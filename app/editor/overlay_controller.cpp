#include "overlay_controller.h"

#include "background_jobs.h"
#include "background_release.h"
#include "compile/parallel_for.h"
#include "editor.h"
#include "query/slide_move.h"
#include "query/trace_batch.h"

#include <QPointer>
#include <array>
#include <iterator>
#include <numeric>
#include <utility>

namespace shallot {

namespace {
// Step height of walking rays: Quake's stair step.
constexpr double kWalkStepHeight = 18.0;
} // namespace

namespace {

// The heavy overlay layers, in the order of kHeavyLayers.
constexpr render::Layer kHeavyLayers[] = {render::Layer::LeafCells, render::Layer::Portals, render::Layer::UnionWire,
                                          render::Layer::Reach};
constexpr size_t kHeavyLayerCount = std::size(kHeavyLayers);

// An edit whose changes reach more chunk cells than this, or more than this share of the
// leaves, has the overlays drawn whole: about as quick then, and it bounds the region's
// bookkeeping.
constexpr size_t kMaxRedrawnCells = 4096;
constexpr double kMaxRedrawnLeafShare = 0.5;

} // namespace

struct OverlayController::HeavySettings {
    int pose = 0;
    render::CellFilter filter{};
    render::CellColouring colouring{};
    bool includeOutside = false;
    int highlightLeaf = -1;
    bool cells = false, portals = false, unionWire = false, reach = false, reachStart = false, grey = false;
    bool operator==(const HeavySettings&) const = default;
};

struct OverlayController::DrawnHeavy {
    uint64_t serial = 0; // of the compiled world drawn
    HeavySettings settings;
    render::OverlayLeafInputs inputs;
    std::array<render::ChunkList, kHeavyLayerCount> chunks; // cells, portals, union, reach
};

OverlayController::HeavySettings OverlayController::heavySettings() const {
    HeavySettings h;
    h.pose = editor_.currentPose();
    h.filter = cells_.filter;
    h.colouring = cells_.colouring;
    h.includeOutside = cells_.includeOutside;
    h.highlightLeaf = cells_.highlightLeaf;
    h.cells = isOn(Overlay::Cells);
    h.portals = isOn(Overlay::Portals);
    h.unionWire = isOn(Overlay::Union);
    h.reach = isOn(Overlay::Reach);
    h.reachStart = reachStart_.has_value();
    h.grey = greyUnreachable_;
    return h;
}

OverlayController::OverlayController(Editor& editor) : QObject(&editor), editor_(editor) {
    connect(&editor_.compiler(), &CompileService::compiled, this, &OverlayController::onCompiled);
    connect(&editor_, &Editor::currentPoseChanged, this, [this] {
        rebuildHeavy();
        rebuildRays();
    });
    connect(&editor_.document(), &EditorDocument::raysChanged, this, &OverlayController::retraceRays);
}

void OverlayController::onCompiled(std::shared_ptr<const CompiledWorld> result) {
    // Follow the drawn tree's leaves into the new one, if it updated the one before.
    if (drawn_ && drawnCarriedTo_ != 0 && result->keptFrom == drawnCarriedTo_) {
        leafOfDrawn_ = drawnCarriedTo_ == drawn_->serial ? result->leafOfKept
                                                        : composeLeafMaps(leafOfDrawn_, result->leafOfKept);
        drawnCarriedTo_ = result->serial;
    } else {
        drawnCarriedTo_ = 0;
        leafOfDrawn_.clear();
    }
    releaseInBackground(std::exchange(compiled_, std::move(result)));
    retraceRays();
    rebuildHeavy();
}

void OverlayController::setOn(Overlay o, bool on) {
    if (isOn(o) == on) return;
    if (on) on_.insert(o);
    else on_.erase(o);
    emit overlayToggled(o, on);
    if (o == Overlay::Rays) rebuildRays();
    else rebuildHeavy();
}

void OverlayController::setCellFilter(render::CellFilter f) {
    cells_.filter = f;
    rebuildHeavy();
}

void OverlayController::setCellColouring(render::CellColouring c) {
    cells_.colouring = c;
    rebuildHeavy();
}

void OverlayController::setGreyUnreachable(bool on) {
    greyUnreachable_ = on;
    rebuildHeavy();
}

void OverlayController::setHighlightLeaf(int leaf) {
    cells_.highlightLeaf = leaf;
    rebuildHeavy();
}

void OverlayController::setReachStart(const Vec3& p) {
    reachStart_ = p;
    rebuildHeavy();
}

namespace {

struct HeavyBatches {
    std::shared_ptr<OverlayController::DrawnHeavy> drawn;
    // Per layer: the chunks shown when the build started, and the boxes where the new ones
    // differ from them (chunkChanges).
    std::array<render::ChunkList, kHeavyLayerCount> before;
    std::array<render::ChunkChanges, kHeavyLayerCount> changed;
    bool redrawnInPart = false;
    std::shared_ptr<const Flood> flood;
    std::shared_ptr<const LeafVisibility> visibility; // of the tree the batches were built from
    std::shared_ptr<const LeafBrushes> brushes;       // when built from the document's brushes
};

} // namespace

void OverlayController::rebuildHeavy() {
    const quint64 generation = ++heavyGeneration_;
    if (!compiled_) return;
    const std::shared_ptr<const CompiledWorld> compiled = compiled_;
    const int pose = editor_.currentPose();
    if (pose < 0 || pose >= int(compiled->result.onion.poses.size())) return;
    render::CellOverlayOptions options = cells_;
    options.pose = pose;
    const HeavySettings settings = heavySettings();
    const std::optional<Vec3> start = reachStart_;
    // What the shown layers were drawn from, when this draws the same overlays of a tree
    // whose leaves carry over from it (a leaf the highlight names may not).
    std::shared_ptr<const DrawnHeavy> base;
    std::vector<int32_t> leafOfBase;
    if (drawn_ && drawn_->settings == settings && settings.highlightLeaf < 0 && drawnCarriedTo_ == compiled->serial) {
        base = drawn_;
        if (drawn_->serial == compiled->serial) {
            leafOfBase.resize(drawn_->inputs.leafSolid.size());
            std::iota(leafOfBase.begin(), leafOfBase.end(), 0);
        } else {
            leafOfBase = leafOfDrawn_;
        }
    }
    // The sight of this compiled world when an earlier rebuild made it; else the brushes'
    // boxes, when the tree was compiled from the brushes the views show.
    const bool sightKept = sightWorld_.lock() == compiled;
    std::shared_ptr<const LeafVisibility> keptVisibility = sightKept ? sightVisibility_ : nullptr;
    std::shared_ptr<const LeafBrushes> keptBrushes = sightKept ? sightBrushes_ : nullptr;
    std::vector<Aabb> brushBoxes;
    if (!keptBrushes && compiled->revision == editor_.document().worldRevision())
        for (const auto& g : editor_.geometry()) brushBoxes.push_back(g ? g->bounds : Aabb{});
    std::array<render::ChunkList, kHeavyLayerCount> shown;
    for (size_t k = 0; k < kHeavyLayerCount; ++k) shown[k] = editor_.scene().layer(kHeavyLayers[k]).chunks;
    QPointer<OverlayController> self(this);
    runInBackground([self, compiled, options, settings, start, generation, pose, base = std::move(base),
                     leafOfBase = std::move(leafOfBase), brushBoxes = std::move(brushBoxes),
                     keptVisibility = std::move(keptVisibility), keptBrushes = std::move(keptBrushes),
                     shown = std::move(shown)]() mutable {
        auto out = std::make_shared<HeavyBatches>();
        out->before = std::move(shown);
        const BspTree& tree = compiled->result.onion;
        const bool cellsOn = settings.cells || options.highlightLeaf >= 0;
        const bool reachOn = settings.reach && start;
        render::CellOverlayOptions cellOptions = options;
        cellOptions.onlyHighlight = !settings.cells;
        out->drawn = std::make_shared<DrawnHeavy>();
        out->drawn->serial = compiled->serial;
        out->drawn->settings = settings;
        render::OverlayLeafInputs& inputs = out->drawn->inputs;
        std::optional<render::OverlayRegion> region;
        // The tree's sight, and what the overlays are drawn from: side by side.
        parallelFor(2, 2, [&](size_t part) {
            if (part == 0) {
                out->visibility = keptVisibility ? std::move(keptVisibility)
                                                 : std::make_shared<LeafVisibility>(partReleasedInBackground(compiled, &tree));
                out->brushes = keptBrushes ? std::move(keptBrushes)
                               : brushBoxes.empty() ? nullptr : std::make_shared<const LeafBrushes>(tree, brushBoxes);
                return;
            }
            if (reachOn) out->flood = std::make_shared<Flood>(flood(tree, pose, {*start}));
            // What the overlays are drawn from, leaf by leaf, kept for the next rebuild.
            inputs.cellBounds = base ? render::leafCellBounds(compiled->cells, base->inputs.cellBounds, leafOfBase)
                                     : render::leafCellBounds(compiled->cells);
            inputs.leafSolid = tree.leafSolid;
            if (reachOn) {
                inputs.reached = out->flood->reached;
                inputs.leakPath = out->flood->leakPath;
            }
            if (cellsOn && settings.grey) {
                if (start) {
                    inputs.greyed = out->flood ? out->flood->reached : flood(tree, pose, {*start}).reached;
                    inputs.greyed.flip(); // unreached
                } else {
                    inputs.greyed = reachableFromOutside(tree, pose);
                }
                cellOptions.greyed = &inputs.greyed;
            }
            inputs.extent = render::drawnExtent(tree, inputs.cellBounds,
                                                (cellsOn && options.includeOutside) || (reachOn && out->flood->leak));
            // Where the leaves changed since the shown layers were drawn: only there again.
            if (base) {
                region = render::changedRegion(base->inputs, inputs, leafOfBase, kMaxRedrawnCells);
                if (region && double(region->markedLeaves) > kMaxRedrawnLeafShare * double(tree.leafCount()))
                    region.reset();
            }
        });
        out->redrawnInPart = region.has_value();
        const render::LeafMask* only = region ? &region->leaves : nullptr;
        std::array<std::vector<render::MeshChunk>, kHeavyLayerCount> chunks;
        auto chunked = [&](size_t k, render::MeshBatch batch) {
            static const std::vector<render::MeshChunk> none;
            chunks[k] = region ? render::updatedChunks(base->chunks[k] ? *base->chunks[k] : none, leafOfBase, *region,
                                                       std::move(batch))
                               : render::splitIntoChunks(std::move(batch));
        };
        const render::OverlaySource source{tree, compiled->cells, inputs.cellBounds};
        // The overlays are independent: built side by side on the two cores (the cells'
        // boundary search, the longest, shares itself out too).
        parallelFor(3, 2, [&](size_t overlay) {
            if (overlay == 0) {
                // Both on: one translucent layer with the two composed where they coincide
                // (the reach layer stays empty), half the blending of two layers.
                if (cellsOn && reachOn)
                    chunked(0, render::cellAndReachOverlay(source, cellOptions, inputs.reached, inputs.leakPath, only));
                else if (cellsOn)
                    chunked(0, render::cellOverlay(source, cellOptions, only));
                else if (reachOn)
                    chunked(3, render::reachOverlay(source, inputs.reached, inputs.leakPath, only));
            } else if (overlay == 1 && settings.portals) {
                chunked(1, render::portalOverlay(source, pose, options.includeOutside, only));
            } else if (overlay == 2 && settings.unionWire) {
                chunked(2, render::unionWireOverlay(tree, pose, only));
            }
        });
        // Where each layer changed, so that the 2D views redraw only there in their pictures.
        for (size_t k = 0; k < kHeavyLayerCount; ++k) {
            // Outside the region the chunks shown were kept: only those inside are compared.
            const bool keptShown = region && base->chunks[k] == out->before[k];
            if (out->before[k])
                out->changed[k] = render::chunkChanges(*out->before[k], chunks[k], keptShown ? &region->cells : nullptr);
            out->drawn->chunks[k] = std::make_shared<const std::vector<render::MeshChunk>>(std::move(chunks[k]));
        }
        postToUiThread([self, out, generation, revision = compiled->revision, world = std::weak_ptr(compiled)] {
            if (!self || generation != self->heavyGeneration_) return; // a newer build is coming
            render::RenderScene& scene = self->editor_.scene();
            for (size_t k = 0; k < kHeavyLayerCount; ++k)
                scene.setChunks(kHeavyLayers[k], out->drawn->chunks[k], out->visibility, out->before[k].get(),
                                std::move(out->changed[k]));
            self->drawn_ = out->drawn;
            self->drawnCarriedTo_ = out->drawn->serial;
            self->leafOfDrawn_.clear();
            self->rebuiltInPart_ += out->redrawnInPart;
            self->flood_ = out->flood;
            self->shownRevision_ = revision;
            self->sightWorld_ = world;
            self->sightVisibility_ = out->visibility;
            self->sightBrushes_ = out->brushes;
            self->sightRevision_ = revision;
            self->applyBrushSight();
            emit self->editor_.sceneChanged();
            emit self->overlaysUpdated(revision);
        });
    });
}

void OverlayController::applyBrushSight() {
    if (!sightBrushes_ || sightRevision_ != editor_.document().worldRevision()) return;
    editor_.scene().setBrushSight(render::Layer::BrushFaces, sightVisibility_, sightBrushes_);
}

void OverlayController::retraceRays() {
    rayResults_.clear();
    if (compiled_) {
        const BspTree& tree = compiled_->result.onion;
        const auto& rays = editor_.document().rays();
        std::vector<TraceRequest> requests;
        for (const TestRay& r : rays)
            for (int p = 0; p < int(tree.poses.size()); ++p) requests.push_back({p, r.from, r.to});
        const std::vector<TraceResult> results = traceBatch(tree, requests, 2);
        for (size_t i = 0; i < rays.size(); ++i)
            rayResults_.emplace_back(results.begin() + long(i * tree.poses.size()),
                                     results.begin() + long((i + 1) * tree.poses.size()));
    }
    rebuildRays();
    emit raysTraced();
}

void OverlayController::rebuildRays() {
    const auto& rays = editor_.document().rays();
    const int pose = editor_.currentPose();
    std::vector<render::RayDrawing> drawings;
    const BspTree* tree = compiled_ ? &compiled_->result.onion : nullptr;
    for (size_t i = 0; i < rays.size(); ++i) {
        render::RayDrawing d;
        d.from = rays[i].from;
        d.to = rays[i].to;
        if (rays[i].walk && tree && pose >= 0 && pose < int(tree->poses.size())) {
            // The collide-and-slide path: start, each contact, end.
            const MoveResult move = slideMove(*tree, pose, rays[i].from, rays[i].to - rays[i].from, kWalkStepHeight);
            d.walkPath.push_back(rays[i].from);
            for (const Contact& c : move.contacts) d.walkPath.push_back(c.point);
            d.walkPath.push_back(move.end);
        }
        if (i < rayResults_.size() && pose >= 0 && size_t(pose) < rayResults_[i].size()) {
            const TraceResult& r = rayResults_[i][size_t(pose)];
            d.hit = r.hit;
            d.startSolid = r.startSolid;
            d.point = r.point;
            d.normal = r.normal;
        }
        drawings.push_back(d);
    }
    const Pose box = pose >= 0 ? editor_.document().poses()[size_t(pose)] : Pose{};
    editor_.scene().set(render::Layer::Rays, isOn(Overlay::Rays) ? render::rayOverlay(drawings, box) : render::MeshBatch{});
    emit editor_.sceneChanged();
}

} // namespace shallot

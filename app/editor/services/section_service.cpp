#include "services/section_service.h"

#include "services/background_jobs.h"
#include "services/background_release.h"
#include "compile/stopwatch.h"
#include "editor.h"
#include "round_surface_batch.h"
#include "section_overlays.h"

#include <QPointer>

namespace shallot {

SectionService::SectionService(Editor& editor) : QObject(&editor), editor_(editor) { showMode(); }

void SectionService::showMode() {
    for (render::Layer l : kHeavyLayers)
        editor_.scene().setIn2d(l, !on_ && !(l == render::Layer::UnionWire && roundSurfaceShown_));
    for (render::Layer l : {render::Layer::Visible, render::Layer::ViewWeight}) editor_.scene().setIn2d(l, !on_);
    editor_.scene().setBrightness2d(render::Layer::BrushEdges, on_ ? render::kDimmedBrushOutlines : 1.0f);
}

void SectionService::setOn(bool on) {
    if (on_ == on) return;
    on_ = on;
    showMode();
    if (!on) clearLayers();
    else if (shown_.compiled) request(shown_);
    emit editor_.sceneChanged();
}

void SectionService::setRoundSurfaceShown(bool shown) {
    if (roundSurfaceShown_ == shown) return;
    roundSurfaceShown_ = shown;
    showMode();
}

void SectionService::clearLayers() {
    for (int axis = 0; axis < 3; ++axis) {
        editor_.scene().set(render::sectionFills(axis), {});
        editor_.scene().set(render::sectionLines(axis), {});
    }
}

void SectionService::request(SectionRequest request) {
    if (!on_ || !request.compiled) return;
    if (waiting_) releaseInBackground(std::move(waiting_->compiled));
    waiting_ = std::move(request);
    if (!running_) start();
}

SectionService::Built SectionService::build(const SectionRequest& request, TreeCache cache) {
    Stopwatch watch;
    const BspTree& tree = request.compiled->result->onion;
    const HeavySettings& s = request.settings;
    const int pose = s.cells.pose;
    if (cache.serial != request.compiled->serial) cache = TreeCache{request.compiled->serial, -1, {}};
    const bool cellsOn = s.cellsOn || s.cells.highlightLeaf >= 0;
    if (cellsOn && cache.voidPose != pose) {
        cache.voidPose = pose;
        cache.voidLeaves = std::make_shared<const std::vector<bool>>(reachableFromOutside(tree, pose));
    }
    std::optional<Flood> reach;
    if ((s.reachOn || (cellsOn && s.grey)) && s.reachStart) reach = flood(tree, pose, {*s.reachStart});
    std::vector<bool> greyed;
    render::SectionOptions o;
    o.cells = s.cells;
    o.cells.onlyHighlight = !s.cellsOn;
    o.cellsOn = cellsOn;
    o.portalsOn = s.portalsOn;
    o.unionOn = s.unionOn;
    o.brushes = &request.brushes;
    o.voidLeaves = cellsOn ? cache.voidLeaves.get() : nullptr;
    if (cellsOn && s.grey && reach) { // fill outside: the empty leaves the start does not reach
        greyed = reach->reached;
        greyed.flip();
        o.cells.greyed = &greyed;
    }
    if (s.reachOn && reach) {
        o.reached = &reach->reached;
        o.leakPath = &reach->leakPath;
    }
    o.visible = request.visible.get();
    o.viewWeight = request.viewWeights.get();
    o.viewWeightLimit = request.viewWeightLimit;
    // A round pose: its cells from its two-box tree, its expanded world from its rounded
    // surface; the document's tree gives the rest (portals, reach, sight, brush cuts).
    const bool round = request.compiled->isRound(pose);
    const RoundPoseCells* roundCells = round && request.roundCells && request.roundCells->result->error.empty()
                                           ? request.roundCells.get() : nullptr;
    std::optional<render::SectionOptions> roundOptions;
    if (round) {
        o.unionOn = false;
        if (s.cellsOn) {
            o.cellsOn = o.cells.highlightLeaf >= 0;
            o.cells.onlyHighlight = true;
        }
    }
    if (roundCells && s.cellsOn) {
        render::SectionOptions& r = roundOptions.emplace();
        r.cells = s.cells;
        r.cells.roundShape = true;
        r.cells.pose = 0;
        r.cells.highlightLeaf = -1;
        r.cellsOn = true;
        r.voidLeaves = &roundCells->voidLeaves;
    }
    Built out;
    for (int axis = 0; axis < 3; ++axis) {
        o.axis = axis;
        o.at = request.workingPoint[axis];
        render::SectionBatches& b = out.axes[size_t(axis)];
        b = render::sectionOverlay(tree, o);
        if (roundOptions) {
            roundOptions->axis = axis;
            roundOptions->at = o.at;
            render::SectionBatches cells = render::sectionOverlay(roundCells->result->onion, *roundOptions);
            // Under the document tree's fills (reach, sight), which compose over the cells.
            cells.fills.vertices.insert(cells.fills.vertices.end(), b.fills.vertices.begin(), b.fills.vertices.end());
            b.fills = std::move(cells.fills);
        }
        if (round && s.unionOn && request.roundSurface)
            render::addRoundSurfaceSection(b.lines, request.roundSurface->shown, axis, o.at, &request.roundSurface->bounds);
    }
    out.cache = std::move(cache);
    out.milliseconds = watch.lapMs();
    return out;
}

void SectionService::start() {
    if (!waiting_) return;
    SectionRequest request = std::move(*waiting_);
    waiting_.reset();
    const int pose = request.settings.cells.pose;
    if (pose < 0 || pose >= int(request.compiled->result->onion.poses.size())) {
        releaseInBackground(std::move(request.compiled));
        return;
    }
    running_ = true;
    QPointer<SectionService> self(this);
    runInBackground([self, request = std::move(request), cache = cache_]() mutable {
        auto built = std::make_shared<Built>(build(request, std::move(cache)));
        postToUiThread([self, built, request = std::move(request)]() mutable {
            if (!self) return;
            self->running_ = false;
            self->show(*built, std::move(request));
            self->start();
        });
    });
}

void SectionService::show(Built& built, SectionRequest request) {
    cache_ = std::move(built.cache);
    lastBuildMs_ = built.milliseconds;
    if (!on_) return; // switched off while it was built
    for (int axis = 0; axis < 3; ++axis) {
        editor_.scene().set(render::sectionFills(axis), std::move(built.axes[size_t(axis)].fills));
        editor_.scene().set(render::sectionLines(axis), std::move(built.axes[size_t(axis)].lines));
    }
    releaseInBackground(std::exchange(shown_, std::move(request)).compiled);
    ++shownBuilds_;
    emit editor_.sceneChanged();
    emit sectionsShown();
}

} // namespace shallot

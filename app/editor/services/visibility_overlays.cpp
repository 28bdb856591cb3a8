#include "services/visibility_overlays.h"

#include "services/background_jobs.h"
#include "services/background_release.h"
#include "editor.h"
#include "tree_overlays.h"

#include <QPointer>
#include <algorithm>

namespace shallot {

VisibilityOverlays::VisibilityOverlays(Editor& editor, PvsService& pvs) : QObject(&editor), editor_(editor), pvs_(pvs) {
    connect(&pvs_, &PvsService::updated, this, &VisibilityOverlays::refresh);
    connect(&editor_.document(), &EditorDocument::cameraChanged, this, [this] {
        if (visibleOn_ && !kept_) refresh();
    });
    connect(&editor_.document(), &EditorDocument::viewWeightLimitChanged, this, &VisibilityOverlays::refresh);
    // A point inspected while the overlay is on is the one it shows, kept.
    connect(&editor_, &Editor::inspectRequested, this, [this](const Vec3& p) {
        if (!visibleOn_) return;
        kept_ = p;
        emit keepChanged(true);
        refresh();
    });
}

void VisibilityOverlays::setVisibleOn(bool on) {
    if (visibleOn_ == on) return;
    visibleOn_ = on;
    refresh();
}

void VisibilityOverlays::setWeightOn(bool on) {
    if (weightOn_ == on) return;
    weightOn_ = on;
    refresh();
}

void VisibilityOverlays::setKeep(bool keep) {
    if (keep == kept_.has_value()) return;
    if (keep) kept_ = editor_.document().data().camera.position;
    else kept_.reset();
    emit keepChanged(keep);
    refresh();
}

Vec3 VisibilityOverlays::source() const { return kept_ ? *kept_ : editor_.document().data().camera.position; }

std::shared_ptr<const std::vector<bool>> VisibilityOverlays::visibleLeaves(uint64_t serial) const {
    return shown_.serial == serial ? shown_.visible : nullptr;
}

std::shared_ptr<const std::vector<uint32_t>> VisibilityOverlays::viewWeights(uint64_t serial) const {
    return shown_.serial == serial ? shown_.weights : nullptr;
}

VisibilityOverlays::Key VisibilityOverlays::wantedKey() const {
    Key key;
    key.visibleOn = visibleOn_;
    key.weightOn = weightOn_;
    if (weightOn_) key.limit = editor_.document().data().viewWeightLimit;
    const SightPvsResult& latest = pvs_.latest();
    if (latest.world && latest.pvs && (visibleOn_ || weightOn_)) {
        key.pvs = latest.pvs;
        const BspTree& onion = latest.world->result->onion;
        const int32_t leaf = onion.findLeaf(source());
        if (visibleOn_ && !((onion.leafSolid[size_t(leaf)] >> latest.pvs->pose()) & 1u)) key.leaf = leaf;
    }
    return key;
}

void VisibilityOverlays::refresh() {
    if (wantedKey() == (running_ ? building_ : drawn_)) return;
    if (running_) pending_ = true;
    else start();
}

void VisibilityOverlays::start() {
    pending_ = false;
    const Key key = wantedKey();
    std::shared_ptr<const SightPvs> pvs = key.pvs;
    std::shared_ptr<const CompiledWorld> world = key.pvs ? pvs_.latest().world : nullptr;
    running_ = true;
    building_ = key;
    QPointer<VisibilityOverlays> self(this);
    const bool redrawWeights = key.pvs != drawn_.pvs || key.weightOn != drawn_.weightOn || key.limit != drawn_.limit;
    runInBackground([self, world = std::move(world), pvs = std::move(pvs), key, redrawWeights]() mutable {
        struct Built {
            std::shared_ptr<const std::vector<bool>> visible;
            render::MeshBatch visibleBatch, weightBatch;
        };
        auto built = std::make_shared<Built>();
        if (world && pvs) {
            const render::OverlaySource source{world->result->onion, world->cells, render::leafCellBounds(world->cells)};
            if (key.leaf >= 0) {
                built->visible = std::make_shared<const std::vector<bool>>(pvs->visibleFrom(key.leaf));
                built->visibleBatch = render::visibleOverlay(source, *built->visible);
            }
            if (key.weightOn && redrawWeights) built->weightBatch = render::viewWeightOverlay(source, pvs->viewWeight(), key.limit);
        }
        const uint64_t serial = world ? world->serial : 0;
        releaseInBackground(std::move(world));
        postToUiThread([self, built, key, redrawWeights, serial, pvs = std::move(pvs)] {
            if (!self) return;
            self->running_ = false;
            // An empty layer left empty keeps its version: the 2D views keep their pictures.
            render::RenderScene& scene = self->editor_.scene();
            auto set = [&scene](render::Layer l, render::MeshBatch batch) {
                if (!batch.vertices.empty() || !scene.layer(l).chunkList().empty()) scene.set(l, std::move(batch));
            };
            set(render::Layer::Visible, std::move(built->visibleBatch));
            if (redrawWeights) set(render::Layer::ViewWeight, std::move(built->weightBatch));
            self->drawn_ = key;
            self->shown_.serial = serial;
            self->shown_.visible = built->visible;
            self->visibleCount_ = built->visible ? size_t(std::count(built->visible->begin(), built->visible->end(), true)) : 0;
            // The weights live as long as the PVS they belong to.
            self->shown_.weights = key.weightOn && pvs ? std::shared_ptr<const std::vector<uint32_t>>(pvs, &pvs->viewWeight()) : nullptr;
            emit self->editor_.sceneChanged();
            emit self->shown();
            if (self->pending_) self->start();
        });
    });
}

} // namespace shallot

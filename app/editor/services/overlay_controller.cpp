#include "services/overlay_controller.h"

#include "services/quake3_capsule_overlay.h"
#include "services/too_dark_overlay.h"

#include "screenshot.h"

#include "services/background_jobs.h"
#include "services/background_release.h"
#include "editor.h"
#include "query/slide_move.h"
#include "query/trace_batch.h"
#include "nav_overlay.h"

#include <QPointer>
#include <numeric>
#include <utility>

namespace shallot {

namespace {
// Step height of walking rays: Quake's stair step.
constexpr double kWalkStepHeight = 18.0;
} // namespace

OverlayController::OverlayController(Editor& editor)
    : QObject(&editor), editor_(editor), sections_(new SectionService(editor)), nav_(new NavService(editor, editor.navMeshCache())),
      pvs_(new PvsService(this)), visibility_(new VisibilityOverlays(editor, *pvs_)) {
    connect(pvs_, &PvsService::updated, this, &OverlayController::applyPvsCulling);
    connect(visibility_, &VisibilityOverlays::shown, this, &OverlayController::requestSections);
    connect(&editor_.compiler(), &CompileService::compiled, this, &OverlayController::onCompiled);
    // A newer edit: the round pose's part of the running overlay build is dropped (its
    // two-box compile and rounded surface take a few tenths of a second on id_e1m1).
    connect(&editor_.compiler(), &CompileService::compileStarted, this, [this] {
        if (heavyRunning_ && roundCancel_) roundCancel_->cancelled = true;
    });
    connect(&editor_, &Editor::currentPoseChanged, this, [this] {
        rebuildHeavy();
        rebuildRays();
        rebuildNavLayers();
        requestNav(); // the new pose's mesh, unless built
    });
    connect(nav_, &NavService::built, this, [this] {
        rebuildNavLayers();
        rebuildRays();
        emit raysTraced(); // the rays dock's Path column
    });
    connect(&editor_.document(), &EditorDocument::raysChanged, this, &OverlayController::retraceRays);
    connect(&editor_.document(), &EditorDocument::workingPointChanged, this, &OverlayController::requestSections);
    connect(&editor_, &Editor::toolChanged, this, &OverlayController::requestNav); // the Path tool walks on them
    // The travel through doors and lifts follows the entities (after NavService counts the edit).
    connect(&editor_.document(), &EditorDocument::entitiesChanged, this, &OverlayController::requestNav);
    connect(&editor_.document(), &EditorDocument::documentReset, this, &OverlayController::requestNav);
}

void OverlayController::requestNav() {
    const bool wanted = isOn(Overlay::Walkable) || isOn(Overlay::TooDark) || !editor_.document().rays().empty() ||
                        editor_.activeTool() == ToolKind::Path;
    if (compiled_ && wanted && !nav_->upToDate(compiled_)) nav_->request(compiled_);
}

std::optional<TravelPath> OverlayController::walkingPath(const Vec3& from, const Vec3& to, int pose) const {
    const auto& meshes = nav_->meshes();
    const TravelGraph* graph = meshes ? meshes->travelOf(pose) : nullptr;
    if (!graph) return std::nullopt;
    return findTravelPath(meshes->travelWorld->result->onion, *graph, from, to);
}

void OverlayController::rebuildNavLayers() {
    const auto& meshes = nav_->meshes();
    const int pose = editor_.currentPose();
    const bool on = isOn(Overlay::Walkable);
    nav_->setDrawnPose(on ? pose : -1);
    WalkableMeshKey meshKey;
    WalkableTravelKey travelKey;
    if (on && meshes && meshes->mesh(pose)) {
        meshKey = {meshes->poses[size_t(pose)], pose, meshes->world->result->onion.poses[size_t(pose)].mins.z()};
        if (meshes->travelOf(pose)) travelKey = {meshes->travel[size_t(pose)], pose};
    }
    render::RenderScene& scene = editor_.scene();
    // Each layer is set again only when what it shows changed (an upload and a repaint of
    // every view that draws it), from the drawing the build made when there is one.
    bool changed = false;
    if (meshKey != navMeshDrawn_) {
        WalkableMeshDrawing drawing;
        if (meshKey.mesh) {
            std::optional<WalkableMeshDrawing> made = nav_->takeMeshDrawing(meshKey);
            drawing = made ? std::move(*made) : drawWalkableMesh(meshKey);
        }
        scene.set(render::Layer::Walkable, std::move(drawing.surfaces));
        scene.set(render::Layer::WalkableLinks, std::move(drawing.links));
        releaseInBackground(std::exchange(navMeshDrawn_, std::move(meshKey)).mesh);
        changed = true;
    }
    if (travelKey != navTravelDrawn_) {
        WalkableTravelDrawing drawing;
        if (travelKey.graph) {
            std::optional<WalkableTravelDrawing> made = nav_->takeTravelDrawing(travelKey);
            drawing = made ? std::move(*made) : drawWalkableTravel(travelKey, meshes->travelWorld->result->onion.poses[size_t(pose)]);
        }
        scene.set(render::Layer::WalkableTravel, std::move(drawing.travel));
        releaseInBackground(std::exchange(navTravelDrawn_, std::move(travelKey)).graph);
        changed = true;
    }
    if (changed) emit editor_.sceneChanged();
}

void OverlayController::requestSections() {
    if (!compiled_) return;
    SectionRequest r;
    r.compiled = compiled_;
    r.settings = heavySettings();
    r.workingPoint = editor_.document().workingPoint();
    r.brushes = editor_.geometry();
    if (isOn(Overlay::Visible)) r.visible = visibility_->visibleLeaves(compiled_->serial);
    if (isOn(Overlay::ViewWeight)) r.viewWeights = visibility_->viewWeights(compiled_->serial);
    // A round pose's own cells and surface, the newest drawn for it (the next build's follow).
    if (compiled_->isRound(r.settings.cells.pose)) {
        if (roundCells_ && roundCells_->pose == r.settings.cells.pose && r.settings.cellsOn) r.roundCells = roundCells_;
        if (roundSurface_ && roundSurface_->pose == r.settings.cells.pose && r.settings.unionOn) r.roundSurface = roundSurface_;
    }
    r.viewWeightLimit = editor_.document().data().viewWeightLimit;
    sections_->request(std::move(r));
}

void OverlayController::applyPvsCulling() {
    const std::shared_ptr<const CompiledWorld> world = sightWorld_.lock();
    if (!world || !sightVisibility_) return;
    std::shared_ptr<const SightPvs> pvs = pvsCulling_ ? pvs_->of(*world) : nullptr;
    if (pvs || !pvsCulling_) {
        sightVisibility_->restrictTo(std::move(pvs));
        emit editor_.drawingChanged();
    }
}

void OverlayController::setPvsCulling(bool on) {
    pvsCulling_ = on;
    applyPvsCulling();
}

void OverlayController::LeafCarry::follow(const CompiledWorld& next) {
    if (to != 0 && next.keptFrom == to) {
        leaves = to == from ? next.leafOfKept : composeLeafMaps(leaves, next.leafOfKept);
        to = next.serial;
    } else {
        to = 0;
        leaves.clear();
    }
}

void OverlayController::onCompiled(std::shared_ptr<const CompiledWorld> result) {
    // Follow the leaves of the tree drawn, and of the one being drawn, into the new one.
    if (drawn_) drawnCarry_.follow(*result);
    if (heavyRunning_) buildingCarry_.follow(*result);
    releaseInBackground(std::exchange(compiled_, std::move(result)));
    requestHeavy();
    requestSections();
    retraceRays();
    requestNav();
    pvs_->request(compiled_, detailBrushes(compiled_->world, editor_.document().data().entities));
}

void OverlayController::setOn(Overlay o, bool on) {
    if (isOn(o) == on) return;
    if (on) on_.insert(o);
    else on_.erase(o);
    emit overlayToggled(o, on);
    // Reachability needs a start: the player start when the level has one; else say how.
    if (o == Overlay::Reach && on && !reachStart_) {
        if (const std::optional<Vec3> start = playerStart(editor_.document().data())) reachStart_ = *start;
        else emit editor_.statusMessage("Reachability needs a start: Inspect (I) a point and press \"Reach from this point\", "
                                        "or \"Reach from start\" on a test ray");
    }
    if (o == Overlay::Rays) rebuildRays();
    else if (o == Overlay::Visible || o == Overlay::ViewWeight) {
        if (o == Overlay::Visible) visibility_->setVisibleOn(on);
        else visibility_->setWeightOn(on);
        pvs_->setWanted(isOn(Overlay::Visible) || isOn(Overlay::ViewWeight));
        requestSections();
    } else if (o == Overlay::Quake3Capsule) {
        editor_.quake3Capsule().setOn(on);
    } else if (o == Overlay::TooDark) {
        editor_.tooDark().setOn(on);
        requestNav();
    } else if (o == Overlay::Walkable) {
        requestNav();
        rebuildNavLayers();
        rebuildRays();
    } else rebuildHeavy();
}

void OverlayController::setCellFilter(render::CellFilter f) {
    if (cells_.filter == f) return;
    cells_.filter = f;
    rebuildHeavy();
    emit cellOptionsChanged();
}

void OverlayController::setCellColouring(render::CellColouring c) {
    if (cells_.colouring == c) return;
    cells_.colouring = c;
    rebuildHeavy();
    emit cellOptionsChanged();
}

void OverlayController::setGreyUnreachable(bool on) {
    if (greyUnreachable_ == on) return;
    greyUnreachable_ = on;
    rebuildHeavy();
    emit cellOptionsChanged();
}

void OverlayController::setHighlightLeaf(int leaf) {
    cells_.highlightLeaf = leaf;
    rebuildHeavy();
}

void OverlayController::forgetPlaces() {
    reachStart_.reset();
    cells_.highlightLeaf = -1;
    if (isOn(Overlay::Reach)) {
        if (const std::optional<Vec3> start = playerStart(editor_.document().data())) reachStart_ = *start;
    }
    rebuildHeavy();
}

void OverlayController::setReachStart(const Vec3& p) {
    reachStart_ = p;
    rebuildHeavy();
}

HeavySettings OverlayController::heavySettings() const {
    HeavySettings h;
    h.cells = cells_;
    h.cells.pose = editor_.currentPose();
    h.cellsOn = isOn(Overlay::Cells);
    h.portalsOn = isOn(Overlay::Portals);
    h.unionOn = isOn(Overlay::Union);
    h.reachOn = isOn(Overlay::Reach);
    h.grey = greyUnreachable_;
    h.reachStart = reachStart_;
    return h;
}

void OverlayController::rebuildHeavy() {
    ++settingsGeneration_;
    requestHeavy();
    requestSections();
}

void OverlayController::requestHeavy() {
    if (heavyRunning_) heavyPending_ = true;
    else startHeavy();
}

void OverlayController::startHeavy() {
    heavyPending_ = false;
    if (!compiled_) return;
    HeavyJob job;
    job.compiled = compiled_;
    job.settings = heavySettings();
    const int pose = job.settings.cells.pose;
    if (pose < 0 || pose >= int(compiled_->result->onion.poses.size())) return;
    // The layers shown, when drawn alike from a tree whose leaves carry over to this one.
    if (drawn_ && drawn_->settings.drawLike(job.settings) && drawnCarry_.to == compiled_->serial) {
        job.base = drawn_;
        if (drawn_->serial == compiled_->serial) {
            job.leafOfBase.resize(drawn_->inputs.leafSolid.size());
            std::iota(job.leafOfBase.begin(), job.leafOfBase.end(), 0);
        } else {
            job.leafOfBase = drawnCarry_.leaves;
        }
    }
    // The sight of this compiled world when an earlier rebuild made it; else the brushes'
    // boxes, when the tree was compiled from the brushes the views show.
    if (sightWorld_.lock() == compiled_) {
        job.keptVisibility = sightVisibility_;
        job.keptBrushes = sightBrushes_;
    }
    if (!job.keptBrushes && compiled_->revision == editor_.document().worldRevision())
        for (const auto& g : editor_.geometry()) job.brushBoxes.push_back(g ? g->bounds : Aabb{});
    for (size_t k = 0; k < kHeavyLayerCount; ++k) job.shown[k] = editor_.scene().layer(kHeavyLayers[k]).chunks;
    job.keptRoundCells = roundCells_;
    job.keptRoundSurface = roundSurface_;
    job.roundMakers = roundMakers_;
    roundCancel_ = std::make_shared<CancelToken>();
    job.roundCancel = roundCancel_;
    heavyRunning_ = true;
    buildingCarry_ = LeafCarry{compiled_->serial, compiled_->serial, {}};
    QPointer<OverlayController> self(this);
    runInBackground([self, generation = settingsGeneration_, job = std::move(job)]() mutable {
        const uint64_t revision = job.compiled->revision;
        std::weak_ptr<const CompiledWorld> world = job.compiled;
        std::shared_ptr<HeavyBatches> out;
        try {
            out = std::make_shared<HeavyBatches>(buildHeavyOverlays(std::move(job)));
        } catch (const CompileCancelled&) {
            // A newer edit: its compile's build comes next.
        }
        postToUiThread([self, out, generation, revision, world] {
            if (!self) return;
            self->heavyRunning_ = false;
            if (!out) {
                if (self->heavyPending_) self->startHeavy();
                return;
            }
            // Drawn with settings changed since, it is dropped; drawn from a tree a newer
            // compile replaced, it is shown all the same (a drag's steps show at the
            // overlays' pace) and the newest is drawn next.
            if (generation == self->settingsGeneration_) self->showHeavy(*out, revision, world);
            if (self->heavyPending_) self->startHeavy();
        });
    });
}

void OverlayController::showHeavy(HeavyBatches& out, uint64_t revision, std::weak_ptr<const CompiledWorld> world) {
    render::RenderScene& scene = editor_.scene();
    for (size_t k = 0; k < kHeavyLayerCount; ++k)
        scene.setChunks(kHeavyLayers[k], out.drawn->chunks[k], out.visibility, out.before[k].get(), std::move(out.changed[k]));
    drawn_ = out.drawn;
    drawnCarry_ = std::move(buildingCarry_);
    rebuiltInPart_ += out.redrawnInPart;
    flood_ = out.flood;
    shownRevision_ = revision;
    sightWorld_ = std::move(world);
    sightVisibility_ = out.visibility;
    sightBrushes_ = out.brushes;
    sightRevision_ = revision;
    const bool roundDrawn = out.roundCells || out.roundSurface || roundCells_ || roundSurface_;
    roundCells_ = out.roundCells;
    roundSurface_ = out.roundSurface;
    sections_->setRoundSurfaceShown(roundSurface_ != nullptr);
    if (roundDrawn) requestSections(); // their sections follow
    applyBrushSight();
    applyEntitySight();
    applyPvsCulling();
    emit editor_.sceneChanged();
    emit overlaysUpdated(revision);
}

void OverlayController::applyBrushSight() {
    if (!sightBrushes_ || sightRevision_ != editor_.document().worldRevision()) return;
    editor_.scene().setBrushSight(render::Layer::BrushFaces, sightVisibility_, sightBrushes_);
}

void OverlayController::applyEntitySight() {
    if (!sightVisibility_ || sightRevision_ != editor_.document().worldRevision()) return;
    std::vector<Aabb> boxes(editor_.document().entities().size());
    for (size_t i = 0; i < boxes.size(); ++i) boxes[i] = editor_.entityBox(int(i));
    if (!entitySight_ || entitySightOf_ != sightVisibility_ || boxes != entitySightBoxes_) {
        entitySight_ = std::make_shared<const LeafBrushes>(sightVisibility_->tree(), boxes);
        entitySightOf_ = sightVisibility_;
        entitySightBoxes_ = std::move(boxes);
    }
    editor_.scene().setBrushSight(render::Layer::EntityFaces, sightVisibility_, entitySight_);
}

void OverlayController::retraceRays() {
    // A first ray wants the walking paths; meshes already built answer it at once.
    requestNav();
    rayResults_.clear();
    if (compiled_) {
        const BspTree& tree = compiled_->result->onion;
        const auto& rays = editor_.document().rays();
        std::vector<TraceRequest> requests;
        for (const TestRay& r : rays)
            for (int p = 0; p < int(tree.poses.size()); ++p) requests.push_back({p, r.from, r.to});
        std::vector<TraceResult> results = traceBatch(tree, requests, 2);
        // A round pose's rays are its exact sweeps, not its bounding box's in the tree.
        for (size_t k = 0; k < requests.size(); ++k)
            if (compiled_->isRound(requests[k].pose))
                results[k] = compiled_->trace(requests[k].pose, requests[k].from, requests[k].to);
        for (size_t i = 0; i < rays.size(); ++i)
            rayResults_.emplace_back(results.begin() + long(i * tree.poses.size()),
                                     results.begin() + long((i + 1) * tree.poses.size()));
    }
    rebuildRays();
    emit raysTraced();
}

render::RayDrawing OverlayController::rayDrawing(const Vec3& from, const Vec3& to, bool walk, const TraceResult* traced) const {
    render::RayDrawing d;
    d.from = from;
    d.to = to;
    const int pose = editor_.currentPose();
    const BspTree* tree = compiled_ ? &compiled_->result->onion : nullptr;
    if (!tree || pose < 0 || pose >= int(tree->poses.size())) return d;
    if (walk) {
        // The collide-and-slide path: start, each contact, end.
        const MoveResult move = compiled_->move(pose, from, to - from, kWalkStepHeight);
        d.walkPath.push_back(from);
        for (const Contact& c : move.contacts) d.walkPath.push_back(c.point);
        d.walkPath.push_back(move.end);
    }
    const TraceResult r = traced ? *traced : compiled_->trace(pose, from, to);
    d.hit = r.hit;
    d.startSolid = r.startSolid;
    d.point = r.point;
    d.normal = r.normal;
    return d;
}

std::optional<Vec3> OverlayController::walkEnd(const Vec3& from, const Vec3& to, int pose) const {
    const BspTree* tree = compiled_ ? &compiled_->result->onion : nullptr;
    if (!tree || pose < 0 || pose >= int(tree->poses.size())) return std::nullopt;
    return compiled_->move(pose, from, to - from, kWalkStepHeight).end;
}

void OverlayController::rebuildRays() {
    const auto& rays = editor_.document().rays();
    const int pose = editor_.currentPose();
    std::vector<render::RayDrawing> drawings;
    for (size_t i = 0; i < rays.size(); ++i) {
        if (rays[i].path) continue; // drawn as walking paths below
        const bool traced = i < rayResults_.size() && pose >= 0 && size_t(pose) < rayResults_[i].size();
        drawings.push_back(rayDrawing(rays[i].from, rays[i].to, rays[i].walk, traced ? &rayResults_[i][size_t(pose)] : nullptr));
    }
    const Pose box = pose >= 0 ? editor_.document().poses()[size_t(pose)] : Pose{};
    render::MeshBatch batch = isOn(Overlay::Rays) ? render::rayOverlay(drawings, box) : render::MeshBatch{};
    // Paths placed with the Path tool always, and with the Walkable overlay every ray's, each
    // as the current pose walks it, on the floor.
    const auto& paths = nav_->rayPaths();
    for (size_t i = 0; i < rays.size() && isOn(Overlay::Rays) && pose >= 0; ++i) {
        const TravelPath* path = i < paths.size() && size_t(pose) < paths[i].size() ? &paths[i][size_t(pose)] : nullptr;
        if (rays[i].path) render::addPathRay(batch, rays[i].from, rays[i].to, path, box.mins.z());
        else if (path && isOn(Overlay::Walkable)) render::addPath(batch, *path, box.mins.z());
    }
    editor_.scene().set(render::Layer::Rays, std::move(batch));
    emit editor_.sceneChanged();
}

} // namespace shallot

#include "services/light_service.h"

#include "check/mover_checks.h"
#include "document/editor_document.h"
#include "light/brush_relight.h"
#include "light/relight.h"
#include "light/relight_scope.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "services/background_jobs.h"
#include "services/background_release.h"

#include <QElapsedTimer>
#include <QPointer>
#include <algorithm>
#include <thread>

namespace shallot {

namespace {

// The level's entities as the lighting reads them: worldspawn's keys (minlight, sunlight)
// first, then the others (the document keeps worldspawn's brushes as its world).
std::vector<MapEntity> lightEntities(const DocumentData& data) {
    return mapOfDocumentEntities(data.entities, data.game, data.worldKeys).entities;
}

// The same point pose (its box and what blocks it) in both worlds: the same shadows where
// the brushes are the same.
bool samePointPose(const World& a, const World& b, int pose) {
    if (pointPoseIndex(a.poses) != pose) return false;
    const Pose& p = a.poses[size_t(pose)];
    const Pose& q = b.poses[size_t(pose)];
    return p.mins == q.mins && p.maxs == q.maxs && p.blockingSet() == q.blockingSet() && p.shape == q.shape;
}

// The lighting of `world` with `entities`, from the one shown when only lights changed
// (relight.h: the faces they reach) or only brushes (brush_relight.h: the faces near the
// edit), else from scratch. No bounce: the editor shows direct light.
LevelLighting lightAfterEdit(const LightingResult& previous, const CompiledWorld& world, const std::vector<MapEntity>& entities,
                             int pose, const std::string& file, int threads, size_t& relitFaces, bool& relit) {
    const SkyFaces sky(world.world.brushes, world.world.bounds);
    const TreeOccluder occluder(world.result->onion, pose, sky);
    LightInput input;
    input.worldBrushes = &world.world.brushes;
    input.entities = &entities;
    input.bounds = world.world.bounds;
    input.file = file;
    const bool hadLighting = previous.lighting && previous.world && previous.entities;
    if (hadLighting && previous.world.get() == &world && onlyLightsDiffer(*previous.entities, entities)) {
        LevelLighting lighting = *previous.lighting;
        relitFaces = relightChangedLights(lighting, readLightEntities(entities, file), occluder, threads).faces;
        relit = true;
        return lighting;
    }
    if (hadLighting && sameEntities(*previous.entities, entities) && samePointPose(previous.world->world, world.world, pose) &&
        previous.world->world.bounds.mins == world.world.bounds.mins && previous.world->world.bounds.maxs == world.world.bounds.maxs) {
        if (const std::optional<Aabb> region = changedBrushRegion(previous.world->world.brushes, world.world.brushes, world.world.bounds)) {
            LevelLighting lighting = relightAfterBrushEdit(*previous.lighting, input, world.result->onion, pose, *region, threads);
            relit = true;
            relitFaces = 0; // brush_relight counts none: the summary says "near the edit"
            return lighting;
        }
    }
    return lightLevelInTree(input, world.result->onion, pose, threads);
}

} // namespace

LightService::LightService(EditorDocument& document, render::RenderScene& scene, QObject* parent)
    : QObject(parent), document_(document), scene_(scene) {
    connect(&document_, &EditorDocument::entitiesChanged, this, &LightService::entitiesChanged);
    scene_.setVisible(render::Layer::LitFaces, false);
}

LightService::~LightService() {
    releaseInBackground(std::move(wanted_));
    releaseInBackground(std::move(latest_.world));
}

bool LightService::latestIsCurrent() const {
    return latest_.lighting && wanted_ && latest_.world == wanted_ && latest_.entityRevision == entityRevision_;
}

void LightService::setShading(render::LightShading shading) {
    if (shading_ == shading) return;
    shading_ = shading;
    showShading();
    if (running_ || shading_ == render::LightShading::Flat) return;
    if (!latestIsCurrent()) start();
    else if (drawnShading_ != shading_) start(true);
}

void LightService::setOverlayWanted(bool wanted) {
    overlayWanted_ = wanted;
    if (active() && !running_ && !latestIsCurrent()) start();
}

void LightService::request(std::shared_ptr<const CompiledWorld> world) {
    if (!world || isPreviewRevision(world->revision) || !world->result->error.empty()) return;
    releaseInBackground(std::exchange(wanted_, std::move(world)));
    if (active() && !running_) start();
}

void LightService::entitiesChanged() {
    ++entityRevision_;
    if (active() && !running_ && wanted_) start();
}

void LightService::start(bool batchOnly) {
    if (!wanted_) return;
    running_ = true;
    QPointer<LightService> self(this);
    // The lighting shown, to draw again (batchOnly) or to relight where only lights changed.
    LightingResult previous = latest_;
    auto entities = batchOnly ? previous.entities : std::make_shared<const std::vector<MapEntity>>(lightEntities(document_.data()));
    runInBackground([self, world = wanted_, entities, revision = entityRevision_, shading = shading_,
                     file = document_.filePath().toStdString(), previous = std::move(previous), batchOnly]() mutable {
        LightingResult out = batchOnly ? previous : LightingResult{};
        QElapsedTimer timer;
        timer.start();
        render::MeshBatch batch;
        if (!batchOnly) {
            out.world = world;
            out.entityRevision = revision;
            out.entities = entities;
            const int pose = pointPoseIndex(world->world.poses);
            // Every core: the threads inherit the pool thread's lowered priority (background_priority.h).
            const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
            if (pose < 0) {
                out.error = "No point pose to cast shadows with: add one in the Poses dock to light the level.";
            } else {
                out.lighting = std::make_shared<LevelLighting>(
                    lightAfterEdit(previous, *world, *entities, pose, file, threads, out.relitFaces, out.relit));
            }
        }
        if (out.lighting && shading != render::LightShading::Flat) batch = render::buildLitFaceBatch(*out.lighting, shading);
        if (!batchOnly) out.milliseconds = double(timer.nsecsElapsed()) / 1e6;
        world.reset(); // out.world holds it
        previous = {};
        postToUiThread([self, out = std::move(out), batch = std::move(batch), shading]() mutable {
            if (!self) return;
            self->running_ = false;
            self->finished(std::move(out), std::move(batch), shading);
        });
    });
}

void LightService::finished(LightingResult result, render::MeshBatch batch, render::LightShading shading) {
    releaseInBackground(std::exchange(latest_, std::move(result)).world);
    if (latest_.lighting && shading != render::LightShading::Flat) {
        scene_.set(render::Layer::LitFaces, std::move(batch));
        drawnShading_ = shading;
    }
    showShading();
    emit lit();
    // Something newer (a compile, an entity edit, another shading) came meanwhile.
    if (!active()) return;
    if (!latestIsCurrent()) start();
    else if (shading_ != render::LightShading::Flat && drawnShading_ != shading_) start(true);
}

void LightService::showShading() {
    const bool lit = shading_ != render::LightShading::Flat && latest_.lighting;
    scene_.setVisible(render::Layer::LitFaces, lit);
    scene_.setVisible(render::Layer::BrushFaces, !lit);
    emit updated(summary());
}

QString LightService::summary() const {
    if (shading_ == render::LightShading::Flat) return {};
    if (!latest_.error.isEmpty()) return latest_.error;
    if (!latest_.lighting) return "Lighting the level...";
    const LightStats& s = latest_.lighting->stats;
    const QString what = !latest_.relit            ? QString("Lit in")
                         : latest_.relitFaces > 0 ? QString("Relit %1 faces near the changed lights in").arg(latest_.relitFaces)
                                                  : QString("Relit near the edit in");
    return QString("%1 %2 s: %3 faces, %4 luxels, %5 lights, %6 rays%7")
        .arg(what)
        .arg(latest_.milliseconds / 1000.0, 0, 'f', 2)
        .arg(s.lightmappedFaces)
        .arg(s.luxels)
        .arg(s.lights)
        .arg(s.rays)
        .arg(latest_.lighting->warnings.empty() ? QString()
                                                 : QString(" (%1 warnings)").arg(latest_.lighting->warnings.size()));
}

} // namespace shallot

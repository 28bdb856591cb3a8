#include "services/light_service.h"

#include "check/mover_checks.h"
#include "document/editor_document.h"
#include "light/bounce.h"
#include "light/brush_relight.h"
#include "light/coarse_lattice.h"
#include "light/refine_lighting.h"
#include "light/relight.h"
#include "light/relight_scope.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "services/background_jobs.h"
#include "services/background_release.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <algorithm>
#include <optional>
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

// The lighting of `world` with `entities`, from the full one before (`base`) when only
// lights changed (relight.h: the faces they reach) or only brushes (brush_relight.h: the
// faces near the edit), else from scratch; the faces it lights are lit at `pass`'s stride.
// Direct light only: the bounce is added to a copy (base.direct stays direct).
LevelLighting lightAfterEdit(const LightingResult& base, const CompiledWorld& world, const std::vector<MapEntity>& entities,
                             int pose, const TreeOccluder& occluder, const std::string& file, int threads, const LightPass& pass,
                             size_t& relitFaces, bool& relit) {
    LightInput input;
    input.worldBrushes = &world.world.brushes;
    input.entities = &entities;
    input.bounds = world.world.bounds;
    input.file = file;
    const bool hadLighting = base.direct && base.world && base.entities;
    if (hadLighting && base.world.get() == &world && onlyLightsDiffer(*base.entities, entities)) {
        LevelLighting lighting = *base.direct;
        relitFaces = relightChangedLights(lighting, readLightEntities(entities, file), occluder, threads, pass).faces;
        relit = true;
        return lighting;
    }
    if (hadLighting && sameEntities(*base.entities, entities) && samePointPose(base.world->world, world.world, pose) &&
        base.world->world.bounds.mins == world.world.bounds.mins && base.world->world.bounds.maxs == world.world.bounds.maxs) {
        if (const std::optional<Aabb> region = changedBrushRegion(base.world->world.brushes, world.world.brushes, world.world.bounds)) {
            LevelLighting lighting = relightAfterBrushEdit(*base.direct, input, world.result->onion, pose, *region, threads, pass);
            relit = true;
            relitFaces = 0; // brush_relight counts none: the summary says "near the edit"
            return lighting;
        }
    }
    return lightLevelInTree(input, world.result->onion, pose, threads, 0, pass);
}

// The full lighting is worth the coarse picture: the refinement is expected to take
// kCoarsePictureWorthMs or more, and more than a batch takes to build (`batchMs`), at the
// coarse pass's pace per luxel lit.
bool coarsePictureWorthIt(const LevelLighting& coarse, double coarseMs, double batchMs) {
    const CoarseShare share = coarseShare(coarse);
    if (share.faces == 0 || share.latticeLuxels == 0) return false;
    return coarseMs * double(share.luxels) / double(share.latticeLuxels) >= std::max(kCoarsePictureWorthMs, batchMs);
}

} // namespace

LightService::LightService(EditorDocument& document, render::RenderScene& scene, const PvsService* pvs, QObject* parent)
    : QObject(parent), document_(document), scene_(scene), pvs_(pvs) {
    connect(&document_, &EditorDocument::entitiesChanged, this, &LightService::entitiesChanged);
    connect(&document_, &EditorDocument::lightBouncesChanged, this, &LightService::startSoon);
    scene_.setVisible(render::Layer::LitFaces, false);
}

bool litByNothing(const LevelLighting& lighting) {
    const bool sun = std::any_of(lighting.settings.suns.begin(), lighting.settings.suns.end(),
                                 [](const SunLight& s) { return s.light > 0; });
    const bool light = std::any_of(lighting.lights.begin(), lighting.lights.end(), [](const PointLight& l) { return l.light > 0; });
    return !sun && !light && lighting.settings.minlight <= 0;
}

LightService::~LightService() {
    if (token_) token_->cancelled = true;
    releaseInBackground(std::move(wanted_));
    releaseInBackground(std::move(runningWorld_));
    releaseInBackground(std::move(latest_.world));
    releaseInBackground(std::move(base_.world));
}

int LightService::bounces() const { return document_.data().lightBounces; }

bool LightService::currentOrComing() const {
    if (!wanted_) return true;
    if (running_) return runningWorld_ == wanted_ && runningRevision_ == entityRevision_ && runningBounces_ == bounces();
    return latest_.lighting && latest_.world == wanted_ && latest_.entityRevision == entityRevision_ &&
           latest_.bounces == bounces();
}

void LightService::setShading(render::LightShading shading) {
    if (shading_ == shading) return;
    shading_ = shading;
    showShading();
    if (shading_ == render::LightShading::Flat) return;
    if (!currentOrComing()) start();
    else if (!running_ && drawnShading_ != shading_) redraw();
}

void LightService::setOverlayWanted(bool wanted) {
    overlayWanted_ = wanted;
    if (active() && !currentOrComing()) start();
}

void LightService::request(std::shared_ptr<const CompiledWorld> world) {
    if (!world || isPreviewRevision(world->revision) || !world->result->error.empty()) return;
    releaseInBackground(std::exchange(wanted_, std::move(world)));
    startSoon();
}

void LightService::entitiesChanged() {
    ++entityRevision_;
    startSoon();
}

void LightService::startSoon() {
    if (startPending_) return;
    startPending_ = true;
    QTimer::singleShot(0, this, [this] {
        startPending_ = false;
        if (active() && !currentOrComing()) start();
    });
}

void LightService::start() {
    if (!wanted_) return;
    if (running_) { // superseded: it stops before its next face, and nothing of it is shown
        token_->cancelled = true;
        ++cancelled_;
    }
    token_ = std::make_shared<CancelToken>();
    running_ = true;
    runningWorld_ = wanted_;
    runningRevision_ = entityRevision_;
    runningBounces_ = bounces();
    const uint64_t generation = ++generation_;
    QPointer<LightService> self(this);
    auto entities = std::make_shared<const std::vector<MapEntity>>(lightEntities(document_.data()));
    const int stride = coarseFirst_ ? kCoarseLuxelStride : 1;
    runInBackground([self, world = wanted_, entities, revision = entityRevision_, shading = shading_, generation, stride,
                     batchMs = lastBatchMs_, bounces = runningBounces_, bounceMs = lastBounceMs_,
                     sight = pvs_ ? pvs_->of(*wanted_) : nullptr, token = token_, file = document_.filePath().toStdString(), base = base_]() mutable {
        LightingResult out;
        out.world = world;
        out.entityRevision = revision;
        out.entities = entities;
        out.generation = generation;
        const auto post = [&](LightingResult result) {
            render::MeshBatch batch;
            QElapsedTimer built;
            built.start();
            if (result.lighting && shading != render::LightShading::Flat) {
                batch = render::buildLitFaceBatch(*result.lighting, shading);
                result.batchMilliseconds = double(built.nsecsElapsed()) / 1e6;
            }
            postToUiThread([self, result = std::move(result), batch = std::move(batch), shading]() mutable {
                if (self) self->passDone(std::move(result), std::move(batch), shading);
                else releaseInBackground(std::move(result.world));
            });
        };
        QElapsedTimer timer;
        timer.start();
        const int pose = pointPoseIndex(world->world.poses);
        // Every core: the threads inherit the pool thread's lowered priority (background_priority.h).
        const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
        try {
            if (pose < 0) {
                out.error = "No point pose to cast shadows with: add one in the Poses dock to light the level.";
            } else {
                const SkyFaces sky(world->world.brushes, world->world.bounds);
                const TreeOccluder occluder(world->result->onion, pose, sky);
                // Only the bounces changed: the direct light before is the direct light now.
                out.directKept = base.direct && base.world == world && base.entities && sameEntities(*base.entities, *entities);
                if (out.directKept) {
                    out.direct = base.direct;
                } else {
                    LevelLighting lighting = lightAfterEdit(base, *world, *entities, pose, occluder, file, threads,
                                                            LightPass{stride, token.get()}, out.relitFaces, out.relit);
                    const double firstPassMs = double(timer.nsecsElapsed()) / 1e6;
                    if (coarsePictureWorthIt(lighting, firstPassMs, batchMs)) {
                        LightingResult coarse = out;
                        coarse.lighting = std::make_shared<const LevelLighting>(lighting);
                        coarse.coarse = true;
                        coarse.milliseconds = out.coarseMilliseconds = double(timer.nsecsElapsed()) / 1e6;
                        post(std::move(coarse));
                    }
                    const RefineStats refined = refineCoarseFaces(lighting, occluder, threads, token.get());
                    lighting.stats.rays += refined.rays;
                    lighting.stats.sampleTests += refined.sampleTests;
                    out.fullPassMilliseconds = stride > 1 ? refined.ms : firstPassMs;
                    out.direct = std::make_shared<const LevelLighting>(std::move(lighting));
                }
                base = {};
                out.lighting = out.direct;
                if (bounces > 0) {
                    // The full direct light first, when the bounce is worth waiting for (as
                    // the coarse picture) and the direct light is not shown already.
                    if (!out.directKept && (bounceMs < 0 || bounceMs >= std::max(kCoarsePictureWorthMs, batchMs))) {
                        LightingResult direct = out;
                        direct.bounceComing = true;
                        direct.milliseconds = double(timer.nsecsElapsed()) / 1e6;
                        post(std::move(direct));
                    }
                    // The PVS narrows the receivers when it is of the shadows' pose (it is of
                    // this world: PvsService::of).
                    std::optional<BouncePvs> narrowing;
                    if (sight && sight->pose() == pose) narrowing.emplace(BouncePvs::of(world->result->onion, *sight));
                    LevelLighting bounced = *out.direct;
                    const BounceStats b = addBounce(bounced, occluder, bounces, threads, narrowing ? &*narrowing : nullptr, token.get());
                    out.bounces = bounces;
                    out.bounceMilliseconds = b.ms;
                    out.bouncePvs = narrowing.has_value();
                    out.lighting = std::make_shared<const LevelLighting>(std::move(bounced));
                }
            }
        } catch (const CompileCancelled&) {
            world.reset();
            return; // a newer lighting started: nothing of this one is shown
        }
        out.milliseconds = double(timer.nsecsElapsed()) / 1e6;
        world.reset(); // out.world holds it
        post(std::move(out));
    });
}

void LightService::redraw() {
    const std::shared_ptr<const LevelLighting> lighting = latest_.lighting;
    if (!lighting || shading_ == render::LightShading::Flat) return;
    QPointer<LightService> self(this);
    runInBackground([self, lighting, shading = shading_]() {
        render::MeshBatch batch = render::buildLitFaceBatch(*lighting, shading);
        postToUiThread([self, lighting, batch = std::move(batch), shading]() mutable {
            if (!self || self->latest_.lighting != lighting || self->shading_ != shading) return;
            self->scene_.set(render::Layer::LitFaces, std::move(batch));
            self->drawnShading_ = shading;
            self->showShading();
            emit self->lit();
        });
    });
}

void LightService::passDone(LightingResult result, render::MeshBatch batch, render::LightShading shading) {
    if (result.generation != generation_) { // superseded by a newer lighting: never shown
        releaseInBackground(std::move(result.world));
        return;
    }
    const bool full = !result.coarse && !result.bounceComing;
    if (full) {
        running_ = false;
        releaseInBackground(std::move(runningWorld_));
        if (result.bounces > 0) lastBounceMs_ = result.bounceMilliseconds;
    }
    // The full direct light (with its bounce coming or not): what the next lighting starts from.
    if (result.direct) {
        if (!result.directKept) coarseFirst_ = result.fullPassMilliseconds >= kCoarsePictureWorthMs;
        releaseInBackground(std::exchange(base_, result).world);
    }
    if (result.batchMilliseconds > 0) lastBatchMs_ = result.batchMilliseconds;
    releaseInBackground(std::exchange(latest_, std::move(result)).world);
    if (latest_.lighting && shading != render::LightShading::Flat && shading == shading_) {
        scene_.set(render::Layer::LitFaces, std::move(batch));
        drawnShading_ = shading;
    }
    showShading();
    emit lit();
    if (!full || !active()) return;
    // Something newer (a compile, an entity edit, another shading) came meanwhile.
    if (!currentOrComing()) start();
    else if (shading_ != render::LightShading::Flat && drawnShading_ != shading_) redraw();
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
    const QString seconds = QString::number(latest_.milliseconds / 1000.0, 'f', 2);
    QString what = !latest_.relit            ? QString("Lit in %1 s").arg(seconds)
                   : latest_.relitFaces > 0 ? QString("Relit %1 faces near the changed lights in %2 s").arg(latest_.relitFaces).arg(seconds)
                                            : QString("Relit near the edit in %1 s").arg(seconds);
    if (latest_.directKept) what = QString("Direct light as before");
    if (latest_.coarse)
        what = QString("Coarse light (every %1th luxel) in %2 s, full light coming").arg(kCoarseLuxelStride).arg(seconds);
    else if (latest_.coarseMilliseconds > 0)
        what += QString(" (coarse after %1 s)").arg(latest_.coarseMilliseconds / 1000.0, 0, 'f', 2);
    if (latest_.bounceComing) what += QString(", bouncing %1 times").arg(bounces());
    else if (latest_.bounces > 0)
        what += QString(", bounced %1 times in %2 s%3")
                    .arg(latest_.bounces)
                    .arg(latest_.bounceMilliseconds / 1000.0, 0, 'f', 2)
                    .arg(latest_.bouncePvs ? QString(" (receivers through the PVS)") : QString());
    // Black is the truth: the game draws an unlit level black (engines draw a .bsp without
    // lightmaps fullbright, but light writes them when the level has no lights).
    const QString black = litByNothing(*latest_.lighting)
                              ? QString(" No lights: the level is black in the game (add a light, or a minlight: worldspawn's \"light\").")
                              : QString();
    return QString("%1: %2 faces, %3 luxels, %4 lights, %5 rays%6.%7")
        .arg(what)
        .arg(s.lightmappedFaces)
        .arg(s.luxels)
        .arg(s.lights)
        .arg(s.rays)
        .arg(latest_.lighting->warnings.empty() ? QString() : QString(" (%1 warnings)").arg(latest_.lighting->warnings.size()))
        .arg(black);
}

} // namespace shallot

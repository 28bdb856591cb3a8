#include "services/nav_service.h"

#include "check/mover_checks.h"
#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "editor.h"
#include "services/background_jobs.h"
#include "services/background_release.h"
#include "services/mover_states.h"

#include <QPointer>
#include <QStringList>
#include <algorithm>
#include <thread>

namespace shallot {

QString pathMissReason(NavPathMiss miss, const QString& pose) {
    switch (miss) {
    case NavPathMiss::StartInSolid:
        return QString("the start is in solid for the %1's box (too near a wall, or under a low ceiling)").arg(pose);
    case NavPathMiss::GoalInSolid:
        return QString("the goal is in solid for the %1's box (too near a wall, or under a low ceiling)").arg(pose);
    case NavPathMiss::StartOffGround:
        return QString("the start is over no floor where the %1 can stand (the void, or ground too steep)").arg(pose);
    case NavPathMiss::GoalOffGround:
        return QString("the goal is over no floor where the %1 can stand (the void, or ground too steep)").arg(pose);
    case NavPathMiss::NotReached:
        return QString("the goal's floor is not reached from the start's (different walkable areas: no walk, step, "
                       "drop or jump of the %1 leads there)").arg(pose);
    case NavPathMiss::None: break;
    }
    return {};
}

QString pathMissShort(NavPathMiss miss) {
    switch (miss) {
    case NavPathMiss::StartInSolid: return "start in solid";
    case NavPathMiss::GoalInSolid: return "goal in solid";
    case NavPathMiss::StartOffGround: return "no floor at the start";
    case NavPathMiss::GoalOffGround: return "no floor at the goal";
    case NavPathMiss::NotReached: return "another walkable area";
    case NavPathMiss::None: break;
    }
    return {};
}

QString pathLengthAndTime(const TravelPath& path) {
    return QString("%1 units, %2 s").arg(path.length, 0, 'f', 0).arg(path.seconds, 0, 'f', 1);
}

QString pathSummary(const std::optional<TravelPath>& path, const std::string& pose, const QString& why) {
    const QString name = QString::fromStdString(pose);
    if (!path) return QString("Walkable surfaces for %1 are being built").arg(name);
    if (!path->found) {
        const QString reason = why.isEmpty() ? pathMissReason(path->miss, name) : why;
        return reason.isEmpty() ? QString("No walking path for %1").arg(name) : QString("No walking path for %1: %2").arg(name, reason);
    }
    QString out = QString("Path for %1: %2, %3 corners").arg(name, pathLengthAndTime(*path)).arg(path->points.size());
    QStringList through;
    for (const TravelStep& step : path->travel)
        if (step.entity >= 0) through << QString("%1 %2").arg(travelKindName(step.kind)).arg(step.entity);
    if (!through.isEmpty()) out += ", through " + through.join(", ");
    return out;
}

NavService::NavService(Editor& editor, std::shared_ptr<NavMeshCache> cache)
    : QObject(&editor), editor_(editor), cache_(std::move(cache)) {
    connect(&editor_.document(), &EditorDocument::raysChanged, this, [this] {
        findRayPaths();
        emit built();
    });
    // A door, trigger, button or key moved changes the travel, not the meshes (the cache
    // hands them back at once): the meshes shown are out of date (upToDate) until rebuilt.
    auto entitiesEdited = [this] { ++entityRevision_; };
    connect(&editor_.document(), &EditorDocument::entitiesChanged, this, entitiesEdited);
    connect(&editor_.document(), &EditorDocument::documentReset, this, entitiesEdited);
}

void NavService::request(std::shared_ptr<const CompiledWorld> world) {
    if (!world) return;
    releaseInBackground(std::exchange(waiting_, std::move(world)));
    if (!running_) start();
}

std::vector<int> NavService::wantedPoses(size_t poseCount) const {
    std::vector<int> out;
    const int current = editor_.currentPose();
    for (int pose = 0; pose < int(poseCount); ++pose)
        if (pose == current || !editor_.document().rays().empty()) out.push_back(pose);
    return out;
}

namespace {

// Whether travel through `travelWorld` (a world without the movers) is the travel of
// `world`: compiled from the same edit (a drag's previews keep the last one's), for as many
// poses.
bool travelFits(const CompiledWorld& world, const std::shared_ptr<const CompiledWorld>& travelWorld) {
    return travelWorld && (isPreviewRevision(world.revision) || travelWorld->revision == world.revision) &&
           travelWorld->result->onion.poses.size() == world.result->onion.poses.size();
}

} // namespace

bool NavService::meshesUpToDate(const std::shared_ptr<const CompiledWorld>& world) const {
    if (!meshes_ || meshes_->world != world) return false;
    for (const int pose : wantedPoses(meshes_->poses.size()))
        if (!meshes_->mesh(pose)) return false;
    return true;
}

bool NavService::isNewestTravel(const std::shared_ptr<const CompiledWorld>& travelWorld, uint64_t entityRevision) const {
    return travelWorld == editor_.moverStates().staticWorld() && entityRevision == entityRevision_;
}

bool NavService::travelUpToDate() const {
    if (!isNewestTravel(meshes_->travelWorld, meshes_->entityRevision)) return false;
    if (!travelFits(*meshes_->world, meshes_->travelWorld)) return true; // none to build yet
    for (const int pose : wantedPoses(meshes_->poses.size()))
        if (!meshes_->travelOf(pose)) return false;
    return true;
}

bool NavService::upToDate(const std::shared_ptr<const CompiledWorld>& world) const {
    return meshesUpToDate(world) && travelUpToDate();
}

void NavService::start() {
    if (!waiting_) return;
    // Asked for while the build just finished was running, and given by it; or only the
    // travel is missing (requestTravel builds it unless it is being built).
    if (meshesUpToDate(waiting_)) {
        releaseInBackground(std::exchange(waiting_, nullptr));
        requestTravel();
        return;
    }
    running_ = true;
    QPointer<NavService> self(this);
    std::vector<int> poses = wantedPoses(waiting_->result->onion.poses.size());
    // The travel shown stays until the new one is built (requestTravel, after the meshes):
    // the door and lift links do not vanish from the view for that while. Not for other
    // poses or walking rules (a pose added would index it past its end).
    std::shared_ptr<const NavMeshes> shown =
        meshes_ && meshes_->travelWorld &&
                samePosesAndWalking(meshes_->travelWorld->result->onion.poses, waiting_->result->onion.poses)
            ? meshes_
            : nullptr;
    runInBackground([self, cache = cache_, world = std::exchange(waiting_, nullptr), poses = std::move(poses),
                     shown = std::move(shown), revision = entityRevision_, drawnPose = drawnPose_]() mutable {
        auto meshes = std::make_shared<NavMeshes>();
        Stopwatch watch;
        // The poses' meshes are independent reads of one tree: one thread each, as many as
        // the machine has. The walking spawn check asks the cache for some of them too.
        meshes->poses.resize(world->result->onion.poses.size());
        parallelFor(poses.size(), int(std::thread::hardware_concurrency()),
                    [&](size_t k) { meshes->poses[size_t(poses[k])] = cache->get(world, poses[k]); });
        meshes->travel.resize(meshes->poses.size());
        meshes->entityRevision = revision;
        if (shown) {
            meshes->travelWorld = shown->travelWorld;
            meshes->travel = shown->travel;
            meshes->entityRevision = shown->entityRevision;
        }
        meshes->milliseconds = watch.lapMs();
        std::optional<WalkableMeshDrawing> drawing;
        if (meshes->mesh(drawnPose))
            drawing = drawWalkableMesh({meshes->poses[size_t(drawnPose)], drawnPose, world->result->onion.poses[size_t(drawnPose)].mins.z()});
        meshes->world = std::move(world);
        postToUiThread([self, meshes = std::shared_ptr<const NavMeshes>(std::move(meshes)), drawing = std::move(drawing)]() mutable {
            if (!self) {
                releaseInBackground(std::move(meshes));
                return;
            }
            self->running_ = false;
            self->meshDrawing_ = std::move(drawing);
            self->show(std::move(meshes));
            self->requestTravel();
            self->start();
        });
    }, BackgroundStage::Following);
}

void NavService::show(std::shared_ptr<const NavMeshes> meshes) {
    releaseInBackground(std::exchange(meshes_, std::move(meshes)));
    findRayPaths();
    emit built();
}

void NavService::requestTravel() {
    if (!meshes_ || travelRunning_ || travelUpToDate()) return;
    const MoverStates& movers = editor_.moverStates();
    std::shared_ptr<const CompiledWorld> travelWorld = movers.staticWorld();
    if (!travelFits(*meshes_->world, travelWorld)) return; // its world without the movers is still to come
    travelRunning_ = true;
    const DocumentData& data = editor_.document().data();
    // With the movers left out the world is its own world without them: its meshes serve both.
    std::shared_ptr<NavMeshCache> travelCache = travelWorld == meshes_->world ? cache_ : movers.staticNavMeshes();
    // The graphs of the same world without the movers and the same entities are kept (a new
    // pose, ray or tool on the same level).
    std::shared_ptr<const NavMeshes> previous = isNewestTravel(meshes_->travelWorld, meshes_->entityRevision) ? meshes_ : nullptr;
    QPointer<NavService> self(this);
    runInBackground([self, travelWorld = std::move(travelWorld), travelCache = std::move(travelCache), entities = data.entities,
                     game = data.game, revision = entityRevision_, previous = std::move(previous),
                     poses = wantedPoses(meshes_->poses.size()), drawnPose = drawnPose_]() mutable {
        const BspTree& still = travelWorld->result->onion;
        auto travel = std::make_shared<std::vector<std::shared_ptr<const TravelGraph>>>(still.poses.size());
        // The entities and liquids travel needs (5-15 ms on librequake_e3m4), read only when a
        // travel graph is to be built.
        TravelLevel level;
        if (std::any_of(poses.begin(), poses.end(), [&](int pose) { return !previous || !previous->travelOf(pose); })) {
            level = travelLevelOf(mapOfDocumentEntities(entities, game));
            addLiquidsAndLadders(level, travelWorld->world);
        }
        parallelFor(poses.size(), int(std::thread::hardware_concurrency()), [&](size_t k) {
            const size_t pose = size_t(poses[k]);
            if (previous && previous->travelOf(poses[k])) {
                (*travel)[pose] = previous->travel[pose];
                return;
            }
            const std::shared_ptr<const NavMesh> walked = travelCache->get(travelWorld, poses[k], MeshAsker::Later);
            (*travel)[pose] = std::make_shared<const TravelGraph>(buildTravelGraph(still, *walked, still.poses[pose], level));
        });
        std::optional<WalkableTravelDrawing> drawing;
        if (drawnPose >= 0 && size_t(drawnPose) < travel->size() && (*travel)[size_t(drawnPose)] &&
            (!previous || previous->travelOf(drawnPose) != (*travel)[size_t(drawnPose)].get()))
            drawing = drawWalkableTravel({(*travel)[size_t(drawnPose)], drawnPose}, still.poses[size_t(drawnPose)]);
        postToUiThread([self, travelWorld = std::move(travelWorld), travel = std::move(travel), revision,
                        drawing = std::move(drawing)]() mutable {
            if (!self) return;
            self->travelRunning_ = false;
            if (drawing) self->travelDrawing_ = std::move(drawing);
            self->showTravel(std::move(travelWorld), std::move(*travel), revision);
            self->requestTravel(); // a newer one wanted meanwhile
        });
    }, BackgroundStage::Later);
}

void NavService::showTravel(std::shared_ptr<const CompiledWorld> travelWorld, std::vector<std::shared_ptr<const TravelGraph>> travel,
                            uint64_t entityRevision) {
    // Built for meshes, entities or a world without the movers a newer edit replaced: dropped
    // (the newest is asked for next).
    if (!meshes_ || !isNewestTravel(travelWorld, entityRevision) || !travelFits(*meshes_->world, travelWorld)) {
        releaseInBackground(std::move(travelWorld));
        return;
    }
    auto meshes = std::make_shared<NavMeshes>(*meshes_);
    meshes->travelWorld = std::move(travelWorld);
    meshes->travel = std::move(travel);
    meshes->entityRevision = entityRevision;
    show(std::move(meshes));
}

std::optional<WalkableMeshDrawing> NavService::takeMeshDrawing(const WalkableMeshKey& key) {
    if (!meshDrawing_ || meshDrawing_->key != key) return std::nullopt;
    return std::exchange(meshDrawing_, std::nullopt);
}

std::optional<WalkableTravelDrawing> NavService::takeTravelDrawing(const WalkableTravelKey& key) {
    if (!travelDrawing_ || travelDrawing_->key != key) return std::nullopt;
    return std::exchange(travelDrawing_, std::nullopt);
}

void NavService::findRayPaths() {
    rayPaths_.clear();
    // Every pose's paths or none (not yet: the meshes of the other poses are being built).
    if (!meshes_ || !meshes_->travelWorld ||
        std::any_of(meshes_->travel.begin(), meshes_->travel.end(), [](const auto& t) { return !t; }))
        return;
    const BspTree& tree = meshes_->travelWorld->result->onion;
    for (const TestRay& ray : editor_.document().rays()) {
        std::vector<TravelPath>& paths = rayPaths_.emplace_back();
        for (const auto& graph : meshes_->travel) paths.push_back(findTravelPath(tree, *graph, ray.from, ray.to));
    }
}

} // namespace shallot

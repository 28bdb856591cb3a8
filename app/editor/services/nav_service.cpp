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

bool NavService::upToDate(const std::shared_ptr<const CompiledWorld>& world) const {
    if (!meshes_ || meshes_->world != world || meshes_->entityRevision != entityRevision_ ||
        meshes_->travelWorld != editor_.moverStates().staticWorld())
        return false;
    for (const int pose : wantedPoses(meshes_->poses.size()))
        if (!meshes_->mesh(pose)) return false;
    return true;
}

void NavService::start() {
    if (!waiting_) return;
    // Asked for while the build just finished was running, and given by it.
    if (upToDate(waiting_)) {
        releaseInBackground(std::exchange(waiting_, nullptr));
        return;
    }
    running_ = true;
    QPointer<NavService> self(this);
    std::vector<int> poses = wantedPoses(waiting_->result->onion.poses.size());
    const DocumentData& data = editor_.document().data();
    const MoverStates& movers = editor_.moverStates();
    // With the movers left out the world is its own static world: its meshes serve both.
    std::shared_ptr<const CompiledWorld> travelWorld = movers.staticWorld();
    std::shared_ptr<NavMeshCache> travelCache = travelWorld == waiting_ ? cache_ : movers.staticNavMeshes();
    // The travel shown, when it went through the same world without the movers and the same
    // entities (a drag's previews, a new pose, ray or tool on the same level): its graphs
    // are kept.
    std::shared_ptr<const NavMeshes> previous =
        meshes_ && meshes_->travelWorld == travelWorld && meshes_->entityRevision == entityRevision_ ? meshes_ : nullptr;
    runInBackground([self, cache = cache_, world = std::exchange(waiting_, nullptr), poses = std::move(poses),
                     travelWorld = std::move(travelWorld), travelCache = std::move(travelCache), entities = data.entities,
                     game = data.game, revision = entityRevision_, previous = std::move(previous)]() mutable {
        auto meshes = std::make_shared<NavMeshes>();
        Stopwatch watch;
        const BspTree& tree = world->result->onion;
        // The poses' meshes are independent reads of one tree: one thread each, as many as
        // the machine has. The walking spawn check asks the cache for some of them too.
        meshes->poses.resize(tree.poses.size());
        meshes->travel.resize(tree.poses.size());
        // Not through a world without the movers older than this world's edit (it follows at
        // the lowest priority): the travel waits for its own (a drag's previews keep the last).
        const bool current = travelWorld && (isPreviewRevision(world->revision) || travelWorld->revision == world->revision);
        const bool travels = current && travelWorld->result->onion.poses.size() == tree.poses.size();
        // The entities and liquids travel needs (5-15 ms on librequake_e3m4), read only when a
        // travel graph is to be built.
        TravelLevel level;
        if (travels && std::any_of(poses.begin(), poses.end(), [&](int pose) { return !previous || !previous->travelOf(pose); })) {
            level = travelLevelOf(mapOfDocumentEntities(entities, game));
            addLiquidsAndLadders(level, travelWorld->world);
        }
        // Before this world's own world without the movers is compiled, the travel shown
        // (through the one before) stays until it is: the links do not vanish from the view
        // for the tenth of a second in between, nor is the same mesh asked for again.
        const bool keepsOlderTravel = !travels && previous && previous->travelWorld &&
                                      samePosesAndWalking(previous->travelWorld->result->onion.poses, tree.poses);
        parallelFor(poses.size(), int(std::thread::hardware_concurrency()), [&](size_t k) {
            const size_t pose = size_t(poses[k]);
            meshes->poses[pose] = cache->get(world, poses[k]);
            if (keepsOlderTravel && pose < previous->travel.size()) meshes->travel[pose] = previous->travel[pose];
            if (!travels) return;
            if (previous && previous->travelOf(poses[k])) {
                meshes->travel[pose] = previous->travel[pose];
                return;
            }
            const BspTree& still = travelWorld->result->onion;
            const std::shared_ptr<const NavMesh> walked = travelWorld == world ? meshes->poses[pose] : travelCache->get(travelWorld, poses[k]);
            meshes->travel[pose] = std::make_shared<const TravelGraph>(buildTravelGraph(still, *walked, still.poses[pose], level));
        });
        if (travels) meshes->travelWorld = std::move(travelWorld);
        else if (keepsOlderTravel) meshes->travelWorld = previous->travelWorld;
        meshes->entityRevision = revision;
        meshes->milliseconds = watch.lapMs();
        meshes->world = std::move(world);
        postToUiThread([self, meshes = std::shared_ptr<const NavMeshes>(std::move(meshes))]() mutable {
            if (!self) {
                releaseInBackground(std::move(meshes));
                return;
            }
            self->running_ = false;
            releaseInBackground(std::exchange(self->meshes_, std::move(meshes)));
            self->findRayPaths();
            emit self->built();
            self->start();
        });
    });
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

#include "services/nav_service.h"

#include "compile/stopwatch.h"
#include "editor.h"
#include "services/background_jobs.h"
#include "services/background_release.h"

#include <QPointer>

namespace shallot {

QString pathSummary(const std::optional<NavPath>& path, const std::string& pose) {
    const QString name = QString::fromStdString(pose);
    if (!path) return QString("Walkable surfaces for %1 are being built").arg(name);
    if (!path->found) return QString("No walking path for %1").arg(name);
    return QString("Path for %1: %2 units, %3 corners").arg(name).arg(path->length, 0, 'f', 0).arg(path->points.size());
}

NavService::NavService(Editor& editor) : QObject(&editor), editor_(editor) {
    connect(&editor_.document(), &EditorDocument::raysChanged, this, [this] {
        findRayPaths();
        emit built();
    });
}

void NavService::request(std::shared_ptr<const CompiledWorld> world) {
    if (!world) return;
    releaseInBackground(std::exchange(waiting_, std::move(world)));
    if (!running_) start();
}

void NavService::start() {
    if (!waiting_) return;
    running_ = true;
    QPointer<NavService> self(this);
    runInBackground([self, world = std::exchange(waiting_, nullptr)]() mutable {
        auto meshes = std::make_shared<NavMeshes>();
        Stopwatch watch;
        const BspTree& tree = world->result->onion;
        // Each pose walks by its own settings, as the compiled world's poses say (a change of
        // settings alone compiles again: same tree, new world).
        const std::vector<Pose>& poses = world->world.poses;
        for (int pose = 0; pose < int(tree.poses.size()); ++pose)
            meshes->poses.push_back(buildNavMesh(tree, pose, size_t(pose) < poses.size() ? poses[size_t(pose)].nav : NavSettings{}));
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
    if (!meshes_) return;
    const BspTree& tree = meshes_->world->result->onion;
    for (const TestRay& ray : editor_.document().rays()) {
        std::vector<NavPath>& paths = rayPaths_.emplace_back();
        for (const NavMesh& mesh : meshes_->poses) paths.push_back(findPath(tree, mesh, ray.from, ray.to));
    }
}

} // namespace shallot

#include "services/spawn_check_service.h"

#include "services/background_jobs.h"

#include <QElapsedTimer>

namespace shallot {

SpawnCheckService::SpawnCheckService(QObject* parent) : QObject(parent) {}

SpawnCheckService::~SpawnCheckService() { *alive_ = false; }

void SpawnCheckService::request(SpawnCheckRun run) {
    if (running_) {
        pending_ = std::move(run);
        return;
    }
    start(std::move(run));
}

void SpawnCheckService::start(SpawnCheckRun run) {
    running_ = true;
    auto shared = std::make_shared<SpawnCheckRun>(std::move(run));
    std::shared_ptr<bool> alive = alive_;
    runInBackground([this, shared, alive] {
        QElapsedTimer timer;
        timer.start();
        SpawnCheckInput input;
        input.world = &shared->compiled->world;
        input.onion = shared->compiled->result->error.empty() ? &shared->compiled->result->onion : nullptr;
        input.classes = shared->classes.get();
        input.entities = spawnEntities(shared->entities, 1);
        if (shared->navMeshes && input.onion)
            input.navMeshes = [cache = shared->navMeshes, world = shared->compiled](int pose) { return cache->get(world, pose); };
        auto problems = std::make_shared<std::vector<SpawnProblem>>(checkSpawns(input));
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        postToUiThread([this, shared, alive, problems, ms] {
            if (!*alive) return;
            running_ = false;
            problems_ = std::move(*problems);
            checkedEntityRevision_ = shared->entityRevision;
            checkedWorldRevision_ = shared->compiled->revision;
            milliseconds_ = ms;
            emit checked();
            if (pending_) {
                SpawnCheckRun next = std::move(*pending_);
                pending_.reset();
                start(std::move(next));
            }
        });
    });
}

} // namespace shallot

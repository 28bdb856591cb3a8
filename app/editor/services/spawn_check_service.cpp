#include "services/spawn_check_service.h"

#include "services/background_jobs.h"

#include <QElapsedTimer>

namespace shallot {

SpawnCheckService::SpawnCheckService(QObject* parent) : QObject(parent) {}

SpawnCheckService::~SpawnCheckService() { *alive_ = false; }

void SpawnCheckService::request(SpawnCheckRun run) {
    if (running_) {
        pending_ = std::move(run);
        *superseded_ = true; // the running one skips its walking pass
        return;
    }
    start(std::move(run));
}

void SpawnCheckService::start(SpawnCheckRun run) {
    running_ = true;
    superseded_ = std::make_shared<std::atomic<bool>>(false);
    auto shared = std::make_shared<SpawnCheckRun>(std::move(run));
    runInBackground([this, shared, alive = alive_, superseded = superseded_] {
        QElapsedTimer timer;
        timer.start();
        SpawnCheckInput input;
        input.world = &shared->compiled->world;
        input.onion = shared->compiled->result->error.empty() ? &shared->compiled->result->onion : nullptr;
        input.classes = shared->classes.get();
        input.entities = spawnEntities(shared->entities, 1);
        // Two passes: the checks without walking are shown at once (milliseconds), then
        // with the walking check, which waits for the navigation meshes (shared with the
        // Walkable overlay), unless a newer request came meanwhile.
        input.walking = false;
        auto problems = std::make_shared<std::vector<SpawnProblem>>(checkSpawns(input));
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        postToUiThread([this, shared, alive, problems, ms] {
            if (!*alive) return;
            problems_ = std::move(*problems);
            checkedEntityRevision_ = shared->entityRevision;
            checkedWorldRevision_ = shared->compiled->revision;
            milliseconds_ = ms;
            emit checked();
        });
        std::shared_ptr<std::vector<SpawnProblem>> walked;
        timer.restart();
        if (input.onion && !*superseded) {
            input.walking = true;
            if (shared->navMeshes)
                input.navMeshes = [cache = shared->navMeshes, world = shared->compiled](int pose) { return cache->get(world, pose); };
            walked = std::make_shared<std::vector<SpawnProblem>>(checkSpawns(input));
        }
        const double walkMs = double(timer.nsecsElapsed()) / 1e6;
        postToUiThread([this, alive, walked, walkMs] {
            if (!*alive) return;
            running_ = false;
            if (walked) {
                problems_ = std::move(*walked);
                walkingMilliseconds_ = walkMs;
                emit checked();
            }
            if (pending_) {
                SpawnCheckRun next = std::move(*pending_);
                pending_.reset();
                start(std::move(next));
            }
        });
    });
}

} // namespace shallot

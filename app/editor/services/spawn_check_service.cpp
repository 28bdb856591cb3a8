#include "services/spawn_check_service.h"

#include "services/background_jobs.h"

#include "check/mover_checks.h"
#include "check/teleport_arrivals.h"
#include "movers/build_movers.h"
#include "movers/travel.h"

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
    // The Problems dock's: after what the views show (background_jobs.h).
    runInBackground([this, shared, alive = alive_, superseded = superseded_] {
        QElapsedTimer timer;
        timer.start();
        SpawnCheckInput input;
        input.world = &shared->compiled->world;
        input.onion = shared->compiled->result->error.empty() ? &shared->compiled->result->onion : nullptr;
        input.classes = shared->classes.get();
        input.entities = spawnEntities(shared->entities, 1);
        // The movers' problems take milliseconds: found once, shown with both passes.
        const MapFile entityMap = mapOfDocumentEntities(shared->entities, shared->game);
        const LevelMovers movers = buildMovers(entityMap);
        const EntityGraph graph = buildEntityGraph(entityMap);
        std::vector<SpawnProblem> moverProblems = checkMovers({&entityMap, &movers, &graph, shared->classes.get()});
        if (input.onion) // where teleporters set the player down
            mergeProblems(moverProblems, checkTeleportArrivals(*input.onion, entityMap, graph, shared->classes.get()));
        // The player's walk opens doors, rides lifts and trains and takes teleporters, as
        // `shallot-cli check` does by default (a monster behind a door is met).
        TravelLevel travel = travelLevelOf(entityMap);
        addLiquidsAndLadders(travel, shared->compiled->world); // the player's swims and climbs
        input.travel = &travel;
        // The problems are shown twice: at once without the walking check, then with it
        // once the navigation meshes are built (shared with the Walkable overlay), unless
        // a newer request came meanwhile.
        if (shared->navMeshes && input.onion)
            input.navMeshes = [cache = shared->navMeshes, world = shared->compiled](int pose) {
                return cache->get(world, pose, MeshAsker::Later);
            };
        bool shownFirst = false, walked = false;
        input.beforeWalking = [&](const std::vector<SpawnProblem>& found) {
            const double ms = double(timer.nsecsElapsed()) / 1e6;
            std::vector<SpawnProblem> first = found;
            mergeProblems(first, moverProblems);
            postToUiThread([this, shared, alive, first = std::move(first), ms]() mutable {
                if (!*alive) return;
                milliseconds_ = ms;
                show(std::move(first), *shared);
            });
            shownFirst = true;
            walked = !*superseded;
            timer.restart();
            return walked;
        };
        auto problems = std::make_shared<std::vector<SpawnProblem>>(checkSpawns(input));
        mergeProblems(*problems, moverProblems);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        postToUiThread([this, shared, alive, problems, ms, shownFirst, walked] {
            if (!*alive) return;
            running_ = false;
            // Without a first pass these are the checks' time; after one, the walking check's
            // (when it was not skipped: then the first pass showed them all).
            if (!shownFirst) {
                milliseconds_ = ms;
                walkingMilliseconds_ = 0;
                show(std::move(*problems), *shared);
            } else if (walked) {
                walkingMilliseconds_ = ms;
                show(std::move(*problems), *shared);
            }
            if (pending_) {
                SpawnCheckRun next = std::move(*pending_);
                pending_.reset();
                start(std::move(next));
            }
        });
    }, BackgroundStage::Later);
}

void SpawnCheckService::show(std::vector<SpawnProblem> problems, const SpawnCheckRun& run) {
    problems_ = std::move(problems);
    checkedEntityRevision_ = run.entityRevision;
    checkedWorldRevision_ = run.compiled->revision;
    emit checked();
}

} // namespace shallot

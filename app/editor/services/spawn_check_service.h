#pragma once
// Runs the spawn checks (check/spawn_checks.h) and the movers' (check/mover_checks.h,
// shown with both passes) off the UI thread after every compile and
// every entity edit, one run at a time: a request made while a run is busy waits, and only
// the newest waiting request is run next. A run with a walking check to do shows its
// problems twice: first without it (milliseconds), then with it, once the navigation
// meshes are built (walkingMilliseconds; SpawnCheckInput::beforeWalking).
#include "services/compile_service.h"
#include "services/nav_mesh_cache.h"
#include "check/spawn_checks.h"
#include "io/map_file.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace shallot {

struct SpawnCheckRun {
    std::shared_ptr<const CompiledWorld> compiled; // the tree and the world it came from
    std::vector<MapEntity> entities;               // EditorDocument::entities()
    std::shared_ptr<const EntityClassTable> classes;
    uint64_t entityRevision = 0;
    std::shared_ptr<NavMeshCache> navMeshes; // the walking check's meshes (null: built)
    Game game = Game::Quake;                 // the movers' rules (check/mover_checks.h)
};

class SpawnCheckService : public QObject {
    Q_OBJECT
public:
    explicit SpawnCheckService(QObject* parent = nullptr);
    ~SpawnCheckService() override;

    void request(SpawnCheckRun run);
    // The newest results; SpawnProblem::entity numbers entities as the file does (entity i
    // of EditorDocument::entities() is i + 1).
    const std::vector<SpawnProblem>& problems() const { return problems_; }
    uint64_t checkedEntityRevision() const { return checkedEntityRevision_; }
    uint64_t checkedWorldRevision() const { return checkedWorldRevision_; }
    // The newest run's checks before the walking check, and the walking check after them
    // (with building the navigation meshes it asked for; 0 when there was none).
    double milliseconds() const { return milliseconds_; }
    double walkingMilliseconds() const { return walkingMilliseconds_; }
    bool busy() const { return running_; }

signals:
    void checked();

private:
    void start(SpawnCheckRun run);
    // The problems of `run` are the newest (on the UI thread).
    void show(std::vector<SpawnProblem> problems, const SpawnCheckRun& run);

    bool running_ = false;
    std::optional<SpawnCheckRun> pending_;
    std::vector<SpawnProblem> problems_;
    uint64_t checkedEntityRevision_ = 0, checkedWorldRevision_ = 0;
    double milliseconds_ = 0, walkingMilliseconds_ = 0;
    // Set when a newer request waits: the running one skips its walking pass.
    std::shared_ptr<std::atomic<bool>> superseded_ = std::make_shared<std::atomic<bool>>(false);
    // Tells a run that finishes after this service is gone to drop its result.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace shallot

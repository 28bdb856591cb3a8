#pragma once
// Background compile: every change of the world schedules a compile of an immutable
// snapshot on a worker thread. A newer change cancels the running compile (cooperatively,
// through its CancelToken) and the newest snapshot is compiled next. Results of stale
// snapshots are dropped, never shown. The UI thread never waits on the compiler.
//
// A drag's previews (worlds a tool shows before its edit is pushed, with revisions marked
// by kPreviewRevisionBit) are the exception: a preview does not cancel a running preview,
// and a preview's result is shown while the newest request is still a preview. The
// overlays follow a drag at the compile's pace; cancelling would show nothing until the
// mouse stops whenever the steps come faster than a compile.
//
// A round pose (ellipsoid, capsule) is compiled as its bounding box only, at its index:
// the tree has one pose per document pose (compile_service.cpp says why). Its exact
// answers (test rays) come from a RoundPoseWorld built when first asked for.
#include "compile/compiler.h"
#include "compile/leaf_cell_list.h"
#include "geometry/convex_polyhedron.h"
#include "incremental/incremental_compiler.h"
#include "query/round_pose_world.h"
#include "services/background_jobs.h"

#include <QObject>
#include <QString>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace shallot {

// Set in the revisions of previews (Editor::previewBrushes); never in the document's.
inline constexpr uint64_t kPreviewRevisionBit = uint64_t(1) << 63;
inline bool isPreviewRevision(uint64_t revision) { return (revision & kPreviewRevisionBit) != 0; }

struct CompiledWorld {
    uint64_t revision = 0;   // the document world revision it was compiled from, or a preview's
    World world;             // the snapshot
    // Shared with the service's incremental compiler, which updates from it after the next
    // edit without changing it. Never null.
    std::shared_ptr<const CompileResult> result = std::make_shared<const CompileResult>();
    LeafCellList cells;                  // leafCells(result->onion), for the overlays
    double milliseconds = 0;             // wall time of the compile and the cells
    // Leaves carried over: `serial` numbers the service's compiles; when this one updated
    // the tree of compile keptFrom (0: none, a compile from scratch) or of compiles after
    // it that were dropped, leafOfKept maps that compile's onion leaves to this one's
    // (IncrementalCompiler::onionLeafOfPrevious), so the overlays keep what they drew.
    uint64_t serial = 0;
    uint64_t keptFrom = 0;
    std::vector<int32_t> leafOfKept;
    // Whether pose `pose` of `world` is round (an ellipsoid or a capsule, valid).
    bool isRound(int pose) const;
    // That round pose against the brushes, exactly (null for a box pose or no such pose):
    // built the first time something asks (by any thread; 25 ms on id_e1m1, so an edit
    // recompiles a round pose as fast as a box pose unless its test rays are out), then
    // kept with this compile.
    const RoundPoseWorld* exactRound(int pose) const;
    // A test segment for `pose`: exact for a round pose, through the tree for a box.
    TraceResult trace(int pose, const Vec3& from, const Vec3& to) const;
    // Collide-and-slide for `pose` (query/slide_move.h), exact for a round pose.
    MoveResult move(int pose, const Vec3& from, const Vec3& delta, double stepHeight) const;

    struct ExactRoundPoses {
        std::mutex mutex;
        std::vector<std::unique_ptr<const RoundPoseWorld>> worlds; // per pose, as built
    };
    std::shared_ptr<ExactRoundPoses> exactRoundPoses = std::make_shared<ExactRoundPoses>();
};

class CompileService : public QObject {
    Q_OBJECT
public:
    // `stage` Later: the compile runs at the lowest priority (background_jobs.h), for a
    // world no view shows.
    explicit CompileService(QObject* parent = nullptr, BackgroundStage stage = BackgroundStage::Shown);
    ~CompileService() override;

    // The world changed to `revision`; its snapshot follows through request() once the
    // change is complete. From now on older results are stale (never shown) and the running
    // compile is cancelled, even before the snapshot arrives.
    void expect(uint64_t revision);
    // Schedules a compile of `world` (a snapshot taken now) for document revision `revision`
    // (or a preview's, see above).
    void request(World world, uint64_t revision);
    // Shows a tree compiled earlier (a .shallot whose input hash matches) for `revision`
    // without compiling: only the leaf cells are computed, on the worker.
    void adopt(World world, uint64_t revision, BspTree tree);
    bool busy() const;
    bool awaitingSnapshot() const { return awaitingSnapshot_; }
    // The revision of the newest request or expect().
    uint64_t newestRevision() const { return newestRevision_; }
    const std::shared_ptr<const CompiledWorld>& latest() const { return latest_; }
    // Compiles started and results dropped as stale, for tests and the status bar.
    quint64 started() const { return started_; }
    quint64 discarded() const { return discarded_; }

signals:
    void compileStarted(quint64 revision);
    void compiled(std::shared_ptr<const CompiledWorld> result);
    void compileFailed(quint64 revision, const QString& message);

private:
    void startNext();                           // UI thread
    void finished(std::shared_ptr<CompiledWorld> result, QString error, bool cancelled); // UI thread

    BackgroundStage stage_;
    std::thread worker_;
    std::unique_ptr<CancelToken> token_;        // of the running compile
    bool running_ = false;
    uint64_t runningRevision_ = 0;              // of the running compile
    struct Job {
        World world;
        uint64_t revision = 0;
        std::optional<BspTree> tree; // adopt this instead of compiling
    };
    std::optional<Job> pending_;
    uint64_t newestRevision_ = 0;
    bool awaitingSnapshot_ = false;             // expect()ed, not yet request()ed
    std::shared_ptr<const CompiledWorld> latest_;
    // Keeps what the last compile built so that the next one rebuilds only what the edit
    // touched, with the leaf cells for the overlays. Used by the worker thread only, one
    // job at a time (each worker is joined before the next starts).
    IncrementalCompiler compiler_{true};
    uint64_t lastSerial_ = 0;     // of the last job started (UI thread)
    uint64_t compilerSerial_ = 0; // of the job compiler_ last compiled (worker thread)
    // The leaves carried over by results dropped since the last one shown, for the next.
    struct DroppedCarry {
        uint64_t serial = 0, keptFrom = 0;
        std::vector<int32_t> leafOfKept;
    };
    std::optional<DroppedCarry> dropped_;
    quint64 started_ = 0, discarded_ = 0;
};

} // namespace shallot

#include "services/compile_service.h"

#include "services/background_jobs.h"
#include "services/background_priority.h"
#include "services/background_release.h"

#include "portal/leaf_cells.h"
#include "query/slide_move.h"
#include "query/trace.h"
#include "world/round_pose_boxes.h"

#include <QPointer>
#include <algorithm>
#include <chrono>
#include <utility>

namespace shallot {

namespace {
// Worker threads a compile may use for its per-pose phases (the machine has 2 cores; the
// UI thread mostly sleeps while a compile runs, and the workers run at lower priority).
constexpr int kCompileThreads = 2;

// The editor compiles a round pose as its bounding box only, under its name and at its
// index: treePoses' inscribed boxes would be more tree poses than the document has, and
// the overlays, rays, nav and spawn checks take every tree pose for a document pose. The
// tree (and a .shallot's stored tree.obsp) then holds box poses only.
bool hasRoundPose(const World& world) {
    return std::any_of(world.poses.begin(), world.poses.end(), [](const Pose& p) { return p.shape.isRound(); });
}

World withBoundingBoxPoses(const World& world) {
    World boxes = world;
    for (Pose& pose : boxes.poses)
        if (pose.shape.isRound()) pose = boundingBoxPose(pose);
    return boxes;
}
} // namespace

bool CompiledWorld::isRound(int pose) const {
    return pose >= 0 && size_t(pose) < world.poses.size() && world.poses[size_t(pose)].shape.isRound() &&
           poseShapeProblem(world.poses[size_t(pose)].shape).empty();
}

const RoundPoseWorld* CompiledWorld::exactRound(int pose) const {
    if (!isRound(pose)) return nullptr;
    std::lock_guard lock(exactRoundPoses->mutex);
    auto& worlds = exactRoundPoses->worlds;
    if (worlds.size() < world.poses.size()) worlds.resize(world.poses.size());
    if (!worlds[size_t(pose)]) worlds[size_t(pose)] = std::make_unique<const RoundPoseWorld>(world, world.poses[size_t(pose)]);
    return worlds[size_t(pose)].get();
}

TraceResult CompiledWorld::trace(int pose, const Vec3& from, const Vec3& to) const {
    if (const RoundPoseWorld* r = exactRound(pose)) return r->trace(from, to);
    return traceSegment(result->onion, pose, from, to);
}

MoveResult CompiledWorld::move(int pose, const Vec3& from, const Vec3& delta, double stepHeight) const {
    if (const RoundPoseWorld* r = exactRound(pose)) return slideMove(*r, from, delta, stepHeight);
    return slideMove(result->onion, pose, from, delta, stepHeight);
}

CompileService::CompileService(QObject* parent, BackgroundStage stage) : QObject(parent), stage_(stage) {}

CompileService::~CompileService() {
    if (token_) token_->cancelled = true;
    if (worker_.joinable()) worker_.join();
}

bool CompileService::busy() const { return running_ || pending_.has_value() || awaitingSnapshot_; }

void CompileService::expect(uint64_t revision) {
    newestRevision_ = revision;
    awaitingSnapshot_ = true;
    if (running_) token_->cancelled = true;
}

void CompileService::request(World world, uint64_t revision) {
    newestRevision_ = revision;
    awaitingSnapshot_ = false;
    pending_ = Job{std::move(world), revision, std::nullopt};
    // The worker stops soon; finished() starts the newest. A preview lets a running preview
    // finish, to be shown.
    const bool previewAfterPreview = isPreviewRevision(revision) && isPreviewRevision(runningRevision_);
    if (running_ && !previewAfterPreview) token_->cancelled = true;
    else if (!running_) startNext();
}

void CompileService::adopt(World world, uint64_t revision, BspTree tree) {
    newestRevision_ = revision;
    awaitingSnapshot_ = false;
    pending_ = Job{std::move(world), revision, std::move(tree)};
    if (running_) token_->cancelled = true;
    else startNext();
}

void CompileService::startNext() {
    if (!pending_) return;
    if (worker_.joinable()) worker_.join(); // the previous worker has already posted its result
    auto job = std::make_shared<CompiledWorld>();
    job->world = std::move(pending_->world);
    job->revision = pending_->revision;
    runningRevision_ = job->revision;
    job->serial = ++lastSerial_;
    std::optional<BspTree> adopted = std::move(pending_->tree);
    pending_.reset();
    token_ = std::make_unique<CancelToken>();
    running_ = true;
    ++started_;
    emit compileStarted(job->revision);
    CancelToken* token = token_.get();
    QPointer<CompileService> self(this);
    worker_ = std::thread([self, this, job, token, adopted = std::move(adopted)]() mutable {
        // The compile of what the views show keeps the UI's priority: every later stage waits
        // for it, and at nice 10 the views' drawing (llvmpipe's threads) took its cores
        // during a drag (16 of 30 steps shown instead of 20; docs/performance.md).
        if (stage_ == BackgroundStage::Later) lowestThreadPriority();
        QString error;
        bool cancelled = false;
        const auto start = std::chrono::steady_clock::now();
        try {
            CompileOptions options;
            options.threads = kCompileThreads;
            options.cancel = token;
            if (adopted) {
                auto result = std::make_shared<CompileResult>();
                result->onion = std::move(*adopted);
                CompileStats& stats = result->stats;
                stats.nodes = result->onion.nodes.size();
                stats.leaves = result->onion.leafCount();
                stats.depth = result->onion.depth();
                stats.poses = result->onion.poses.size();
                job->result = std::move(result);
            } else {
                const uint64_t previous = std::exchange(compilerSerial_, job->serial);
                job->result = hasRoundPose(job->world) ? compiler_.compile(withBoundingBoxPoses(job->world), options)
                                                       : compiler_.compile(job->world, options);
                if (job->result->stats.incremental) {
                    job->keptFrom = previous;
                    job->leafOfKept = compiler_.onionLeafOfPrevious();
                }
            }
            error = QString::fromStdString(job->result->error);
            throwIfCancelled(token);
            if (error.isEmpty()) job->cells = adopted ? leafCells(job->result->onion) : compiler_.leafCells();
        } catch (const CompileCancelled&) {
            cancelled = true;
        } catch (const std::exception& e) {
            error = QString("compile failed: %1").arg(e.what());
        }
        job->milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        postToUiThread([self, job, error, cancelled]() mutable {
            if (self) self->finished(std::move(job), error, cancelled);
        });
    });
}

void CompileService::finished(std::shared_ptr<CompiledWorld> result, QString error, bool cancelled) {
    running_ = false;
    runningRevision_ = 0;
    // Updated from a dropped result: carries over the leaves of the one that one updated.
    if (dropped_ && result->keptFrom == dropped_->serial && dropped_->keptFrom != 0) {
        result->leafOfKept = composeLeafMaps(dropped_->leafOfKept, result->leafOfKept);
        result->keptFrom = dropped_->keptFrom;
    }
    dropped_.reset();
    // A drag's preview is shown while the drag goes on (the newest request is a preview too).
    const bool stale = result->revision != newestRevision_ &&
                       !(isPreviewRevision(result->revision) && isPreviewRevision(newestRevision_));
    if (cancelled || stale) {
        ++discarded_;
        if (result->keptFrom != 0) dropped_ = DroppedCarry{result->serial, result->keptFrom, std::move(result->leafOfKept)};
    } else if (!error.isEmpty()) {
        emit compileFailed(result->revision, error);
    } else {
        releaseInBackground(std::exchange(latest_, result));
        emit compiled(latest_);
    }
    releaseInBackground(std::move(result));
    startNext();
}

} // namespace shallot

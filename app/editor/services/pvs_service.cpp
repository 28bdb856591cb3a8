#include "services/pvs_service.h"

#include "services/background_jobs.h"
#include "services/background_release.h"

#include <QPointer>
#include <algorithm>
#include <thread>

namespace shallot {

PvsService::PvsService(QObject* parent) : QObject(parent) {
    fullTimer_.setSingleShot(true);
    fullTimer_.setInterval(kFullFlowDelayMs);
    connect(&fullTimer_, &QTimer::timeout, this, [this] {
        if (!running_ && on_) start(true);
    });
}

PvsService::~PvsService() {
    if (cancel_) cancel_->cancelled = true;
    releaseInBackground(std::move(wanted_));
    releaseInBackground(std::move(latest_.world));
    releaseInBackground(std::move(lastFull_));
}

std::shared_ptr<const SightPvs> PvsService::of(const CompiledWorld& world) const {
    return latest_.serial == world.serial && latest_.world.get() == &world ? latest_.pvs : nullptr;
}

void PvsService::request(std::shared_ptr<const CompiledWorld> world, std::vector<bool> detail) {
    if (!world || isPreviewRevision(world->revision) || !world->result->error.empty()) return;
    releaseInBackground(std::exchange(wanted_, std::move(world)));
    wantedDetail_ = std::move(detail);
    wantedFull_ = true;
    fullTimer_.stop();
    if (running_) cancel_->cancelled = true; // finished() starts the newest
    else if (on_) start(false);
}

void PvsService::setWanted(bool wanted) {
    if (on_ == wanted) return;
    on_ = wanted;
    emit updated();
    if (!wanted) {
        fullTimer_.stop();
        return;
    }
    if (running_ || !wanted_) return;
    if (latest_.serial != wanted_->serial) start(false); // the newest world's base flow
    else if (wantedFull_ && latest_.pvs && !tooLarge(*latest_.pvs)) start(true); // its full flow
}

void PvsService::start(bool fullFlow) {
    if (!wanted_) return;
    running_ = true;
    cancel_ = std::make_shared<CancelToken>();
    QPointer<PvsService> self(this);
    std::shared_ptr<const SightPvs> previous = lastFull_;
    runInBackground([self, world = wanted_, detail = wantedDetail_, cancel = cancel_, fullFlow,
                     previous = std::move(previous)]() mutable {
        SightPvsResult out;
        out.world = world;
        out.serial = world->serial;
        SightPvsSettings settings;
        settings.fullFlow = fullFlow;
        settings.cancel = cancel.get();
        settings.detail = std::move(detail);
        settings.previous = std::move(previous);
        // Every core: the threads inherit the pool thread's lowered priority (background_priority.h).
        settings.threads = int(std::max(1u, std::thread::hardware_concurrency()));
        bool cancelled = false;
        try {
            std::string error;
            out.pvs = SightPvs::compute(*world->result, world->world, settings, &error);
            out.error = QString::fromStdString(error);
        } catch (const CompileCancelled&) {
            cancelled = true;
        }
        world.reset(); // out.world holds it
        settings.previous.reset(); // here, off the UI thread, when it is the last holder
        postToUiThread([self, out = std::move(out), cancelled, fullFlow]() mutable {
            if (!self) return;
            self->running_ = false;
            if (!cancelled) self->finished(std::move(out), fullFlow);
            // A newer world arrived meanwhile: its base flow next.
            const std::shared_ptr<const CompiledWorld> wanted = self->wanted_;
            if (wanted && self->on_ && self->latest_.serial != wanted->serial) self->start(false);
        });
    });
}

void PvsService::finished(SightPvsResult result, bool fullFlow) {
    const bool current = wanted_ && result.serial == wanted_->serial;
    if (!current && latest_.pvs) { // stale: keep what is shown
        releaseInBackground(std::move(result.world));
        return;
    }
    releaseInBackground(std::exchange(latest_, std::move(result)).world);
    if (latest_.pvs && latest_.pvs->fullFlow()) lastFull_ = latest_.pvs;
    emit updated();
    // The base flow shown (or no sight pose): the full flow, at once when it is an update of
    // an earlier full flow, else once the level stands still.
    if (current && !fullFlow && wantedFull_ && on_ && latest_.pvs && !tooLarge(*latest_.pvs)) {
        if (lastFull_) start(true);
        else fullTimer_.start();
    }
    if (current && fullFlow) wantedFull_ = false;
}

} // namespace shallot

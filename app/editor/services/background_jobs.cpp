#include "services/background_jobs.h"

#include "services/background_priority.h"

#include <QCoreApplication>
#include <QObject>
#include <QThreadPool>
#include <deque>
#include <mutex>

namespace shallot {

namespace {

struct JobQueue {
    std::mutex mutex;
    std::deque<std::function<void()>> jobs;

    void push(std::function<void()> job) {
        std::lock_guard lock(mutex);
        jobs.push_back(std::move(job));
    }
    std::function<void()> pop() {
        std::lock_guard lock(mutex);
        std::function<void()> job = std::move(jobs.front());
        jobs.pop_front();
        return job;
    }
};

JobQueue& poolJobs(BackgroundStage stage) {
    static JobQueue queues[3];
    return queues[int(stage)];
}

// The Following and Later stages': one thread each, its priority lowered for good
// (background_priority.h), its jobs in order. Children of the application, which waits for
// their jobs when it quits.
QThreadPool& ownPool(BackgroundStage stage) {
    auto make = [] {
        auto* p = new QThreadPool(QCoreApplication::instance());
        p->setMaxThreadCount(1);
        return p;
    };
    static QThreadPool* const following = make();
    static QThreadPool* const later = make();
    return stage == BackgroundStage::Later ? *later : *following;
}

// Lives on the UI thread; posted "runNext" calls (queued by name, so Qt allocates and frees
// the call event) run the UI jobs one by one.
class UiJobRunner : public QObject {
    Q_OBJECT
public:
    JobQueue jobs;
    Q_INVOKABLE void runNext() { jobs.pop()(); }
};

UiJobRunner& uiJobRunner() {
    // Created by whichever thread posts first, then handed to the UI thread. Never deleted:
    // a job may still be posted while the application shuts down.
    static UiJobRunner* const runner = [] {
        auto* r = new UiJobRunner;
        r->moveToThread(QCoreApplication::instance()->thread());
        return r;
    }();
    return *runner;
}

} // namespace

void runInBackground(std::function<void()> job, BackgroundStage stage) {
    poolJobs(stage).push(std::move(job));
    // One pool task per job; each takes whichever job is first (their order is free).
    QThreadPool& pool = stage == BackgroundStage::Shown ? *QThreadPool::globalInstance() : ownPool(stage);
    pool.start([stage] {
        std::function<void()> next = poolJobs(stage).pop();
        if (stage == BackgroundStage::Later) lowestThreadPriority();
        else lowerThreadPriority();
        next();
    });
}

void postToUiThread(std::function<void()> job) {
    UiJobRunner& runner = uiJobRunner();
    runner.jobs.push(std::move(job));
    QMetaObject::invokeMethod(&runner, "runNext", Qt::QueuedConnection);
}

} // namespace shallot

#include "background_jobs.moc"

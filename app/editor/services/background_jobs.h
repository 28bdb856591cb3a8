#pragma once
#include <functional>

namespace shallot {

// Hand-offs between the UI thread and background threads.
//
// Both pass the job through a queue guarded by a std::mutex instead of inside the Qt task or
// event that triggers it. Qt hands tasks and posted events between threads under its
// futex-based QMutex, which ThreadSanitizer cannot see (Debian's Qt is not instrumented), so
// a job's captured data, written on one thread and read on the other, was reported as a race
// whenever the receiving thread was already awake (scripts/sanitize.sh tsan). The std::mutex
// orders the two threads where TSan sees it; what Qt carries captures nothing of ours.

// Runs `job` on Qt's global thread pool, at lowered priority (background_priority.h).
void runInBackground(std::function<void()> job);

// Runs `job` on the UI thread from its event loop, in posting order. Call from any thread
// once the QApplication exists. A job that uses a QObject must guard it with a QPointer.
void postToUiThread(std::function<void()> job);

} // namespace shallot

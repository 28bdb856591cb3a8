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

// What a background job serves, which decides when it runs (issue 38: the designer never
// waits for what is not on screen, and later work never delays an earlier stage):
// - Shown: what the views show of the tree just compiled (the tree's overlays, the 2D
//   sections, the light in a lit view, the PVS): Qt's global thread pool, at lowered
//   priority (nice 10).
// - Following: what the views show after those, the walkable meshes: a thread of its own at
//   the same priority, so that a mesh update (50-130 ms on id_e1m1 while the views paint)
//   never holds a pool thread the next edit's overlays and sections wait for.
// - Later: what no view shows yet (the spawn checks for the Problems dock, the world compiled
//   without its movers, the travel through it): one thread of its own at the lowest priority
//   (nice 19), so it takes a core only when the compile, the Shown and Following jobs and the
//   views leave one idle.
enum class BackgroundStage { Shown, Following, Later };

// Runs `job` on a thread of its stage.
void runInBackground(std::function<void()> job, BackgroundStage stage = BackgroundStage::Shown);

// Runs `job` on the UI thread from its event loop, in posting order. Call from any thread
// once the QApplication exists. A job that uses a QObject must guard it with a QPointer.
void postToUiThread(std::function<void()> job);

} // namespace shallot

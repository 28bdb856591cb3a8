#pragma once
#include "background_jobs.h"

#include <memory>

namespace shallot {

// Drops the reference on a pool thread instead of the caller's. A compiled world (tree,
// map trees, cells, polygons) is some 10^5 allocations on a large map: freeing it on the
// UI thread stalled the event loop for tens of milliseconds after every compile. Every
// UI-thread holder of a compiled world lets go of it through here, so whichever reference
// is the last one, the destruction happens off the UI thread.
template <class T>
void releaseInBackground(std::shared_ptr<T> p) {
    if (!p) return;
    runInBackground([p = std::move(p)]() mutable { p.reset(); });
}

} // namespace shallot

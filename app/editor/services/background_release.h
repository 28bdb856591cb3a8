#pragma once
#include "services/background_jobs.h"

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

// A pointer to a part of `owner` (a compiled world's tree) that keeps `owner` alive and, when
// its last copy goes, lets go of `owner` on a pool thread. Scene layers and views hold such
// pointers (a tree's leaf visibility) and drop them on the UI thread whenever newer
// overlays replace them; an aliasing shared_ptr would free the whole world there.
template <class Part, class Owner>
std::shared_ptr<const Part> partReleasedInBackground(std::shared_ptr<Owner> owner, const Part* part) {
    return std::shared_ptr<const Part>(part, [owner = std::move(owner)](const Part*) mutable { releaseInBackground(std::move(owner)); });
}

} // namespace shallot

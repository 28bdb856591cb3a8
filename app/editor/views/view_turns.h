#pragma once
// Heavy OpenGL work of the views (a frame, a base-picture fill) takes turns: work that
// comes less than a spacing after another view's waits, so the event loop handles input in
// between instead of running four views' work back to back. Every view lives on the UI
// thread, so one plain object per kind of work serves them all.
#include <QElapsedTimer>

namespace shallot {

class ViewTurns {
public:
    explicit ViewTurns(int spacingMs) : spacingMs_(spacingMs) {}
    // True when `view` may go now: no other view's turn ended less than the spacing ago.
    bool mayGo(const void* view) const {
        return !last_ || last_ == view || !sinceLast_.isValid() || sinceLast_.elapsed() >= spacingMs_;
    }
    void done(const void* view) {
        last_ = view;
        sinceLast_.start();
    }
    int spacingMs() const { return spacingMs_; }

private:
    int spacingMs_;
    const void* last_ = nullptr;
    QElapsedTimer sinceLast_;
};

} // namespace shallot

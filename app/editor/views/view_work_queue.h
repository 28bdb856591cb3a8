#pragma once
// The views' OpenGL work between frames (the parts of a layer upload, the parts of a 2D
// view's new picture), one item per pass of the event loop. With a zero timer per view and
// per kind of work, four views' items fell in one pass and held the UI for their sum; one
// queue lets input and frames in between any two items. Every view lives on the UI thread.
#include <QPointer>
#include <QWidget>
#include <deque>
#include <functional>

namespace shallot {

class ViewWorkQueue {
public:
    enum class Kind { Upload, PicturePart };
    // Queues `work` for `view`, unless an item of this kind for it is queued already. An item
    // whose view is gone is skipped.
    void post(QWidget* view, Kind kind, std::function<void()> work);

private:
    bool queued(const QWidget* view, Kind kind) const;
    void scheduleNext(); // runOne in the next pass, unless already scheduled
    void runOne();

    struct Item {
        QPointer<QWidget> view;
        Kind kind;
        std::function<void()> work;
    };
    std::deque<Item> items_;
    bool scheduled_ = false;
};

} // namespace shallot

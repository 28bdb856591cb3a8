#include "views/view_work_queue.h"

#include <QCoreApplication>
#include <QTimer>
#include <algorithm>

namespace shallot {

bool ViewWorkQueue::queued(const QWidget* view, Kind kind) const {
    return std::any_of(items_.begin(), items_.end(), [&](const Item& i) { return i.view == view && i.kind == kind; });
}

void ViewWorkQueue::post(QWidget* view, Kind kind, std::function<void()> work) {
    if (queued(view, kind)) return;
    items_.push_back({view, kind, std::move(work)});
    scheduleNext();
}

void ViewWorkQueue::scheduleNext() {
    if (scheduled_) return;
    scheduled_ = true;
    QTimer::singleShot(0, QCoreApplication::instance(), [this] { runOne(); });
}

void ViewWorkQueue::runOne() {
    scheduled_ = false;
    if (items_.empty()) return;
    Item item = std::move(items_.front());
    items_.pop_front();
    if (item.view) item.work(); // may post again: to the back
    if (!items_.empty()) scheduleNext();
}

} // namespace shallot

#pragma once
// The test rays: one row per ray and pose with start-solid, hit, t, contact point and
// normal from the newest compile. Rows can be renamed, removed, set to "walk", or used as
// the reachability start and the leaf inspector's point.
#include "geometry/plane.h"

#include <QDockWidget>

class QTableWidget;

namespace shallot {

class Editor;

class RayDock : public QDockWidget {
    Q_OBJECT
public:
    explicit RayDock(Editor& editor, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    int currentRay() const;

signals:
    void inspectPoint(const Vec3& p);

private:
    void refresh();
    void removeRay();
    void toggleWalk();

    Editor& editor_;
    QTableWidget* table_;
};

} // namespace shallot

#pragma once
// Shows the leaf of the newest tree at a point: index, solidity per pose, the brushes the
// point is inside with their contents, depth, cell volume, polygon count; the leaf's cell is
// highlighted in the views.
#include "geometry/plane.h"

#include <QDockWidget>

class QLabel;

namespace shallot {

class Editor;

class LeafInspector : public QDockWidget {
    Q_OBJECT
public:
    explicit LeafInspector(Editor& editor, QWidget* parent = nullptr);
    void inspect(const Vec3& point);
    // Nothing inspected (another level opened).
    void clear();
    QString text() const;

private:
    void refresh();

    Editor& editor_;
    QLabel* label_;
    std::optional<Vec3> point_;
};

} // namespace shallot

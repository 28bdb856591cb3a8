#pragma once
// Lists the poses (name, mins, maxs, colour) for numeric editing; add, remove, presets.
// Every edit is one undo step.
#include <QDockWidget>

class QTableWidget;

namespace shallot {

class Editor;

class PoseDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PoseDock(Editor& editor, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

private:
    void refresh();
    void cellEdited(int row, int column);
    void addPose();
    void removePose();
    void applyPreset(int preset);

    Editor& editor_;
    QTableWidget* table_;
    bool refreshing_ = false;
};

} // namespace shallot

#pragma once
// Lists the poses (name, mins, maxs, colour, what blocks each, how each walks) for numeric editing; add,
// remove, presets. Every edit is one undo step.
#include "world/pose.h"

#include <QDockWidget>

class QLabel;
class QTableWidget;

namespace shallot {

class Editor;

class PoseDock : public QDockWidget {
    Q_OBJECT
public:
    explicit PoseDock(Editor& editor, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    // Why the last edit was refused (hidden when it was not).
    QLabel* message() const { return message_; }

private:
    void refresh();
    void cellEdited(int row, int column);
    // Sets `pose`'s blocking set from the typed `text` ("solid+playerclip", "default");
    // false, with the reason shown, for an unknown contents name.
    bool setBlocking(Pose& pose, const QString& text);
    void addPose();
    void removePose();
    void applyPreset(int preset);

    Editor& editor_;
    QTableWidget* table_;
    QLabel* message_;
    bool refreshing_ = false;
};

} // namespace shallot

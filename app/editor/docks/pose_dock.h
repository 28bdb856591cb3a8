#pragma once
// Lists the poses for editing in compact columns that fit the default layout: name,
// colour, shape (a box's size or a round shape, "capsule 16×56", shown; a box's corners or
// "capsule:R,HEIGHT" / "ellipsoid:R,H" edited: docks/pose_shape_cell.h), how each walks
// ("step drop jump slope", "quake" for Quake's rules) and what blocks each (a summary: a
// click opens BlockingEditor). Add, remove, presets. Every edit is one undo step.
#include "world/pose.h"

#include <QDockWidget>

class QLabel;
class QTableWidget;

namespace shallot {

class Editor;

class PoseDock : public QDockWidget {
    Q_OBJECT
public:
    enum Column { Name, Colour, Box, Walk, Blocking, ColumnCount }; // Box: the Shape column
    // The whole text of a summarised cell (Box: "minx miny minz maxx maxy maxz" or "capsule:16,56"; Walk: "step
    // drop jump slope"; Blocking: the set, contentsName, or "default (Quake)"), which typing
    // into the cell takes.
    static constexpr int kFullTextRole = Qt::UserRole + 1;

    explicit PoseDock(Editor& editor, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    // Why the last edit was refused (hidden when it was not).
    QLabel* message() const { return message_; }

private:
    void refresh();
    void cellEdited(int row, int column);
    // The blocking set of pose `row` in a BlockingEditor; OK applies it (one undo step).
    void editBlocking(int row);
    // Shows why typed text was refused (the cell goes back to the pose's value).
    void refuse(const QString& why);
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

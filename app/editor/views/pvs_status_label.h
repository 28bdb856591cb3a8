#pragma once
// The status bar's PVS figures: the average and largest PVS (clusters, and brush faces:
// the view weight) of the newest PVS, which flow it is and how long it took; the tooltip
// says it whole, with when it was updated and what the Visible overlay's leaf sees.
#include <QLabel>

namespace shallot {

class Editor;

class PvsStatusLabel : public QLabel {
    Q_OBJECT
public:
    PvsStatusLabel(Editor& editor, QWidget* parent = nullptr);

private:
    void update();
    Editor& editor_;
};

} // namespace shallot

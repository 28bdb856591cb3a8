#pragma once
// The Movers toolbar (issue 40): where the movers stand (as spawned, all closed, all open,
// at a time of the game's timing with a slider and a spin box, or left out of the world),
// whether their swept volumes are ghosted, and Play (F5) with how many agents walk.
#include <QToolBar>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace shallot {

class Editor;

class MoversBar : public QToolBar {
    Q_OBJECT
public:
    // Objects named "moverPlacement" (combo box), "moverSeconds" (spin box), "moverSlider",
    // "moverSwept" and "play" (actions), "playAgents" (spin box), "playTime" (label).
    MoversBar(Editor& editor, QWidget* parent = nullptr);

private:
    void follow();     // the controls show the editor's state
    void choose();     // the controls' state to the editor
    void showPlayTime();

    Editor& editor_;
    QComboBox* placement_;
    QDoubleSpinBox* seconds_;
    QSlider* slider_;
    QAction* swept_;
    QAction* play_;
    QSpinBox* agents_;
    QLabel* playTime_;
};

} // namespace shallot

#pragma once
// The Movers dock (issue 40): where the movers stand (as spawned, all closed, all open, at a
// time of the game's timing with a slider and a spin box, or left out of the world),
// whether their swept volumes are ghosted, and Play (F5) with how many agents walk.
#include <QDockWidget>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace shallot {

class Editor;

class MoversDock : public QDockWidget {
    Q_OBJECT
public:
    // Children named "moverPlacement" (combo box), "moverSeconds" (spin box), "moverSlider",
    // "playAgents" (spin box), "playTime" (label), and the actions "moverSwept" and "play"
    // (F5), the latter added to `window` so that its key works while the dock is hidden.
    MoversDock(Editor& editor, QWidget* window);

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

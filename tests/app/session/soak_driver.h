#pragma once
// A seeded random editing session on the real MainWindow: tools driven by mouse events in
// the 2D and 3D views, menu commands and undo/redo by their key shortcuts, poses through
// the pose dock's table, saves, save-as and reopens into a folder. Every operation is
// written, in world terms, to an edit script (app/editor/document/edit_script.h) so that a replay
// without the GUI can be compared with the session's document. The same seed gives the
// same operations (whatever the timing: compiles are waited for or not at random, but
// nothing the driver chooses depends on them).
#include "main_window.h"
#include "tools/tool.h"

#include <QFile>
#include <QJsonObject>
#include <random>

namespace shallot {

class Viewport2D;

struct SoakStats {
    int operations = 0;   // operations written to the script
    int undoSteps = 0;    // commands pushed by the operations (what undo can take back)
    int undos = 0, redos = 0, saves = 0, reopens = 0, compileWaits = 0;
};

class SoakDriver {
public:
    // Saves go to `folder`; the script is appended to `script` (open for writing).
    SoakDriver(MainWindow& window, unsigned seed, const QString& folder, QFile& script);

    // One random operation. False, with error(), when the editor did not do what the
    // operation meant (a shortcut that did not fire, a save that failed...).
    bool step();
    const QString& error() const { return error_; }
    const SoakStats& stats() const { return stats_; }

private:
    bool drawBox();
    bool clickSelect();
    bool pickIn3d();
    bool moveSelection();
    bool resizeSelection();
    bool menuCommand();
    bool clip();
    bool addRay();
    bool dragRay();
    bool editPose();
    bool undoRedo();
    bool changeGrid();
    bool save();
    bool reopen();
    bool deleteSelection();
    bool placeEntity();
    bool editEntity();
    void recordSelection();
    // Drags from `grip` (on something selected) up to maxSteps grid steps along each of the
    // view's axes, as a move of the selection, and records it unless cancelled or null.
    void dragMove(Viewport2D* view, QPoint grip, int maxSteps);

    // Helpers: a 2D view (random unless given) framed on `box` and focused, pixels and the
    // world points under them, a key shortcut typed into the focused widget, mouse drags.
    Aabb documentBounds() const;
    Viewport2D* framedView(const Aabb& box, int viewIndex = -1);
    ViewPoint at(Viewport2D* view, QPoint pixel) const;
    bool inside(QWidget* view, QPoint pixel) const;
    QPoint randomPixel(QWidget* view);
    bool typeShortcut(const QString& actionName);
    void pressAndMove(QWidget* view, QPoint from, QPoint to, Qt::MouseButton button);
    void drag(QWidget* view, QPoint from, QPoint to, Qt::MouseButton button = Qt::LeftButton);
    // A left drag that holds still before its release for a random while (its previews
    // compile and show meanwhile, or not) and is sometimes cancelled with Escape: true when
    // it was released (the edit is made), false when cancelled.
    bool heldDrag(QWidget* view, QPoint from, QPoint to);
    // Selects something by clicking when nothing is selected; false when that failed or
    // the document has nothing to select.
    bool selectedSomething();
    bool applyDirectly(const QJsonObject& op);
    // Appends `op` to the script with the undo stack's index after it.
    void record(QJsonObject op);
    bool fail(const QString& message);
    int randomInt(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

    MainWindow& window_;
    EditorDocument& doc_;
    std::mt19937 rng_;
    QString folder_;
    QFile& script_;
    int clipKeep_ = 0;                   // the clip tool's keep mode: front, back, both (it persists)
    int lastUndoIndex_ = 0;
    SoakStats stats_;
    QString error_;
};

} // namespace shallot

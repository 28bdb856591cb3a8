#pragma once
// The status bar's compile figures: "Compiling...", then how long the newest compile took
// and how long after its edit the overlays were on screen (an edit's first overlays only:
// Play's mover recompiles and a pose chosen later keep the edit's revision); the tooltip
// holds the tree's figures. A failed compile says why.
#include <QLabel>

#include <memory>

namespace shallot {

class Editor;
struct CompiledWorld;

class CompileStatusLabel : public QLabel {
    Q_OBJECT
public:
    CompileStatusLabel(Editor& editor, QWidget* parent = nullptr);

private:
    void showCompiled(const std::shared_ptr<const CompiledWorld>& compiled);
    void showOverlaysShown(quint64 revision);

    Editor& editor_;
    QString details_;              // the last compile's figures, in the tooltip
    quint64 overlaysShownFor_ = 0; // the revision whose overlays were timed
};

// The status bar's spawn check figures: how many problems and how long the check took.
class SpawnChecksStatusLabel : public QLabel {
    Q_OBJECT
public:
    SpawnChecksStatusLabel(Editor& editor, QWidget* parent = nullptr);
};

} // namespace shallot

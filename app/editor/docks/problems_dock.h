#pragma once
// Invalid brushes, spawn problems, heavy views (the view weight over the document's limit)
// and import warnings. Clicking a brush's entry selects it,
// a problem's frames its entity, a leak's frames the hole its path leaves the level
// through (SpawnProblem::hole) and selects the path.
#include <QDockWidget>
#include <QStringList>

class QListWidget;

namespace shallot {

class Editor;
struct SpawnProblem;

class ProblemsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ProblemsDock(Editor& editor, QWidget* parent = nullptr);
    void setImportWarnings(const QStringList& warnings);
    void setCompileProblems(const std::vector<std::pair<int, QString>>& problems);
    QListWidget* list() const { return list_; }

private:
    void refresh();
    void showLeak(const SpawnProblem& leak);
    // The places that may see more brush faces than the document's limit (of the full
    // flow's PVS, while the Visible or View weight overlay has it computed).
    void addHeavyViews();

    Editor& editor_;
    QListWidget* list_;
    QStringList importWarnings_;
    std::vector<std::pair<int, QString>> compileProblems_;
};

} // namespace shallot

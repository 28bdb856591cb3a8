#pragma once
// Invalid brushes and import warnings; clicking a brush's entry selects it.
#include <QDockWidget>
#include <QStringList>

class QListWidget;

namespace shallot {

class Editor;

class ProblemsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ProblemsDock(Editor& editor, QWidget* parent = nullptr);
    void setImportWarnings(const QStringList& warnings);
    void setCompileProblems(const std::vector<std::pair<int, QString>>& problems);
    QListWidget* list() const { return list_; }

private:
    void refresh();

    Editor& editor_;
    QListWidget* list_;
    QStringList importWarnings_;
    std::vector<std::pair<int, QString>> compileProblems_;
};

} // namespace shallot

#pragma once
// Plays an edit script (edit_script.h) in the running editor, one operation per timer
// tick: document operations go through the document's undo stack, "save" saves through
// MainWindow::saveTo and "reopen" opens the file again. `shallot --play SCRIPT` uses it;
// the kill test (tests/app/editor_kill_gui_test.cpp) kills the editor while it plays.
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <vector>

namespace shallot {

class MainWindow;

class ScriptPlayer : public QObject {
    Q_OBJECT
public:
    ScriptPlayer(MainWindow& window, std::vector<QJsonObject> ops, int intervalMs, QObject* parent = nullptr);
    void start() { timer_.start(); }

signals:
    // The script ended, or stopped at an operation that failed (`error` non-empty).
    void finished(const QString& error);

private:
    void step();

    MainWindow& window_;
    std::vector<QJsonObject> ops_;
    size_t next_ = 0;
    QTimer timer_;
};

} // namespace shallot

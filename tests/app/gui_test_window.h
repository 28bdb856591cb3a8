#pragma once
// What the GUI test suites share: a main window opened on a file, shown and exposed, and
// waiting until the overlays (or the spawn checks) show a compile of the document's
// current world.
#include "main_window.h"
#include "services/overlay_controller.h"
#include "services/spawn_check_service.h"

#include <QtTest>
#include <memory>

namespace shallot::test {

// A non-interactive window (no dialogs) of 1400 x 900 showing `file` (none: a new level).
inline std::unique_ptr<MainWindow> openWindow(const QString& file) {
    auto window = std::make_unique<MainWindow>(false);
    window->resize(1400, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) qFatal("window not exposed");
    if (!file.isEmpty() && !window->openFile(file)) qFatal("cannot open %s", qPrintable(file));
    QTest::qWait(50);
    return window;
}

// A left-button drag from a to b in four moves, as a hand makes it.
inline void dragBetween(QWidget* view, const QPoint& a, const QPoint& b) {
    QTest::mousePress(view, Qt::LeftButton, {}, a);
    for (int i = 1; i <= 4; ++i) QTest::mouseMove(view, a + (b - a) * i / 4);
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
}

inline bool waitForCompiledOverlay(MainWindow& w, int timeoutMs = 20000) {
    const EditorDocument& doc = w.editor().document();
    return QTest::qWaitFor([&] {
        return !w.editor().compiler().busy() && w.editor().overlays().shownRevision() == doc.worldRevision();
    }, timeoutMs);
}

// The spawn checks of the document's current world are done (both passes: the Problems
// dock lists what they found).
inline bool spawnChecksCurrent(MainWindow& w) {
    Editor& e = w.editor();
    const auto& compiled = e.compiler().latest();
    return compiled && !e.compiler().busy() && compiled->revision == e.document().worldRevision() &&
           !e.spawnChecks().busy() && e.spawnChecks().checkedWorldRevision() == compiled->revision;
}

inline bool waitForSpawnChecks(MainWindow& w, int timeoutMs = 20000) {
    return QTest::qWaitFor([&] { return spawnChecksCurrent(w); }, timeoutMs);
}

} // namespace shallot::test

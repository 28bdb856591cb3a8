#pragma once
// What the GUI test suites share: a main window opened on a file, shown and exposed, and
// waiting until the overlays (or the spawn checks) show a compile of the document's
// current world.
#include "main_window.h"
#include "services/overlay_controller.h"
#include "services/spawn_check_service.h"

#include <QFile>
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

// `text` (a level) written to `path`; false when the file cannot be written.
inline bool writeLevel(const QString& path, const QString& text) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return file.write(text.toUtf8()) == text.toUtf8().size();
}

// A left-button drag from a to b in four moves, as a hand makes it.
inline void dragBetween(QWidget* view, const QPoint& a, const QPoint& b) {
    QTest::mousePress(view, Qt::LeftButton, {}, a);
    for (int i = 1; i <= 4; ++i) QTest::mouseMove(view, a + (b - a) * i / 4);
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
}

// The .map text of the brush [x0, x1] x [y0, y1] x [z0, z1] (texture "w", Quake's point order).
inline QString boxBrushText(int x0, int y0, int z0, int x1, int y1, int z1) {
    return QString("{\n( %1 0 0 ) ( %1 1 0 ) ( %1 0 1 ) w 0 0 0 1 1\n( %2 0 0 ) ( %2 0 1 ) ( %2 1 0 ) w 0 0 0 1 1\n"
                   "( 0 %3 0 ) ( 0 %3 1 ) ( 1 %3 0 ) w 0 0 0 1 1\n( 0 %4 0 ) ( 1 %4 0 ) ( 0 %4 1 ) w 0 0 0 1 1\n"
                   "( 0 0 %5 ) ( 1 0 %5 ) ( 0 1 %5 ) w 0 0 0 1 1\n( 0 0 %6 ) ( 0 1 %6 ) ( 1 0 %6 ) w 0 0 0 1 1\n}\n")
        .arg(x0).arg(x1).arg(y0).arg(y1).arg(z0).arg(z1);
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

// The Poses dock fits the default layout (issue 37, item 9): in the window size the tests
// and the editor open with, its table needs no horizontal scrolling, for Quake's poses and
// for Quake 2's (longer blocking sets), and a click on a blocking summary opens the editor
// of that set, whose OK is one undo step.
#include "docks/blocking_editor.h"
#include "docks/pose_dock.h"
#include "gui_test_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>

using namespace shallot;

namespace {

// Whether every column of the dock's table is within its viewport, with no scroll bar.
bool fitsWithoutScrolling(QTableWidget* table) {
    int width = 0;
    for (int c = 0; c < table->columnCount(); ++c) width += table->columnWidth(c);
    return !table->horizontalScrollBar()->isVisible() && table->horizontalScrollBar()->maximum() == 0 &&
           width <= table->viewport()->width();
}

} // namespace

class PoseDockGuiTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void theDockFitsTheDefaultLayout_data() {
        QTest::addColumn<QString>("map");
        QTest::newRow("quake") << SHALLOT_SAMPLE_MAPS "/figure1_rooms.map";
        QTest::newRow("quake2") << SHALLOT_SAMPLE_MAPS "/q2_clip_room.map";
        QTest::newRow("halflife") << SHALLOT_SAMPLE_MAPS "/hl_clip_room.map";
    }

    void theDockFitsTheDefaultLayout() {
        QFETCH(QString, map);
        auto w = test::openWindow(map);
        QTableWidget* table = w->poseDock()->table();
        QVERIFY(w->poseDock()->isVisible());
        QTest::qWait(100); // the layout settles
        QVERIFY2(fitsWithoutScrolling(table), qPrintable(QString("table %1 wide in a viewport of %2")
                                                             .arg(table->horizontalHeader()->length())
                                                             .arg(table->viewport()->width())));
        // Every column but the blocking summary shows its whole text.
        for (int c = 0; c < PoseDock::Blocking; ++c)
            for (int r = 0; r < table->rowCount(); ++r)
                QVERIFY2(table->columnWidth(c) >= table->fontMetrics().horizontalAdvance(table->item(r, c)->text()),
                         qPrintable(table->item(r, c)->text()));
        if (QTest::currentDataTag() == QString("quake2")) { // summaries: beyond solid+window, which blocks all
            QCOMPARE(table->item(1, PoseDock::Blocking)->text(), QString("+playerclip"));
            QCOMPARE(table->item(3, PoseDock::Blocking)->text(), QString("+monsterclip"));
        }
        // A pose blocked by many contents still fits: its summary is shortened, whole in the tooltip.
        table->item(1, PoseDock::Blocking)->setText("solid+window+playerclip+monsterclip+botclip+lava+slime");
        QTest::qWait(50);
        QVERIFY(fitsWithoutScrolling(table));
        QVERIFY(table->item(1, PoseDock::Blocking)->toolTip().contains("monsterclip+botclip+lava+slime"));
        table->grab().save(QDir::temp().filePath(QString("pose_dock_%1.png").arg(QTest::currentDataTag())));
    }

    void aClickOnTheBlockingSummaryOpensItsEditor() {
        auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QTableWidget* table = w->poseDock()->table();
        EditorDocument& doc = w->editor().document();
        QVERIFY(!doc.poses()[2].blocking); // large: the game's rule
        const int steps = doc.undoStack()->count();
        bool sawEditor = false;
        // The editor is modal: look at it, tick two boxes and press OK once it shows.
        QTimer::singleShot(200, [&] {
            auto* editor = qobject_cast<BlockingEditor*>(QApplication::activeModalWidget());
            if (!editor) return;
            sawEditor = true;
            QVERIFY(editor->box("default")->isChecked());
            QVERIFY(!editor->box("solid")->isEnabled());
            editor->box("default")->click();
            editor->box("solid")->click();
            editor->box("monsterclip")->click();
            editor->grab().save(QDir::temp().filePath("blocking_editor.png"));
            editor->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        const QRect cell = table->visualItemRect(table->item(2, PoseDock::Blocking));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTRY_VERIFY(sawEditor);
        QVERIFY(doc.poses()[2].blocking);
        QCOMPARE(*doc.poses()[2].blocking, BrushContents::Solid | BrushContents::MonsterClip);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(table->item(2, PoseDock::Blocking)->data(PoseDock::kFullTextRole).toString(), QString("solid+monsterclip"));
        // The summary: what blocks it beyond what blocks every pose (solid).
        QCOMPARE(table->item(2, PoseDock::Blocking)->text(), QString("+monsterclip"));
        // Cancel changes nothing.
        QTimer::singleShot(200, [&] {
            if (auto* editor = qobject_cast<BlockingEditor*>(QApplication::activeModalWidget())) editor->reject();
        });
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(doc.undoStack()->count(), steps + 1);
    }

    // The box shows its size and is edited as its corners; walking rules are typed as
    // "step drop jump slope".
    void compactColumnsAreEditedAsText() {
        auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QTableWidget* table = w->poseDock()->table();
        const auto& poses = w->editor().document().poses();
        QCOMPARE(table->item(0, PoseDock::Box)->text(), QString("point"));
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("32×32×56"));
        // Double-clicked, the cell's editor holds the corners.
        table->setCurrentCell(1, PoseDock::Box);
        table->editItem(table->item(1, PoseDock::Box));
        auto* line = table->findChild<QLineEdit*>();
        QVERIFY(line);
        QCOMPARE(line->text(), QString("-16 -16 -24 16 16 32"));
        line->setText("-16, -16, -20, 16, 16, 32");
        QTest::keyClick(line, Qt::Key_Return); // committed from the event loop
        QTRY_COMPARE(poses[1].mins, Vec3(-16, -16, -20));
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("32×32×52"));
        QCOMPARE(table->item(1, PoseDock::Walk)->text(), QString("quake"));
        table->item(1, PoseDock::Walk)->setText("24 64 45,128 0.8");
        QCOMPARE(poses[1].nav.stepHeight, 24.0);
        QCOMPARE(poses[1].nav.maxDrop, 64.0);
        QVERIFY(poses[1].nav.jump);
        QCOMPARE(poses[1].nav.walkableNormalZ, 0.8);
        QCOMPARE(table->item(1, PoseDock::Walk)->text(), QString("24 64 45,128 0.8")); // not Quake's: shown whole
        table->item(1, PoseDock::Walk)->setText("quake");
        QVERIFY(poses[1].nav == NavSettings{});
        table->item(1, PoseDock::Box)->setText("16 16");
        QVERIFY(w->poseDock()->message()->isVisible());
        QCOMPARE(poses[1].maxs, Vec3(16, 16, 32));
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("32×32×52"));
    }
};

QTEST_MAIN(PoseDockGuiTest)
#include "pose_dock_gui_test.moc"

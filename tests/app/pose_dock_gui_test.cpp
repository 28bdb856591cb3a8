// The Poses dock fits the default layout (issue 37, item 9): in the window size the tests
// and the editor open with, its table needs no horizontal scrolling, for Quake's poses and
// for Quake 2's (longer blocking sets), and a click on a blocking summary opens the editor
// of that set, whose OK is one undo step. A pose becomes a capsule or an ellipsoid through
// its Shape cell (issue 42): one undo step, bad shapes refused with the core's reason.
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
#include <QTemporaryDir>
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

    // Typed into the Shape cell's editor as a user types it: the pose becomes a capsule
    // (its name, colour, blocking and walking kept) in one undo step; bad shapes are
    // refused with the core's reason and nothing changes; the level compiles with the
    // capsule as its bounding box at the same pose index, and a .shallot keeps it.
    void aPoseBecomesRoundThroughItsShapeCell() {
        auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QVERIFY(test::waitForCompiledOverlay(*w));
        QTableWidget* table = w->poseDock()->table();
        EditorDocument& doc = w->editor().document();
        const auto& poses = doc.poses();
        const Pose before = poses[1];
        QVERIFY(!before.shape.isRound());
        const int steps = doc.undoStack()->count();
        table->setCurrentCell(1, PoseDock::Box);
        table->editItem(table->item(1, PoseDock::Box));
        auto* line = table->findChild<QLineEdit*>();
        QVERIFY(line);
        line->setText("capsule 16 56");
        QTest::keyClick(line, Qt::Key_Return);
        QTRY_COMPARE(poses[1].shape, PoseShape::capsule(16, 56));
        QCOMPARE(poses[1].mins, Vec3(-16, -16, -28));
        QCOMPARE(poses[1].maxs, Vec3(16, 16, 28));
        QCOMPARE(poses[1].name, before.name);
        QCOMPARE(poses[1].colour, before.colour);
        QVERIFY(poses[1].blocking == before.blocking && poses[1].nav == before.nav);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("capsule 16×56"));
        QCOMPARE(table->item(1, PoseDock::Box)->data(PoseDock::kFullTextRole).toString(), QString("capsule:16,56"));
        QVERIFY(table->item(1, PoseDock::Box)->toolTip().contains("radius 16, height 56"));
        QVERIFY(!w->poseDock()->message()->isVisible());

        // Compiled as its bounding box, under its name at its index: as many tree poses as
        // the document has, so the overlays, rays and nav index poses as before.
        QVERIFY(test::waitForCompiledOverlay(*w));
        const auto& compiled = w->editor().compiler().latest();
        QVERIFY(compiled && compiled->revision == doc.worldRevision());
        const BspTree& tree = compiled->result->onion;
        QCOMPARE(tree.poses.size(), poses.size());
        QCOMPARE(tree.poses[1].name, before.name);
        QCOMPARE(tree.poses[1].mins, Vec3(-16, -16, -28));
        QCOMPARE(tree.poses[1].maxs, Vec3(16, 16, 28));
        QVERIFY(!tree.poses[1].shape.isRound());
        QVERIFY(compiled->cells.size() > 0);

        // Hostile shapes: the core's reason shown, the capsule kept, no undo step.
        const std::pair<QString, QString> refused[] = {
            {"capsule:16,20", "capsule height 20 is shorter than its diameter 32"},
            {"capsule 0 56", "capsule radius must be positive"},
            {"capsule -4 56", "capsule radius must be positive"},
            {"ellipsoid:nan,28", "ellipsoid radius across must be a finite number"},
            {"ellipsoid 16", "ellipsoid needs two numbers"},
            {"sphere:16,16", "is not a shape"},
        };
        for (const auto& [text, reason] : refused) {
            table->item(1, PoseDock::Box)->setText(text);
            QVERIFY2(w->poseDock()->message()->isVisible(), qPrintable(text));
            QVERIFY2(w->poseDock()->message()->text().contains(reason), qPrintable(w->poseDock()->message()->text()));
            QCOMPARE(poses[1].shape, PoseShape::capsule(16, 56));
            QCOMPARE(doc.undoStack()->count(), steps + 1);
            QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("capsule 16×56"));
        }

        // Undo brings the box back whole; redo the capsule.
        doc.undoStack()->undo();
        QVERIFY(!poses[1].shape.isRound());
        QCOMPARE(poses[1].mins, before.mins);
        QCOMPARE(poses[1].maxs, before.maxs);
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("32×32×56"));
        doc.undoStack()->redo();
        QCOMPARE(poses[1].shape, PoseShape::capsule(16, 56));
        QCOMPARE(table->item(1, PoseDock::Box)->text(), QString("capsule 16×56"));

        // An ellipsoid on another pose, and "box": a round pose becomes its bounding box.
        table->item(2, PoseDock::Box)->setText("ellipsoid:24,40");
        QCOMPARE(poses[2].shape, PoseShape::ellipsoid(24, 40));
        QCOMPARE(poses[2].maxs, Vec3(24, 24, 40));
        QCOMPARE(table->item(2, PoseDock::Box)->text(), QString("ellipsoid 24×40"));
        table->grab().save(QDir::temp().filePath("pose_dock_round.png"));
        table->item(2, PoseDock::Box)->setText("box");
        QVERIFY(!poses[2].shape.isRound());
        QCOMPARE(poses[2].mins, Vec3(-24, -24, -40));
        QCOMPARE(table->item(2, PoseDock::Box)->text(), QString("48×48×80"));
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(!poses[2].shape.isRound());

        // Saved with its compiled tree (box poses only, so tree.obsp takes it) and read back.
        QVERIFY(test::waitForCompiledOverlay(*w));
        QTemporaryDir dir;
        const QString path = dir.filePath("capsule.shallot");
        QVERIFY(w->saveTo(path));
        auto reopened = test::openWindow(path);
        QCOMPARE(reopened->editor().document().poses()[1].shape, PoseShape::capsule(16, 56));
        QCOMPARE(reopened->poseDock()->table()->item(1, PoseDock::Box)->text(), QString("capsule 16×56"));
        QVERIFY(test::waitForCompiledOverlay(*reopened));
        QCOMPARE(reopened->editor().compiler().latest()->result->onion.poses.size(), poses.size());
    }
};

QTEST_MAIN(PoseDockGuiTest)
#include "pose_dock_gui_test.moc"

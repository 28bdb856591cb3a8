// What a document was showing comes back when it opens (issue 37, item 7): the pose, the
// overlays, the cell filters and the entity categories shown are saved in the .shallot and
// restored; a level opened for the first time shows its player's walking pose with the
// leaf cells on. Driven through the window's own actions, as the menus trigger them.
#include "gui_test_window.h"
#include "io/shallot_document.h"
#include "io/map_reader.h"
#include "services/view_state.h"

#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;

namespace {

std::string poseShown(MainWindow& w) {
    const int pose = w.editor().currentPose();
    return pose < 0 ? std::string() : w.editor().document().poses()[size_t(pose)].name;
}

constexpr int kMonsters = int(EntityCategory::Monster);

} // namespace

class ViewStateGuiTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void aMapOpensOnItsWalkingPoseWithLeafCells() {
        auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QCOMPARE(poseShown(*w), std::string("player"));
        QVERIFY(w->editor().overlays().isOn(Overlay::Cells));
        QVERIFY(w->action("overlayLeafcells")->isChecked());
        QCOMPARE(w->findChild<QComboBox*>("poseSelector")->currentText(), QString("player"));
        // Half-Life's walking pose is "human" (its player start has Quake's box here, which
        // no Half-Life pose has: the game's player pose by name).
        w->openFile(SHALLOT_SAMPLE_MAPS "/hl_clip_room.map");
        QCOMPARE(poseShown(*w), std::string("human"));
    }

    void viewStateIsSavedAndRestored() {
        const QString file = dir_.filePath("kept.shallot");
        {
            auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
            QVERIFY(test::waitForCompiledOverlay(*w));
            w->findChild<QComboBox*>("poseSelector")->setCurrentText("large");
            w->action("overlayLeafcells")->trigger(); // off
            w->action("overlayPortals")->trigger();   // on
            w->action("overlayWalkable")->trigger();  // on
            w->action("overlayTestrays")->trigger();  // off (on by default)
            w->action("cellsDiffers")->trigger();
            w->action("greyUnreachable")->trigger();
            w->action("cellsByBitset")->trigger();
            w->action(QString("showEntities%1").arg(kMonsters))->trigger(); // hidden
            QVERIFY(w->saveTo(file));
        }
        auto w = test::openWindow(file);
        QCOMPARE(poseShown(*w), std::string("large"));
        const OverlayController& o = w->editor().overlays();
        QVERIFY(!o.isOn(Overlay::Cells));
        QVERIFY(o.isOn(Overlay::Portals));
        QVERIFY(o.isOn(Overlay::Walkable));
        QVERIFY(!o.isOn(Overlay::Rays));
        QVERIFY(!o.isOn(Overlay::Union));
        QCOMPARE(o.cellFilter(), render::CellFilter::DiffersBetweenPoses);
        QCOMPARE(o.cellColouring(), render::CellColouring::ByBitset);
        QVERIFY(o.greyUnreachable());
        QVERIFY(!w->editor().entityCategoryVisible(EntityCategory::Monster));
        QVERIFY(w->editor().entityCategoryVisible(EntityCategory::Item));
        // The menus show it too.
        QVERIFY(!w->action("overlayLeafcells")->isChecked());
        QVERIFY(w->action("overlayPortals")->isChecked());
        QVERIFY(w->action("cellsDiffers")->isChecked());
        QVERIFY(!w->action("cellsEmpty")->isChecked());
        QVERIFY(w->action("greyUnreachable")->isChecked());
        QVERIFY(w->action("cellsByBitset")->isChecked());
        QVERIFY(!w->action(QString("showEntities%1").arg(kMonsters))->isChecked());
        QCOMPARE(w->findChild<QComboBox*>("poseSelector")->currentText(), QString("large"));

        // Opening the level anew from its .map shows the first view again.
        w->openFile(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QCOMPARE(poseShown(*w), std::string("player"));
        QVERIFY(w->editor().overlays().isOn(Overlay::Cells));
    }

    // A document saved before views were kept opens as a level opened for the first time.
    void anOlderDocumentOpensOnTheWalkingPose() {
        const MapReadResult read = readMapFile(SHALLOT_SAMPLE_MAPS "/nav_stairs.map");
        QVERIFY(read.ok());
        const DocumentData data = documentFromMap(*read.map);
        QVERIFY(!data.view);
        const QString file = dir_.filePath("older.shallot");
        QCOMPARE(saveShallot(data, file), QString());
        auto w = test::openWindow(file);
        QCOMPARE(poseShown(*w), std::string("player"));
        QVERIFY(w->editor().overlays().isOn(Overlay::Cells));
        QCOMPARE(walkingPose(w->editor()), 1);
    }

    // The recovery file keeps the view too.
    void theRecoveryFileKeepsTheView() {
        auto w = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        w->action("overlayReachability")->trigger();
        QVERIFY(w->writeRecoveryFile());
        const ShallotLoadResult r = loadShallot(MainWindow::recoveryPath());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.loaded->doc.view);
        QCOMPARE(r.loaded->doc.view->pose, std::string("player"));
        const auto& on = r.loaded->doc.view->overlays;
        QVERIFY(std::find(on.begin(), on.end(), "reach") != on.end());
        QVERIFY(std::find(on.begin(), on.end(), "cells") != on.end());
        QFile::remove(MainWindow::recoveryPath());
    }
};

QTEST_MAIN(ViewStateGuiTest)
#include "view_state_gui_test.moc"

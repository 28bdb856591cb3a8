// Entities in the editor, driven by real mouse and key events under Xvfb: placing,
// selecting, moving, deleting and editing them, and the spawn checks' problems following
// every edit.
#include "document/editor_document.h"
#include "io/map_reader.h"
#include "docks/entity_dock.h"
#include "services/spawn_check_service.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "services/overlay_controller.h"
#include "docks/problems_dock.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QStatusBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;

namespace {

// How many problems of `kind` the entity (its position in the document's list) has.
int problemsOf(MainWindow& w, SpawnProblemKind kind, int entityPosition) {
    int n = 0;
    for (const SpawnProblem& p : w.editor().spawnChecks().problems())
        n += p.kind == kind && p.entity == entityPosition + 1;
    return n;
}

} // namespace

class EntityGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    MainWindow& fresh(const QString& file) {
        window_ = test::openWindow(file);
        return *window_;
    }

    void drag(Viewport2D* view, const Vec3& from, const Vec3& to) {
        test::dragBetween(view, view->toWidget(from).toPoint(), view->toWidget(to).toPoint());
    }

    // figure1_rooms with world brushes added (boxes lo..hi of a texture, which gives their
    // contents: "*water" is water), written to `dir`: its path.
    struct Box {
        Vec3 lo, hi;
        QString texture = "step";
    };
    static QString roomsWithBoxes(const QTemporaryDir& dir, const std::vector<Box>& boxes) {
        QFile in(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        if (!in.open(QIODevice::ReadOnly)) qFatal("cannot read figure1_rooms.map");
        QString text = QString::fromUtf8(in.readAll());
        QString brushes;
        auto p = [](double x, double y, double z) { return QString("( %1 %2 %3 )").arg(x).arg(y).arg(z); };
        for (const auto& [lo, hi, texture] : boxes) {
            const QString t = " " + texture + " 0 0 0 1 1\n";
            const double x0 = lo.x(), y0 = lo.y(), z0 = lo.z(), x1 = hi.x(), y1 = hi.y(), z1 = hi.z();
            brushes += "{\n" + p(x0, y0, z0) + " " + p(x0, y0 + 1, z0) + " " + p(x0, y0, z0 + 1) + t +
                       p(x1, y0, z0) + " " + p(x1, y0, z0 + 1) + " " + p(x1, y0 + 1, z0) + t +
                       p(x0, y0, z0) + " " + p(x0, y0, z0 + 1) + " " + p(x0 + 1, y0, z0) + t +
                       p(x0, y1, z0) + " " + p(x0 + 1, y1, z0) + " " + p(x0, y1, z0 + 1) + t +
                       p(x0, y0, z0) + " " + p(x0 + 1, y0, z0) + " " + p(x0, y0 + 1, z0) + t +
                       p(x0, y0, z1) + " " + p(x0, y0 + 1, z1) + " " + p(x0 + 1, y0, z1) + t + "}\n";
        }
        const QString worldspawn = "\"classname\" \"worldspawn\"\n";
        if (!text.contains(worldspawn)) qFatal("no worldspawn in figure1_rooms.map");
        text.replace(text.indexOf(worldspawn), worldspawn.size(), worldspawn + brushes);
        const QString path = dir.filePath("rooms_with_boxes.map");
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        out.write(text.toUtf8());
        return path;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    // figure1_rooms: the lower room is x 200..600, y 200..400, floor z 0; its west wall
    // x 184..200. The player start stands at 400 300 24.
    void aMonsterPlacedIntoAWallIsStuckUntilMovedOutAndUndoBringsItBack() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForSpawnChecks(w));
        QVERIFY(w.editor().spawnChecks().problems().empty());
        // The 3D camera opened at the player start's eye.
        QCOMPARE(doc.data().camera.position, Vec3(400, 300, 46));

        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        w.entityDock()->classChooser()->setCurrentText("monster_army");
        w.action("toolEntity")->trigger();
        const size_t before = doc.entities().size();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(320, 256, 0)).toPoint());
        QCOMPARE(doc.entities().size(), before + 1);
        const int monster = int(before);
        QCOMPARE(doc.entities().back().classname(), std::string("monster_army"));
        QCOMPARE(*doc.entities().back().origin(), Vec3(320, 256, 24)); // standing on the floor
        QCOMPARE(doc.entitySelection(), std::vector<int>{monster});
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, monster), 0);

        // Dragged with the select tool into the west wall: stuck, listed and drawn red.
        w.action("toolSelect")->trigger();
        drag(top, Vec3(320, 256, 0), Vec3(192, 256, 0));
        QCOMPARE(*doc.entities()[size_t(monster)].origin(), Vec3(192, 256, 24));
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, monster), 1);
        QVERIFY(std::binary_search(w.editor().problemEntities().begin(), w.editor().problemEntities().end(), monster));
        QListWidget* list = w.problemsDock()->list();
        QList<QListWidgetItem*> stuck = list->findItems("stuck", Qt::MatchStartsWith);
        QCOMPARE(stuck.size(), 1);
        // Clicking the problem selects the entity.
        doc.setEntitySelection({});
        list->itemClicked(stuck.front());
        QCOMPARE(doc.entitySelection(), std::vector<int>{monster});

        // Moved back out: the problem goes.
        drag(top, Vec3(192, 256, 0), Vec3(320, 256, 0));
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, monster), 0);
        QVERIFY(list->findItems("stuck", Qt::MatchStartsWith).isEmpty());

        // Undo puts it back in the wall, and the problem with it.
        w.action("undo")->trigger();
        QCOMPARE(*doc.entities()[size_t(monster)].origin(), Vec3(192, 256, 24));
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, monster), 1);
    }

    // An ogre clicked into the lower room's west wall (x 184..200) in the top view goes there,
    // at the working height, not onto the wall's top, and is stuck; one clicked on the floor
    // stands on it, and an item clicked over a pool on the pool's floor (water is no floor).
    void anEntityClickedIntoAWallGoesThereAndIsFlagged() {
        QTemporaryDir dir;
        MainWindow& w = fresh(roomsWithBoxes(dir, {{Vec3(448, 320, 0), Vec3(576, 384, 32), "*water1"}}));
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        w.entityDock()->classChooser()->setCurrentText("monster_ogre");
        w.action("toolEntity")->trigger();
        const int inWall = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(192, 320, 0)).toPoint());
        QCOMPARE(int(doc.entities().size()), inWall + 1);
        const double working = doc.workingPoint().z(); // the player start's eye, 46
        QCOMPARE(*doc.entities().back().origin(), Vec3(192, 320, w.editor().snap(working)));
        const int onFloor = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(480, 256, 0)).toPoint());
        QCOMPARE(*doc.entities().back().origin(), Vec3(480, 256, 24)); // its box (feet at -24) on the floor
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, inWall), 1);
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, onFloor), 0);
        QVERIFY(std::binary_search(w.editor().problemEntities().begin(), w.editor().problemEntities().end(), inWall));
        w.entityDock()->classChooser()->setCurrentText("item_health");
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(512, 352, 0)).toPoint());
        QCOMPARE(*doc.entities().back().origin(), Vec3(512, 352, 0)); // under the water, on the floor
        // An item clicked into the wall falls out of the level "in solid".
        w.entityDock()->classChooser()->setCurrentText("item_health");
        const int item = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(192, 256, 0)).toPoint());
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::FellOut, item), 1);
        QList<QListWidgetItem*> fell = w.problemsDock()->list()->findItems("fell out", Qt::MatchStartsWith);
        QCOMPARE(fell.size(), 1);
        QVERIFY2(fell.front()->text().contains("in solid"), qPrintable(fell.front()->text()));
    }

    // In the top view a monster moved onto a step (16 high) rises with it and back down off
    // it; one moved off a balcony (128 high) lands on the floor below; with Alt held it
    // keeps its height (into the step: stuck); in the front view it moves freely.
    void movingInTheTopViewKeepsTheHeightAboveTheFloor() {
        QTemporaryDir dir;
        MainWindow& w = fresh(roomsWithBoxes(dir, {{Vec3(448, 224, 0), Vec3(512, 288, 16)},     // a step
                                                   {Vec3(216, 320, 0), Vec3(280, 384, 128)}})); // a balcony
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        w.entityDock()->classChooser()->setCurrentText("monster_army");
        w.action("toolEntity")->trigger();
        const int army = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(352, 256, 0)).toPoint());
        QCOMPARE(*doc.entities()[size_t(army)].origin(), Vec3(352, 256, 24));
        auto origin = [&] { return *doc.entities()[size_t(army)].origin(); };

        w.action("toolSelect")->trigger();
        drag(top, Vec3(352, 256, 0), Vec3(480, 256, 0));
        QCOMPARE(origin(), Vec3(480, 256, 16 + 24)); // up onto the step
        drag(top, Vec3(480, 256, 0), Vec3(352, 256, 0));
        QCOMPARE(origin(), Vec3(352, 256, 24)); // down again
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, army), 0);

        // Alt: the absolute height stays, the box sinks into the step.
        const QPoint from = top->toWidget(Vec3(352, 256, 0)).toPoint(), to = top->toWidget(Vec3(480, 256, 0)).toPoint();
        QTest::mousePress(top, Qt::LeftButton, Qt::AltModifier, from);
        for (int i = 1; i <= 4; ++i) QTest::mouseMove(top, from + (to - from) * i / 4);
        QTest::mouseRelease(top, Qt::LeftButton, Qt::AltModifier, to);
        QCOMPARE(origin(), Vec3(480, 256, 24));
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, army), 1);

        // The front view (x across, z up) moves it freely: up 64.
        Viewport2D* front = w.view2d(1);
        front->frame({Vec3(150, 0, -32), Vec3(650, 0, 288)});
        drag(front, Vec3(480, 0, 24), Vec3(480, 0, 88));
        QCOMPARE(origin(), Vec3(480, 256, 88));

        // Placed on the balcony (the working height above it), then moved off it in the top
        // view: onto the floor below, not left in the air.
        Vec3 working = doc.workingPoint();
        working.z() = 160;
        doc.setWorkingPoint(working);
        w.action("toolEntity")->trigger();
        const int high = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(256, 352, 0)).toPoint());
        QCOMPARE(*doc.entities()[size_t(high)].origin(), Vec3(256, 352, 128 + 24));
        w.action("toolSelect")->trigger();
        drag(top, Vec3(256, 352, 0), Vec3(352, 352, 0));
        QCOMPARE(*doc.entities()[size_t(high)].origin(), Vec3(352, 352, 24));
        w.action("undo")->trigger();
        QCOMPARE(*doc.entities()[size_t(high)].origin(), Vec3(256, 352, 128 + 24));
    }

    void twoMonstersOnTopOfEachOtherAreBothStuck() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        w.entityDock()->classChooser()->setCurrentText("monster_ogre");
        w.action("toolEntity")->trigger();
        const int first = int(doc.entities().size());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(480, 320, 0)).toPoint());
        // Duplicated one grid step along x: the boxes (64 wide) overlap.
        w.action("duplicate")->trigger();
        QCOMPARE(int(doc.entities().size()), first + 2);
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, first), 1);
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, first + 1), 1);
        // Deleting one frees the other; undo and redo are one step each.
        w.action("delete")->trigger();
        QCOMPARE(int(doc.entities().size()), first + 1);
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(problemsOf(w, SpawnProblemKind::Stuck, first), 0);
        w.action("undo")->trigger();
        QCOMPARE(int(doc.entities().size()), first + 2);
        w.action("redo")->trigger();
        QCOMPARE(int(doc.entities().size()), first + 1);
    }

    void keysAreEditedInTheDockAndSavedWithTheDocument() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        // A click on the player start's box selects it (not the floor under it).
        w.action("toolSelect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(400, 300, 0)).toPoint());
        QCOMPARE(doc.entitySelection().size(), size_t(1));
        QVERIFY(doc.selection().empty());
        const int start = doc.entitySelection().front();
        QTableWidget* keys = w.entityDock()->keyTable();
        QTRY_COMPARE(keys->rowCount(), int(doc.entities()[size_t(start)].keys.size())); // refilled from the event loop
        // Set the angle through the table, as a designer types it.
        int angleRow = -1;
        for (int r = 0; r < keys->rowCount(); ++r)
            if (keys->item(r, 0)->text() == "angle") angleRow = r;
        if (angleRow < 0) {
            const int rows = keys->rowCount();
            QTest::mouseClick(w.entityDock()->findChild<QPushButton*>("addKey"), Qt::LeftButton);
            QTRY_COMPARE(keys->rowCount(), rows + 1);
            angleRow = keys->rowCount() - 1;
            keys->item(angleRow, 0)->setText("angle");
        }
        keys->item(angleRow, 1)->setText("90");
        QCOMPARE(*doc.entities()[size_t(start)].value("angle"), std::string("90"));

        QTemporaryDir dir;
        const QString path = dir.filePath("entities.shallot");
        QVERIFY(w.saveTo(path));
        MainWindow& reopened = fresh(path);
        QCOMPARE(*reopened.editor().document().entities()[size_t(start)].value("angle"), std::string("90"));
        // The camera looks along the start's angle.
        QTRY_COMPARE(reopened.editor().document().data().camera.yawDegrees, 90.0);
    }

    // A .fgd's sizes win over Quake's and travel with the document; a malformed one is
    // refused with where it went wrong, and the document keeps the classes it had.
    void entityDefinitionsAreLoadedKeptAndMalformedOnesRefused() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        int start = -1;
        for (size_t i = 0; i < doc.entities().size(); ++i)
            if (doc.entities()[i].classname() == "info_player_start") start = int(i);
        QVERIFY(start >= 0);
        QCOMPARE(w.editor().entityBox(start).maxs.z() - w.editor().entityBox(start).mins.z(), 56.0);

        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(name));
            f.write(text);
            return dir.filePath(name);
        };
        const QString bad = write("bad.fgd", "@PointClass size(-16 -16 -24, 16 16 \"oops\"\n");
        QVERIFY(!w.loadEntityDefinitions(bad));
        QVERIFY2(w.lastError().contains("bad.fgd:1:"), qPrintable(w.lastError()));
        QVERIFY(doc.data().entityDefinitions.empty());
        QCOMPARE(w.editor().entityBox(start).maxs.z() - w.editor().entityBox(start).mins.z(), 56.0);

        const QString good = write("tall.fgd", "@PointClass size(-16 -16 -24, 16 16 72) color(255 0 255) = info_player_start : \"Tall start\" []\n");
        QVERIFY(w.loadEntityDefinitions(good));
        QCOMPARE(w.editor().entityBox(start).maxs.z() - w.editor().entityBox(start).mins.z(), 96.0);
        QVERIFY(!doc.data().entityDefinitions.empty());
        // One undo step takes it back.
        w.action("undo")->trigger();
        QCOMPARE(w.editor().entityBox(start).maxs.z() - w.editor().entityBox(start).mins.z(), 56.0);
        w.action("redo")->trigger();

        const QString path = dir.filePath("with_fgd.shallot");
        QVERIFY(w.saveTo(path));
        QFile::remove(good); // the document keeps the file's text
        MainWindow& reopened = fresh(path);
        QCOMPARE(reopened.editor().entityBox(start).maxs.z() - reopened.editor().entityBox(start).mins.z(), 96.0);
    }

    // Exported to .map, the level's entities come back key for key, with the new one.
    void aPlacedEntityIsExportedToTheMapAndTheOthersUnchanged() {
        const QString source = SHALLOT_SHARED_MAPS "/id_e1m1.map";
        if (!QFile::exists(source)) QSKIP("no shared id_e1m1.map");
        MainWindow& w = fresh(source);
        EditorDocument& doc = w.editor().document();
        const std::vector<MapEntity> before = doc.entities();
        Viewport2D* top = w.view2d(0);
        QVERIFY(w.goToPlayerStart(true));
        w.entityDock()->classChooser()->setCurrentText("item_health");
        w.action("toolEntity")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(480, -320, 0)).toPoint());
        QCOMPARE(doc.entities().size(), before.size() + 1);

        QTemporaryDir dir;
        const QString path = dir.filePath("e1m1_health.map");
        QVERIFY(w.saveTo(path));
        const MapReadResult read = readMapFile(path.toStdString());
        QVERIFY2(read.ok(), read.error.format().c_str());
        std::vector<std::vector<std::pair<std::string, std::string>>> written;
        for (const MapEntity& e : read.map->entities)
            if (e.classname() != "worldspawn") written.push_back(e.keys);
        QCOMPARE(written.size(), before.size() + 1);
        for (size_t i = 0; i < before.size(); ++i) QVERIFY(written[i] == before[i].keys);
        QVERIFY(written.back() == doc.entities().back().keys);
        QCOMPARE(doc.entities().back().classname(), std::string("item_health"));
    }

    // A door (a brush entity) is picked where it is on top in the view, and moves with its
    // brushes as one step.
    void aDoorIsPickedWhereItIsOnTopAndMovesWithItsBrushes() {
        QTemporaryDir dir;
        const QString path = dir.filePath("door.map");
        {
            QFile in(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map"), out(path);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            out.write(in.readAll());
            // A door in the corridor's mouth: x 300..500, y 400..416, z 0..128.
            out.write("{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n{\n"
                      "( 300 400 0 ) ( 300 401 0 ) ( 300 400 1 ) door 0 0 0 1 1\n"
                      "( 500 400 0 ) ( 500 400 1 ) ( 500 401 0 ) door 0 0 0 1 1\n"
                      "( 300 400 0 ) ( 300 400 1 ) ( 301 400 0 ) door 0 0 0 1 1\n"
                      "( 300 416 0 ) ( 301 416 0 ) ( 300 416 1 ) door 0 0 0 1 1\n"
                      "( 300 400 0 ) ( 301 400 0 ) ( 300 401 0 ) door 0 0 0 1 1\n"
                      "( 300 400 128 ) ( 300 401 128 ) ( 301 400 128 ) door 0 0 0 1 1\n}\n}\n");
        }
        MainWindow& w = fresh(path);
        EditorDocument& doc = w.editor().document();
        int door = -1;
        for (size_t i = 0; i < doc.entities().size(); ++i)
            if (doc.entities()[i].classname() == "func_door") door = int(i);
        QVERIFY(door >= 0);
        QCOMPARE(w.editor().entityBox(door).mins, Vec3(300, 400, 0));
        QCOMPARE(w.editor().entityBox(door).maxs, Vec3(500, 416, 128));
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 650, 256)});
        // The ceiling (brush 1) is on top of everything in the top view: delete it first.
        doc.setSelection({1});
        w.action("delete")->trigger();
        w.action("toolSelect")->trigger();
        // On the floor beside it, the floor; on the door, the door.
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(400, 350, 0)).toPoint());
        QVERIFY(doc.entitySelection().empty());
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(400, 408, 0)).toPoint());
        QCOMPARE(doc.entitySelection(), std::vector<int>{door});
        QVERIFY(doc.selection().empty());
        drag(top, Vec3(400, 408, 0), Vec3(432, 408, 0));
        QCOMPARE(w.editor().entityBox(door).mins, Vec3(332, 400, 0));
        QCOMPARE(doc.entities()[size_t(door)].brushes.size(), size_t(1));
        w.action("undo")->trigger();
        QCOMPARE(w.editor().entityBox(door).mins, Vec3(300, 400, 0));
    }

    // A wall cut open: the leak is in the Problems dock for every pose without being asked,
    // its path drawn; clicking it frames the path; undo seals the level again.
    void aCutWallShowsItsLeakInTheProblemsDock() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForSpawnChecks(w));
        QVERIFY(w.problemsDock()->list()->findItems("leak", Qt::MatchStartsWith).isEmpty());
        doc.setSelection({13}); // the upper room's north wall: x 200..600, y 800..816
        w.action("delete")->trigger();
        QVERIFY(test::waitForSpawnChecks(w));
        const QList<QListWidgetItem*> leaks = w.problemsDock()->list()->findItems("leak", Qt::MatchStartsWith);
        QCOMPARE(leaks.size(), int(doc.poses().size()));
        QVERIFY(leaks.front()->text().contains("pose point"));
        QVERIFY(!w.editor().scene().layer(render::Layer::ProblemPaths).chunkList().empty());
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-4000, -4000, 0), Vec3(4000, 4000, 256)});
        w.problemsDock()->list()->itemClicked(leaks.front());
        QVERIFY(top->zoom() > 0.2); // framed on the path, not on the world box
        w.action("undo")->trigger();
        QVERIFY(test::waitForSpawnChecks(w));
        QVERIFY(w.problemsDock()->list()->findItems("leak", Qt::MatchStartsWith).isEmpty());
        QVERIFY(w.editor().scene().layer(render::Layer::ProblemPaths).chunkList().empty());
    }

    // Reachability switched on uses the player start; without one the status bar says how.
    void reachabilityStartsAtThePlayerStartOrSaysHowToSetOne() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        w.action("overlayReachability")->setChecked(true);
        QCOMPARE(*w.editor().overlays().reachStart(), Vec3(400, 300, 24));
        MainWindow& empty = fresh(SHALLOT_SAMPLE_MAPS "/sealed_box.map");
        empty.newDocument(); // no entities at all
        empty.action("overlayReachability")->setChecked(true);
        QVERIFY(!empty.editor().overlays().reachStart());
        QVERIFY2(empty.statusBar()->currentMessage().contains("Reach from this point"), qPrintable(empty.statusBar()->currentMessage()));
    }

    void hidingACategoryHidesItsEntitiesAndTheirPicking() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(650, 450, 256)});
        const size_t drawn = w.editor().scene().layer(render::Layer::EntityEdges).chunkList().size();
        QVERIFY(drawn > 0);
        w.action("showEntities0")->setChecked(false); // player starts
        QVERIFY(w.editor().scene().layer(render::Layer::EntityEdges).chunkList().empty());
        // The 3D camera opened at the player start: its marker would take the click.
        CameraState away = doc.data().camera;
        away.position = Vec3(400, 700, 46);
        doc.setCamera(away);
        w.action("toolSelect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(400, 300, 0)).toPoint());
        QVERIFY(doc.entitySelection().empty()); // the floor brush is picked instead
        QCOMPARE(doc.selection().size(), size_t(1));
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    EntityGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "entity_gui_test.moc"

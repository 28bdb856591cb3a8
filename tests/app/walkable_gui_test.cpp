// The Walkable overlay and the test rays' walking paths, driven by real mouse and key
// events under Xvfb on maps/low_tunnel.map: two rooms joined by a tunnel 48 high that a
// crouching box (28 tall) walks through and a standing one (56) does not; and the Path
// tool with the Poses dock's walking settings on maps/nav_stairs.map.
#include "docks/entity_dock.h"
#include "docks/pose_dock.h"
#include "docks/problems_dock.h"
#include "docks/ray_dock.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "nav_overlay.h"
#include "services/overlay_controller.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>
#include <algorithm>
#include <array>

using namespace shallot;

class WalkableGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    // maps/nav_stairs.map for the player, the working height at `workingZ`, the top view
    // framing the room and the Path tool on with the meshes built: the top view, or null.
    Viewport2D* openStairsWithThePathTool(double workingZ) {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/nav_stairs.map");
        MainWindow& w = *window_;
        if (!test::waitForCompiledOverlay(w)) return nullptr;
        w.editor().setCurrentPose(1); // player
        Vec3 working = w.editor().document().workingPoint();
        working.z() = workingZ;
        w.editor().document().setWorkingPoint(working);
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-50, -50, 0), Vec3(1100, 650, 0)});
        w.action("toolPath")->trigger();
        if (!QTest::qWaitFor([&] { return w.editor().overlays().nav().meshes() != nullptr; }, 20000)) return nullptr;
        return top;
    }

    // The positions of a layer's vertices, and of a drawing's, sorted (chunks group a
    // drawing's primitives by place, in another order).
    using Positions = std::vector<std::array<float, 3>>;
    static Positions positions(const std::vector<render::MeshChunk>& chunks) {
        Positions out;
        for (const render::MeshChunk& c : chunks)
            for (const render::Vertex& v : c.geometry->vertices) out.push_back({v.position[0], v.position[1], v.position[2]});
        std::sort(out.begin(), out.end());
        return out;
    }
    static Positions positions(const render::MeshBatch& batch) {
        Positions out;
        for (const render::Vertex& v : batch.vertices) out.push_back({v.position[0], v.position[1], v.position[2]});
        std::sort(out.begin(), out.end());
        return out;
    }
    // Whether the Walkable layers show the current pose's mesh and travel as drawing them now
    // does (they are drawn on the builds' threads and set only when what they show changed).
    static bool walkableLayersAsDrawnNow(MainWindow& w) {
        const auto& scene = w.editor().scene();
        const auto& meshes = w.editor().overlays().nav().meshes();
        const int pose = w.editor().currentPose();
        const NavMesh* mesh = meshes ? meshes->mesh(pose) : nullptr;
        if (!w.editor().overlays().isOn(Overlay::Walkable) || !mesh)
            return scene.layer(render::Layer::Walkable).chunkList().empty() && scene.layer(render::Layer::WalkableLinks).chunkList().empty();
        const double feet = meshes->world->result->onion.poses[size_t(pose)].mins.z();
        render::MeshBatch travel;
        if (const TravelGraph* graph = meshes->travelOf(pose))
            travel = render::walkableTravel(*graph, meshes->travelWorld->result->onion.poses[size_t(pose)]);
        return positions(scene.layer(render::Layer::Walkable).chunkList()) == positions(render::walkableSurfaces(*mesh, feet)) &&
               positions(scene.layer(render::Layer::WalkableLinks).chunkList()) == positions(render::walkableLinks(*mesh, feet)) &&
               positions(scene.layer(render::Layer::WalkableTravel).chunkList()) == positions(travel);
    }
    static bool walkingSettled(MainWindow& w) {
        return QTest::qWaitFor([&] {
            const auto& o = w.editor().overlays();
            return o.compiled() && o.compiled()->revision == w.editor().document().worldRevision() && o.nav().upToDate(o.compiled()) &&
                   !o.nav().busy();
        }, 20000);
    }

private slots:
    // The Walkable layers after edits, pose switches and the overlay toggled are the current
    // pose's mesh and travel drawn now.
    void theWalkableLayersFollowEditsPosesAndTheToggle() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/low_tunnel.map");
        MainWindow& w = *window_;
        QVERIFY(test::waitForCompiledOverlay(w));
        w.editor().setCurrentPose(1);
        w.action("overlayWalkable")->trigger();
        QVERIFY(walkingSettled(w));
        QVERIFY(!w.editor().scene().layer(render::Layer::Walkable).chunkList().empty());
        QVERIFY(walkableLayersAsDrawnNow(w));
        EditorDocument& doc = w.editor().document();
        doc.insertBrushes({{int(doc.brushes().size()), Brush::box({160, 96, 0}, {192, 160, 32})}});
        QVERIFY(walkingSettled(w));
        QVERIFY(walkableLayersAsDrawnNow(w));
        w.editor().setCurrentPose(2);
        QVERIFY(walkingSettled(w));
        QVERIFY(walkableLayersAsDrawnNow(w));
        doc.undoStack()->undo();
        QVERIFY(walkingSettled(w));
        QVERIFY(walkableLayersAsDrawnNow(w));
        w.action("overlayWalkable")->trigger(); // off
        QVERIFY(walkableLayersAsDrawnNow(w));
        QVERIFY(w.editor().scene().layer(render::Layer::Walkable).chunkList().empty());
        w.editor().setCurrentPose(1);
        w.action("overlayWalkable")->trigger(); // on again
        QVERIFY(walkingSettled(w));
        QVERIFY(walkableLayersAsDrawnNow(w));
        QVERIFY(!w.editor().scene().layer(render::Layer::Walkable).chunkList().empty());
    }

    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    void aRayThroughTheTunnelHasAWalkingPathForTheCrouchOnly() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/low_tunnel.map");
        MainWindow& w = *window_;
        QVERIFY(test::waitForCompiledOverlay(w));
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-50, -50, 0), Vec3(700, 300, 0)});
        QCOMPARE(w.action("overlayWalkable")->shortcut(), QKeySequence("Alt+6"));
        w.action("overlayWalkable")->trigger();
        QVERIFY(QTest::qWaitFor([&] { return w.editor().overlays().nav().meshes() != nullptr; }, 20000));
        QVERIFY(!w.editor().scene().layer(render::Layer::Walkable).chunkList().empty());

        w.action("toolRay")->trigger();
        const QPoint a = top->toWidget(Vec3(128, 128, 0)).toPoint(), b = top->toWidget(Vec3(512, 128, 0)).toPoint();
        test::dragBetween(top, a, b);
        QCOMPARE(w.editor().document().rays().size(), size_t(1));
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() == 3; }, 20000));
        QVERIFY(!paths[0][1].found);                      // stand: the tunnel is too low
        QVERIFY(paths[0][2].found);                       // crouch walks through it
        QVERIFY(paths[0][2].length >= 512 - 128 - 1e-6);  // no shorter than the straight line
        QVERIFY(paths[0][2].length < (512 - 128) * 1.05);
        // The rays dock says so, pose by pose.
        QTableWidget* table = w.rayDock()->table();
        QTRY_COMPARE(table->item(1, 8)->text(), QString("none"));
        QVERIFY2(table->item(1, 8)->toolTip().contains("not reached from the start's"), qPrintable(table->item(1, 8)->toolTip()));
        QVERIFY2(QRegularExpression("^\\d+ units, \\d+\\.\\d s$").match(table->item(2, 8)->text()).hasMatch(), qPrintable(table->item(2, 8)->text()));
        // Switched to the crouch, the overlay draws its surfaces (through the tunnel: one
        // connected area) and the ray's path.
        w.editor().setCurrentPose(2);
        const NavMesh& mesh = *w.editor().overlays().nav().meshes()->poses[2];
        QCOMPARE(mesh.polygons[size_t(mesh.polygonAt(paths[0][2].points.front()))].component,
                 mesh.polygons[size_t(mesh.polygonAt(paths[0][2].points.back()))].component);
    }

    // The Path tool on maps/nav_stairs.map: a drag from the floor to the landing of the
    // 24-unit stairs finds no path for the player (Quake's step is 18) until the Poses
    // dock gives the player a step of 24; undo takes it back.
    void thePathToolDrawsThePathAndThePosesDockStepChangesIt() {
        Viewport2D* top = openStairsWithThePathTool(144); // above both landings (96)
        QVERIFY(top);
        MainWindow& w = *window_;
        QCOMPARE(w.action("toolPath")->shortcut(), QKeySequence("G"));
        test::dragBetween(top, top->toWidget(Vec3(96, 48, 0)).toPoint(), top->toWidget(Vec3(928, 464, 0)).toPoint());
        const auto& rays = w.editor().document().rays();
        QCOMPARE(rays.size(), size_t(1));
        QVERIFY(rays[0].path);
        QCOMPARE(rays[0].from.z(), 25.0);      // on the floor, the player's box 1 unit above it
        QCOMPARE(rays[0].to.z(), 96.0 + 25.0); // on the landing
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() == 3; }, 20000));
        QVERIFY(!paths[0][1].found);
        QTableWidget* rayTable = w.rayDock()->table();
        QTRY_COMPARE(rayTable->item(1, 8)->text(), QString("none"));
        QTableWidget* poses = w.poseDock()->table();
        QCOMPARE(poses->horizontalHeaderItem(PoseDock::Walk)->text(), QString("Walk")); // step drop jump slope
        QCOMPARE(poses->item(1, PoseDock::Walk)->text(), QString("quake")); // Quake's rules, in short
        QCOMPARE(poses->item(1, PoseDock::Walk)->data(PoseDock::kFullTextRole).toString(), QString("18 any off 0.7"));
        poses->item(1, PoseDock::Walk)->setText("24 any off 0.7");
        QCOMPARE(w.editor().document().poses()[1].nav.stepHeight, 24.0);
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() == 3 && paths[0][1].found; }, 20000));
        QVERIFY(!paths[0][2].found); // the large pose still steps 18
        QTRY_VERIFY(QRegularExpression("^\\d+ units, \\d+\\.\\d s$").match(rayTable->item(1, 8)->text()).hasMatch());
        // A step typed wrong is refused with a reason, and changes nothing.
        poses->item(1, PoseDock::Walk)->setText("high any off 0.7");
        QVERIFY(w.poseDock()->message()->isVisible());
        QCOMPARE(w.editor().document().poses()[1].nav.stepHeight, 24.0);
        w.editor().document().undoStack()->undo();
        QCOMPARE(w.editor().document().poses()[1].nav.stepHeight, 18.0);
        // View > Colour Legends hides the legends (they cover paths in a small view), kept.
        QCOMPARE(w.action("legends")->shortcut(), QKeySequence("Ctrl+L"));
        QVERIFY(w.editor().legendsShown());
        w.action("legends")->trigger();
        QVERIFY(!w.editor().legendsShown());
        QCOMPARE(QSettings().value("view/legends").toBool(), false);
        w.action("legends")->trigger();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() == 3 && !paths[0][1].found; }, 20000));
    }

    // Below the working height the top view's floor under the cursor is the highest brush
    // top that no other brush covers: a path's end dragged onto the landing of the 16-unit
    // stairs, the working height under it, stands on the landing (not on the room's floor
    // under the stairs, in solid), and the player walks up there.
    void aPathEndOnALandingAboveTheWorkingHeightStandsOnIt() {
        Viewport2D* top = openStairsWithThePathTool(48); // under the landings (96)
        QVERIFY(top);
        MainWindow& w = *window_;
        test::dragBetween(top, top->toWidget(Vec3(96, 48, 0)).toPoint(), top->toWidget(Vec3(944, 96, 0)).toPoint());
        const auto& rays = w.editor().document().rays();
        QCOMPARE(rays.size(), size_t(1));
        QCOMPARE(rays[0].from.z(), 25.0);      // on the floor
        QCOMPARE(rays[0].to.z(), 96.0 + 25.0); // on the landing
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() == 3; }, 20000));
        QVERIFY(paths[0][1].found);
    }

    // A soldier placed on the landing of the 24-unit stairs drops down to the player; once
    // the Poses dock forbids the player pose (its pose) any drop, the two never meet on foot:
    // an "unreachable (walking)" problem in the Problems dock, gone again on undo.
    void aMonsterThatNeverMeetsThePlayerOnFootIsAProblem() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/nav_stairs.map");
        MainWindow& w = *window_;
        QVERIFY(test::waitForCompiledOverlay(w));
        EditorDocument& doc = w.editor().document();
        Vec3 working = doc.workingPoint();
        working.z() = 144;
        doc.setWorkingPoint(working);
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-50, -50, 0), Vec3(1100, 650, 0)});
        w.entityDock()->classChooser()->setCurrentText("monster_army");
        w.action("toolEntity")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(928, 464, 0)).toPoint());
        QCOMPARE(doc.entities().back().classname(), std::string("monster_army"));
        QCOMPARE(doc.entities().back().origin()->z(), 96.0 + 24.0); // on the landing
        const int monster = int(doc.entities().size()); // its entity number (worldspawn 0)
        auto walkingProblems = [&] {
            int n = 0;
            for (const SpawnProblem& p : w.editor().spawnChecks().problems())
                n += p.kind == SpawnProblemKind::UnreachableWalking && p.entity == monster;
            return n;
        };
        auto checked = [&] { return test::spawnChecksCurrent(w); };
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(walkingProblems(), 0);
        w.poseDock()->table()->item(1, PoseDock::Walk)->setText("18 0 off 0.7"); // Drop 0
        QCOMPARE(doc.poses()[1].nav.maxDrop, 0.0);
        QVERIFY(QTest::qWaitFor([&] { return checked() && walkingProblems() == 1; }, 20000));
        QListWidget* list = w.problemsDock()->list();
        QTRY_COMPARE(list->findItems("unreachable (walking): monster_army", Qt::MatchStartsWith).size(), qsizetype(1));
        doc.undoStack()->undo();
        QVERIFY(QTest::qWaitFor([&] { return checked() && walkingProblems() == 0; }, 20000));
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    WalkableGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "walkable_gui_test.moc"

// Typed travel in the editor (issue 40, item 4): the Path tool's paths go through doors,
// lifts and teleporters as `shallot-cli query`'s do and say so (status bar, rays dock, the
// path's colours); the Walkable overlay draws the travel links; an entity edit changes the
// travel without a recompile; the Problems dock's walking check opens the doors.
#include "docks/problems_dock.h"
#include "docks/ray_dock.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "nav_overlay.h"
#include "services/mover_states.h"
#include "services/nav_service.h"
#include "services/overlay_controller.h"
#include "views/legend.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <future>

using namespace shallot;

namespace {

constexpr int kPlayer = 1; // Quake's poses: point, player, large

QString entityText(const QString& keys, const QString& brushes = {}) { return "{\n" + keys + brushes + "}\n"; }

// A closed room x -512..512, y -256..256, floor top z 0, ceiling at 256, parted by a wall
// at x -8..8, with a doorway y -32..32 up to z 128 when `doorway`; the player starts in the
// west half, `more` after it.
QString partedRoom(bool doorway, const QString& more) {
    QString world = test::boxBrushText(-528, -272, -16, 528, 272, 0) + test::boxBrushText(-528, -272, 256, 528, 272, 272) +
                    test::boxBrushText(-528, -272, 0, -512, 272, 256) + test::boxBrushText(512, -272, 0, 528, 272, 256) +
                    test::boxBrushText(-512, -272, 0, 512, -256, 256) + test::boxBrushText(-512, 256, 0, 512, 272, 256);
    if (doorway)
        world += test::boxBrushText(-8, -256, 0, 8, -32, 256) + test::boxBrushText(-8, 32, 0, 8, 256, 256) +
                 test::boxBrushText(-8, -32, 128, 8, 32, 256);
    else world += test::boxBrushText(-8, -256, 0, 8, 256, 256);
    return entityText("\"classname\" \"worldspawn\"\n", world) +
           entityText("\"classname\" \"info_player_start\"\n\"origin\" \"-400 0 24\"\n") + more;
}

// The door `d` across the doorway (entity 2), opened only when fired.
const QString kNamedDoor =
    entityText("\"classname\" \"func_door\"\n\"targetname\" \"d\"\n\"angle\" \"-1\"\n", test::boxBrushText(-4, -32, 0, 4, 32, 128));
// A trigger on the west side that fires it (entity 3).
const QString kTrigger =
    entityText("\"classname\" \"trigger_once\"\n\"target\" \"d\"\n", test::boxBrushText(-200, -64, 0, -136, 64, 64));

} // namespace

class TravelGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;

    // `text` saved as a .map and opened, the player current, the top view framing the room,
    // the working height at 64; with a tool, that tool on and the meshes built: the top
    // view, or null.
    Viewport2D* open(const QString& text, const char* tool) {
        const QString file = dir_.filePath("travel.map");
        if (!test::writeLevel(file, text)) return nullptr;
        window_ = test::openWindow(file);
        MainWindow& w = *window_;
        if (!test::waitForCompiledOverlay(w)) return nullptr;
        w.editor().setCurrentPose(kPlayer);
        w.editor().document().setWorkingPoint(Vec3(0, 0, 64));
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-560, -300, 0), Vec3(560, 300, 0)});
        if (!tool) return top;
        w.action(tool)->trigger();
        // The travel too: it walks the world without the movers, compiled after the first
        // compile at the lowest priority (background_jobs.h).
        if (!QTest::qWaitFor([&] {
                const auto& meshes = w.editor().overlays().nav().meshes();
                return meshes && meshes->travelOf(kPlayer);
            }, 20000))
            return nullptr;
        // And no newer travel on its way (under load the world without the movers can
        // come late, and its travel replace this one while a drag is asked about).
        if (!travelCurrent()) return nullptr;
        return top;
    }

    // The parted room with its door and trigger, the Walkable overlay on and the player's
    // travel shown, nothing newer on its way.
    bool openWithTravelShown() {
        if (!open(partedRoom(true, kNamedDoor + kTrigger), nullptr)) return false;
        window_->action("overlayWalkable")->trigger();
        const NavService& nav = window_->editor().overlays().nav();
        return QTest::qWaitFor([&] { return nav.meshes() && nav.meshes()->travelOf(kPlayer); }, 20000) && travelCurrent();
    }

    bool travelCurrent() {
        MainWindow& w = *window_;
        return QTest::qWaitFor([&] {
            const auto& o = w.editor().overlays();
            return o.compiled() && o.nav().upToDate(o.compiled()) && !o.nav().busy();
        }, 20000);
    }

    static bool has(const TravelPath& p, TravelKind kind) {
        return std::any_of(p.travel.begin(), p.travel.end(), [&](const TravelStep& s) { return s.kind == kind; });
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }
    void cleanup() { window_.reset(); }

    // A drag across the doorway: through the door once the trigger fires it, the trigger
    // first; the status bar, the rays dock and the 2D label give its time; deleting the
    // trigger (an entity edit, no brush of the world changed) leaves no path.
    void aPathGoesThroughTheDoorItsTriggerOpens() {
        Viewport2D* top = open(partedRoom(true, kNamedDoor + kTrigger), "toolPath");
        QVERIFY(top);
        MainWindow& w = *window_;
        const QPoint west = top->toWidget(Vec3(-300, 0, 0)).toPoint(), east = top->toWidget(Vec3(300, 0, 0)).toPoint();
        test::dragBetween(top, west, east);
        // While the tool drags, the status bar says where the path goes through.
        QVERIFY2(w.statusBar()->currentMessage().contains("through door 2"), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY2(QRegularExpression("Path for player: \\d+ units, \\d+\\.\\d s").match(w.statusBar()->currentMessage()).hasMatch(),
                 qPrintable(w.statusBar()->currentMessage()));
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() > size_t(kPlayer); }, 20000));
        const TravelPath& path = paths[0][kPlayer];
        QVERIFY(path.found);
        QVERIFY(has(path, TravelKind::Door));
        // The trigger is walked into before the door: the path goes west of the start to it.
        const double westmost = std::min_element(path.points.begin(), path.points.end(), [](const Vec3& a, const Vec3& b) {
                                    return a.x() < b.x();
                                })->x();
        QVERIFY2(westmost < -136 + 16, qPrintable(QString::number(westmost)));
        QVERIFY(path.seconds > path.length / kWalkSpeed - 1e-9); // the door's opening is waited for
        QTableWidget* table = w.rayDock()->table();
        QTRY_VERIFY(QRegularExpression("^\\d+ units, \\d+\\.\\d s$").match(table->item(kPlayer, 8)->text()).hasMatch());

        // The Walkable overlay: the door's gate among the links, named in the legend.
        w.action("overlayWalkable")->trigger();
        QVERIFY(travelCurrent());
        QVERIFY(!w.editor().scene().layer(render::Layer::WalkableTravel).chunkList().empty());
        const auto legend = viewLegend(w.editor(), true);
        QVERIFY(std::any_of(legend.begin(), legend.end(), [](const LegendEntry& e) {
            return e.text == "door (closed)" && e.colour == render::kDoorTravelColour;
        }));

        // The trigger deleted (Edit > Delete): the door never opens.
        const uint64_t worldRevision = w.editor().document().worldRevision();
        w.editor().document().setEntitySelection({2});
        w.action("delete")->trigger(); // Edit > Delete
        QCOMPARE(w.editor().document().entities().size(), size_t(2));
        QVERIFY(travelCurrent());
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() > size_t(kPlayer) && !paths[0][kPlayer].found; },
                                20000));
        QCOMPARE(paths[0][kPlayer].miss, NavPathMiss::NotReached);
        QTRY_COMPARE(table->item(kPlayer, 8)->text(), QString("none"));
        // Undo brings the trigger, and the path, back.
        w.editor().document().undoStack()->undo();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() > size_t(kPlayer) && paths[0][kPlayer].found; },
                                20000));
        QVERIFY(has(paths[0][kPlayer], TravelKind::Door));
        Q_UNUSED(worldRevision);
    }

    // A brush edit: the walkable meshes of the edited world come before its world without
    // the movers (compiled after it, at the lowest priority); until that world's travel is
    // built, the travel shown before stays (the door's links used to vanish from the view
    // for that while, and the same meshes were built a second time).
    void aBrushEditKeepsTheTravelShownUntilItsOwnIsBuilt() {
        QVERIFY(openWithTravelShown());
        MainWindow& w = *window_;
        const NavService& nav = w.editor().overlays().nav();
        // Per build: whether it has the player's travel, and whether the overlay (rebuilt by
        // the controller, connected first) draws its links.
        std::vector<bool> withTravel, travelDrawn;
        const QMetaObject::Connection c = connect(&nav, &NavService::built, this, [&] {
            withTravel.push_back(nav.meshes()->travelOf(kPlayer) != nullptr);
            travelDrawn.push_back(!w.editor().scene().layer(render::Layer::WalkableTravel).chunkList().empty());
        });
        EditorDocument& doc = w.editor().document();
        doc.insertBrushes({{int(doc.brushes().size()), Brush::box({300, -100, 0}, {332, -68, 32})}});
        const uint64_t edited = doc.worldRevision();
        QVERIFY(QTest::qWaitFor([&] {
            const auto& m = nav.meshes();
            return m && m->world->revision == edited && m->travelWorld && m->travelWorld->revision == edited;
        }, 20000));
        disconnect(c);
        QVERIFY(!withTravel.empty());
        QVERIFY(std::all_of(withTravel.begin(), withTravel.end(), [](bool b) { return b; }));
        QVERIFY(std::all_of(travelDrawn.begin(), travelDrawn.end(), [](bool b) { return b; }));
        // The edited world's meshes, then its travel: no build between of the same meshes.
        QVERIFY2(withTravel.size() <= 2, qPrintable(QString::number(withTravel.size())));
    }

    // While an edit's travel is being built (held here; at the lowest priority it takes
    // seconds on a loaded machine), the rays dock says that the path it shows is the level's
    // before the edit: it used to read "none" meanwhile, as if the edit had cut the way.
    void theRaysDockSaysAPathIsUpdatingWhileTheEditsTravelIsBuilt() {
        Viewport2D* top = open(partedRoom(true, kNamedDoor + kTrigger), "toolPath");
        QVERIFY(top);
        MainWindow& w = *window_;
        test::dragBetween(top, top->toWidget(Vec3(-300, 0, 0)).toPoint(), top->toWidget(Vec3(300, 0, 0)).toPoint());
        QTableWidget* table = w.rayDock()->table();
        const QRegularExpression lengthAndTime("^\\d+ units, \\d+\\.\\d s$");
        auto pathCell = [&] { return table->item(kPlayer, 8); };
        QTRY_VERIFY2(lengthAndTime.match(pathCell()->text()).hasMatch(), qPrintable(pathCell()->text()));
        // The meshes of the world without the movers, which the travel walks, wait until
        // released (at the latest as the test returns, before the window goes).
        auto release = std::make_shared<std::promise<void>>();
        std::shared_future<void> released = release->get_future().share();
        struct Releaser {
            std::shared_ptr<std::promise<void>> p;
            bool done = false;
            void operator()() {
                if (!std::exchange(done, true)) p->set_value();
            }
            ~Releaser() { (*this)(); }
        } releaser{release};
        auto held = std::make_shared<std::atomic<int>>(0);
        w.editor().moverStates().staticNavMeshes()->setBeforeBuild([held, released](MeshAsker) {
            ++*held;
            released.wait();
        });
        EditorDocument& doc = w.editor().document();
        doc.insertBrushes({{int(doc.brushes().size()), Brush::box({300, -200, 0}, {332, -168, 32})}});
        QVERIFY(QTest::qWaitFor([&] { return *held > 0; }, 20000));
        QTRY_VERIFY2(pathCell()->text().endsWith(" (updating)"), qPrintable(pathCell()->text()));
        QVERIFY(lengthAndTime.match(pathCell()->text().chopped(int(QString(" (updating)").size()))).hasMatch());
        QVERIFY2(pathCell()->toolTip().contains("being built"), qPrintable(pathCell()->toolTip()));
        releaser();
        QVERIFY(travelCurrent());
        QTRY_VERIFY2(lengthAndTime.match(pathCell()->text()).hasMatch(), qPrintable(pathCell()->text()));
        QVERIFY(!pathCell()->toolTip().contains("being built"));
    }

    // The travel follows the meshes at the lowest priority (background_jobs.h): while the
    // travel of an edit is being built, the next edit's walkable meshes come all the same
    // (they were built in the travel's job and waited for it).
    void theMeshesOfAnEditDoNotWaitForTheTravelOfTheOneBefore() {
        QVERIFY(openWithTravelShown());
        MainWindow& w = *window_;
        const NavService& nav = w.editor().overlays().nav();
        EditorDocument& doc = w.editor().document();
        // The meshes of the world without the movers, which the travel walks, wait until
        // released (at the latest as the test returns, before the window goes).
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        struct Releaser {
            std::promise<void>& p;
            ~Releaser() { p.set_value(); }
        } releaser{release};
        // (Shared: a builder may still call the hook after this function has returned.)
        auto held = std::make_shared<std::atomic<int>>(0);
        w.editor().moverStates().staticNavMeshes()->setBeforeBuild([held, released](MeshAsker) {
            ++*held;
            released.wait();
        });
        doc.insertBrushes({{int(doc.brushes().size()), Brush::box({300, -100, 0}, {332, -68, 32})}});
        QVERIFY(QTest::qWaitFor([&] { return *held > 0; }, 20000)); // the first edit's travel is held
        doc.insertBrushes({{int(doc.brushes().size()), Brush::box({300, 100, 0}, {332, 132, 32})}});
        const uint64_t second = doc.worldRevision();
        QVERIFY(QTest::qWaitFor([&] {
            const auto& m = nav.meshes();
            return m && m->world->revision == second && m->mesh(kPlayer);
        }, 20000));
        // Meanwhile the travel shown is the one from before the edits.
        QVERIFY(nav.meshes()->travelOf(kPlayer));
        QVERIFY(nav.meshes()->travelWorld->revision < second);
    }

    // A pose added while the travel is shown: the travel of the poses before is not kept
    // for the new tree's poses (it was indexed past its end once), and the new world's own
    // travel, one per pose, comes.
    void aPoseAddedGetsTheTravelOfTheNewPoses() {
        QVERIFY(openWithTravelShown());
        MainWindow& w = *window_;
        const NavService& nav = w.editor().overlays().nav();
        EditorDocument& doc = w.editor().document();
        std::vector<Pose> poses = doc.poses();
        Pose crouch = poses[size_t(kPlayer)];
        crouch.name = "crouch";
        crouch.maxs.z() = 8;
        poses.push_back(crouch);
        doc.setPoses(poses);
        const int last = int(poses.size()) - 1; // no travel before for a pose of that number
        w.editor().setCurrentPose(last);
        QVERIFY(QTest::qWaitFor([&] {
            const auto& m = nav.meshes();
            return m && m->travel.size() == poses.size() && m->travelOf(last) && m->travelWorld &&
                   m->travelWorld->result->onion.poses.size() == poses.size();
        }, 30000));
    }

    // Two rooms with no doorway, a teleporter in the west one sending to the east: the Path
    // tool's path takes it.
    void theTeleporterJoinsTheRoomsForThePathTool() {
        const QString teleporter =
            entityText("\"classname\" \"trigger_teleport\"\n\"target\" \"there\"\n", test::boxBrushText(-200, -32, 0, -136, 32, 64)) +
            entityText("\"classname\" \"info_teleport_destination\"\n\"targetname\" \"there\"\n\"origin\" \"200 0 24\"\n");
        Viewport2D* top = open(partedRoom(false, teleporter), "toolPath");
        QVERIFY(top);
        MainWindow& w = *window_;
        test::dragBetween(top, top->toWidget(Vec3(-300, 0, 0)).toPoint(), top->toWidget(Vec3(300, 0, 0)).toPoint());
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() > size_t(kPlayer); }, 20000));
        QVERIFY(paths[0][kPlayer].found);
        QVERIFY(has(paths[0][kPlayer], TravelKind::Teleport));
        // Drawn: the teleport's jump from the pad to the destination in its colour, over the path.
        const auto& layer = w.editor().scene().layer(render::Layer::Rays);
        QVERIFY(!layer.chunkList().empty());
    }

    // A monster behind a door that the player's trigger opens is met (the Problems dock's
    // walking check opens doors as `shallot-cli check` does); with the trigger deleted the
    // door never opens and the monster is a problem.
    void aMonsterBehindADoorNothingOpensIsAProblem() {
        const QString monster = entityText("\"classname\" \"monster_army\"\n\"origin\" \"400 100 24\"\n");
        Viewport2D* top = open(partedRoom(true, kNamedDoor + kTrigger + monster), nullptr);
        QVERIFY(top);
        MainWindow& w = *window_;
        auto unreachable = [&] {
            const auto& problems = w.editor().spawnChecks().problems();
            return std::count_if(problems.begin(), problems.end(),
                                 [](const SpawnProblem& p) { return p.kind == SpawnProblemKind::UnreachableWalking; });
        };
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(unreachable(), 0);
        w.editor().document().setEntitySelection({2});
        w.action("delete")->trigger();
        QVERIFY(QTest::qWaitFor([&] { return unreachable() == 1; }, 20000));
        w.editor().document().undoStack()->undo();
        QVERIFY(QTest::qWaitFor([&] { return unreachable() == 0; }, 20000));
    }
};

QTEST_MAIN(TravelGuiTest)
#include "travel_gui_test.moc"

// The Movers dock and Play (issue 40) under Xvfb, on a small level: a room split by a
// wall whose doorway a door (opening 120 up) fills, a plat (resting 56 down), a grunt
// behind the door. Every state places the door's brushes (drawn and compiled), the tree
// answers for them, the swept volumes are ghosted, the spawn checks find nothing new, and
// Play walks agents that never stand in the world's solid: from the level's start the door
// opens only once an agent comes to it; from the chosen time it cycles; an edit starts the
// run again. A second level: Play's teleporters and keys, counted in the dock.
#include "gui_test_window.h"

#include "document/document_files.h"

#include "render_scene.h"
#include "services/mover_play.h"
#include "services/mover_states.h"
#include "views/viewport_2d.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QDockWidget>
#include <QToolButton>

using namespace shallot;
using namespace shallot::test;

namespace {

const Vec3 kInDoorway(0, 0, 40);
constexpr int kPointPose = 0; // Quake's poses: point, player, large

QString levelText() {
    QString map = "{\n\"classname\" \"worldspawn\"\n";
    map += boxBrushText(-272, -272, -16, 272, 272, 0);     // floor
    map += boxBrushText(-272, -272, 256, 272, 272, 272);   // ceiling
    map += boxBrushText(-272, -272, 0, -256, 272, 256);    // walls
    map += boxBrushText(256, -272, 0, 272, 272, 256);
    map += boxBrushText(-256, -272, 0, 256, -256, 256);
    map += boxBrushText(-256, 256, 0, 256, 272, 256);
    map += boxBrushText(-256, -8, 0, -64, 8, 256);         // the middle wall, its doorway
    map += boxBrushText(64, -8, 0, 256, 8, 256);           // x -64..64 up to 136
    map += boxBrushText(-64, -8, 136, 64, 8, 256);
    map += "}\n";
    map += "{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n" + boxBrushText(-64, -8, 0, 64, 8, 128) + "}\n";
    map += "{\n\"classname\" \"func_plat\"\n" + boxBrushText(128, 64, 0, 192, 128, 64) + "}\n";
    map += "{\n\"classname\" \"info_player_start\"\n\"origin\" \"-128 -128 24\"\n}\n";
    map += "{\n\"classname\" \"monster_army\"\n\"origin\" \"0 160 24\"\n}\n";
    return map;
}

// The compile shown is of the document's world with the movers where they stand now, and
// the world without them is compiled too.
bool waitForMovers(MainWindow& w) {
    Editor& e = w.editor();
    return QTest::qWaitFor([&] {
        const auto& c = e.compiler().latest();
        const auto& alone = e.moverStates().staticWorld();
        if (!waitForCompiledOverlay(w, 0) || !c || !alone || alone->revision != e.document().worldRevision()) return false;
        const World wanted = e.moverStates().withMovers(e.document().data().world);
        if (c->world.brushes.size() != wanted.brushes.size()) return false;
        for (size_t i = 0; i < wanted.brushes.size(); ++i)
            if (!samePlanes(c->world.brushes[i], wanted.brushes[i])) return false;
        return true;
    }, 20000);
}

bool doorwaySolid(Editor& e) { return e.compiler().latest()->result->onion.isSolid(kInDoorway, kPointPose); }

float topOf(Editor& e, render::Layer layer) {
    float top = -1e9f;
    for (const render::MeshChunk& chunk : e.scene().layer(layer).chunkList())
        for (const render::Vertex& v : chunk.geometry->vertices) top = std::max(top, v.position[2]);
    return top;
}

// Play (F5 in the top view) with `count` agents of the player pose; false when the dock's
// agent count or the window is not there to take it.
bool startPlay(MainWindow& w, int count) {
    auto* agents = w.findChild<QSpinBox*>("playAgents");
    if (!agents) return false;
    agents->setValue(count);
    w.editor().setCurrentPose(1);
    w.activateWindow();
    if (!QTest::qWaitForWindowActive(&w)) return false;
    w.view2d(0)->setFocus();
    QTest::keyClick(w.view2d(0), Qt::Key_F5);
    return w.editor().moverPlay().playing();
}

} // namespace

class MoversPlayGuiTest : public QObject {
    Q_OBJECT
private slots:
    void statesMoveTheDoorAndPlayRunsIt();
    void playRunsTeleportersAndKeys();
};

void MoversPlayGuiTest::statesMoveTheDoorAndPlayRunsIt() {
    QTemporaryDir dir;
    const QString path = dir.filePath("door_and_plat.map");
    QVERIFY(writeLevel(path, levelText()));
    auto w = openWindow(path);
    Editor& e = w->editor();
    MoverStates& states = e.moverStates();
    QVERIFY(waitForMovers(*w));
    QCOMPARE(states.movers().movers.size(), size_t(2));
    const int door = states.movers().movers[0].entity - 1, plat = states.movers().movers[1].entity - 1;
    const Aabb doorAtFile = states.movers().movers[0].bounds, platAtFile = states.movers().movers[1].bounds;

    // As spawned: the door closed, the plat (no targetname) at its bottom.
    QCOMPARE(states.placement(), MoverPlacement::Spawn);
    QVERIFY(doorwaySolid(e));
    QCOMPARE(e.entityBox(door).mins, doorAtFile.mins);
    QCOMPARE(e.entityBox(plat).mins, platAtFile.mins + Vec3(0, 0, -56));
    // The swept volumes: the door's up to 248, the plat's top at 64.
    QVERIFY(e.scene().layer(render::Layer::MoverSwept).visible);
    QCOMPARE(topOf(e, render::Layer::MoverSwept), 248.0f);
    // The checks read the world without the movers: no new problem (the grunt is met
    // through the door, which opens when touched).
    QVERIFY(waitForSpawnChecks(*w));
    QCOMPARE(e.spawnChecks().problems().size(), size_t(0));

    // All open, chosen with the keyboard: the door 120 up, the doorway empty.
    auto* placement = w->findChild<QComboBox*>("moverPlacement");
    QVERIFY(placement);
    QTest::keyClick(placement, Qt::Key_Down); // As spawned -> All closed
    QCOMPARE(states.placement(), MoverPlacement::Closed);
    QVERIFY(waitForMovers(*w));
    QVERIFY(doorwaySolid(e));
    QCOMPARE(e.entityBox(plat).mins, platAtFile.mins); // a plat's closed is its top
    QTest::keyClick(placement, Qt::Key_Down); // -> All open
    QCOMPARE(states.placement(), MoverPlacement::Open);
    QVERIFY(waitForMovers(*w));
    QVERIFY(!doorwaySolid(e));
    QCOMPARE(e.entityBox(door).mins, doorAtFile.mins + Vec3(0, 0, 120));
    QCOMPARE(e.compiler().latest()->world.brushes.size(), e.document().brushes().size() + 2);
    QVERIFY(waitForSpawnChecks(*w));
    QCOMPARE(e.spawnChecks().problems().size(), size_t(0));

    // At 0.5 s typed in: the door is 50 up (100 units a second from closed).
    auto* seconds = w->findChild<QDoubleSpinBox*>("moverSeconds");
    QVERIFY(seconds);
    // Typed over whatever the box holds, as a designer does.
    auto typeSeconds = [&](const char* text) {
        seconds->setFocus();
        seconds->selectAll();
        QTest::keyClicks(seconds, text);
        QTest::keyClick(seconds, Qt::Key_Return);
    };
    typeSeconds("0.5");
    QCOMPARE(states.placement(), MoverPlacement::Time);
    QCOMPARE(states.seconds(), 0.5);
    QCOMPARE(e.entityBox(door).mins, doorAtFile.mins + Vec3(0, 0, 50));
    QVERIFY(waitForMovers(*w));
    QVERIFY(!doorwaySolid(e)); // its bottom at z 50
    QVERIFY(e.compiler().latest()->result->onion.isSolid(Vec3(0, 0, 60), kPointPose));

    // Swept clicked off and on with the mouse.
    auto* dock = w->findChild<QDockWidget*>("MoversDock");
    QVERIFY(dock);
    dock->raise();
    QToolButton* sweptButton = nullptr;
    for (QToolButton* b : dock->findChildren<QToolButton*>())
        if (b->defaultAction() == w->action("moverSwept")) sweptButton = b;
    QVERIFY(sweptButton);
    QVERIFY(QTest::qWaitForWindowExposed(sweptButton->window()));
    QTest::mouseClick(sweptButton, Qt::LeftButton);
    QVERIFY(!states.sweptShown());
    QVERIFY(!e.scene().layer(render::Layer::MoverSwept).visible);
    QTest::mouseClick(sweptButton, Qt::LeftButton);
    QVERIFY(e.scene().layer(render::Layer::MoverSwept).visible);

    // Saved and opened again: the state comes back with the view, the stored tree is the
    // world without the movers (a fresh window compiles them in again).
    const QString saved = dir.filePath("saved.shallot");
    QVERIFY(w->saveTo(saved));
    QString error;
    const std::optional<LoadedDocument> stored = loadDocumentFile(saved, error);
    QVERIFY(stored && stored->tree);
    QVERIFY(!stored->tree->isSolid(Vec3(0, 0, 60), kPointPose)); // no door in it
    QVERIFY(stored->tree->isSolid(Vec3(-128, 0, 60), kPointPose)); // the wall beside it
    {
        auto again = openWindow(saved);
        QVERIFY(waitForMovers(*again));
        QCOMPARE(again->editor().moverStates().placement(), MoverPlacement::Time);
        QCOMPARE(again->editor().moverStates().seconds(), 0.5);
        QVERIFY(again->editor().compiler().latest()->result->onion.isSolid(Vec3(0, 0, 60), kPointPose));
        QVERIFY(!again->editor().moverStates().staticWorld()->result->onion.isSolid(Vec3(0, 0, 60), kPointPose));
        QCOMPARE(again->editor().moverStates().staticWorld()->world.brushes.size(), e.document().brushes().size());
    }

    // Left out: the doorway is a hole, the door drawn where the file has it.
    placement->setCurrentIndex(placement->findData(int(MoverPlacement::LeftOut)));
    QVERIFY(waitForMovers(*w));
    QVERIFY(!doorwaySolid(e));
    QCOMPARE(e.compiler().latest()->world.brushes.size(), e.document().brushes().size());
    QCOMPARE(e.entityBox(door).mins, doorAtFile.mins);

    // Play (F5) from all closed with 12 agents of the player pose.
    QTest::keyClick(placement, Qt::Key_Up);
    QTest::keyClick(placement, Qt::Key_Up);
    QTest::keyClick(placement, Qt::Key_Up);
    QCOMPARE(states.placement(), MoverPlacement::Closed);
    QVERIFY(waitForMovers(*w));
    auto* agents = w->findChild<QSpinBox*>("playAgents");
    QVERIFY(agents);
    QCOMPARE(agents->value(), kDefaultPlayAgents);
    QVERIFY(startPlay(*w, 12));
    MoverPlay& play = e.moverPlay();
    QVERIFY(w->action("play")->isChecked());
    QVERIFY(QTest::qWaitFor([&] { return play.steps() > 0; }, 20000));
    QCOMPARE(play.agentsPlaced(), 12);
    const std::vector<Aabb> first = play.agentBoxes();
    const Pose& player = e.document().poses()[1];
    const BspTree& world = states.staticWorld()->result->onion;
    // From the level's start the door rests shut until an agent comes into its trigger
    // field (grown by what an agent walks between two frames drawn: frames skip steps).
    QVERIFY(play.fired());
    const Aabb field = states.movers().movers[0].touchBounds;
    QVERIFY(!field.empty());
    const Vec3 frameWalk = Vec3::Constant(16.0);
    const Aabb nearField{field.mins - frameWalk, field.maxs + frameWalk};
    double lastTime = -1.0, highestDoor = doorAtFile.mins.z();
    bool moved = false, reached = false;
    int frames = 0;
    QVERIFY(QTest::qWaitFor([&] {
        if (play.time() != lastTime) {
            lastTime = play.time();
            ++frames;
            for (size_t i = 0; i < play.agentBoxes().size(); ++i) {
                const Aabb& box = play.agentBoxes()[i];
                if (world.isSolid(box.mins - player.mins, 1)) qFatal("agent %zu in the world's solid", i);
                moved = moved || (box.mins - first[i].mins).norm() > 16.0;
                reached = reached || box.overlaps(nearField);
            }
            highestDoor = std::max(highestDoor, e.entityBox(door).mins.z());
            if (highestDoor > doorAtFile.mins.z() && !reached) qFatal("the door rose before an agent came to it");
        }
        return play.time() > 1.5 && moved && highestDoor > doorAtFile.mins.z() + 100;
    }, 20000));
    QVERIFY(frames > 5);
    QVERIFY(play.moverTrips() >= 1);
    auto* playTime = w->findChild<QLabel*>("playTime");
    QVERIFY(playTime);
    QVERIFY2(playTime->text().contains("trips"), qPrintable(playTime->text()));
    // The compile follows the moving door (throttled): a tree with the door raised.
    QVERIFY(QTest::qWaitFor([&] {
        const auto& c = e.compiler().latest();
        return c && c->world.brushes.size() == e.document().brushes().size() + 2 &&
               !c->world.brushes[e.document().brushes().size()].sides.empty() &&
               c->result->onion.isSolid(kInDoorway, kPointPose) == false;
    }, 20000));
    QVERIFY(!e.scene().layer(render::Layer::Agents).chunkList().empty());

    // Stop: the door goes back to closed, no agents drawn.
    QTest::keyClick(w->view2d(0), Qt::Key_F5);
    QVERIFY(!play.playing());
    QVERIFY(!w->action("play")->isChecked());
    QCOMPARE(e.entityBox(door).mins, doorAtFile.mins);
    QVERIFY(e.scene().layer(render::Layer::Agents).chunkList().empty());
    QVERIFY(waitForMovers(*w));
    QVERIFY(doorwaySolid(e));

    // "At time" 0.5 s: Play begins there, the door 50 up and rising from the first step.
    typeSeconds("0.5");
    QCOMPARE(states.placement(), MoverPlacement::Time);
    QCOMPARE(states.seconds(), 0.5);
    QVERIFY(waitForMovers(*w));
    w->view2d(0)->setFocus();
    QTest::keyClick(w->view2d(0), Qt::Key_F5);
    QVERIFY(play.playing());
    QVERIFY(QTest::qWaitFor([&] { return play.steps() > 0; }, 20000));
    QVERIFY2(play.time() > 0.5 && play.time() < 1.5, qPrintable(QString::number(play.time())));
    QVERIFY(!play.fired()); // the dock's clock: the movers cycle
    QVERIFY(e.entityBox(door).mins.z() >= doorAtFile.mins.z() + 50.0);

    // An edit while playing (the grunt deleted) starts the run again, from 0.5 s.
    QVERIFY(QTest::qWaitFor([&] { return play.time() > 1.6; }, 20000));
    const int stepsBefore = play.steps();
    e.document().removeEntities({int(e.document().entities().size()) - 1});
    QVERIFY(play.playing());
    QVERIFY(QTest::qWaitFor([&] { return play.steps() > 0 && play.steps() < stepsBefore; }, 20000));
    QVERIFY(play.time() > 0.5 && play.time() < 1.6);
    QTest::keyClick(w->view2d(0), Qt::Key_F5);
    QVERIFY(!play.playing());
}

// Two closed rooms, a teleporter across the left one's floor to the right one, a silver key
// on the left floor: Play from the level's start (F5) teleports agents there (seeking or
// crossing it), one picks the key up, the Movers dock says so, and no agent is ever in
// the world's solid.
void MoversPlayGuiTest::playRunsTeleportersAndKeys() {
    QString map = "{\n\"classname\" \"worldspawn\"\n";
    map += boxBrushText(-528, -272, -16, 528, 272, 0);   // floor
    map += boxBrushText(-528, -272, 256, 528, 272, 272); // ceiling
    map += boxBrushText(-528, -272, 0, -512, 272, 256);  // walls
    map += boxBrushText(512, -272, 0, 528, 272, 256);
    map += boxBrushText(-512, -272, 0, 512, -256, 256);
    map += boxBrushText(-512, 256, 0, 512, 272, 256);
    map += boxBrushText(-16, -256, 0, 16, 256, 256); // between the rooms
    map += "}\n";
    map += "{\n\"classname\" \"trigger_teleport\"\n\"target\" \"there\"\n" + boxBrushText(-320, -256, 0, -256, 256, 64) + "}\n";
    map += "{\n\"classname\" \"info_teleport_destination\"\n\"targetname\" \"there\"\n\"origin\" \"256 0 24\"\n}\n";
    map += "{\n\"classname\" \"item_key1\"\n\"origin\" \"-128 0 24\"\n}\n";
    map += "{\n\"classname\" \"info_player_start\"\n\"origin\" \"-400 -128 24\"\n}\n";
    QTemporaryDir dir;
    const QString path = dir.filePath("teleport_and_key.map");
    QVERIFY(writeLevel(path, map));
    auto w = openWindow(path);
    Editor& e = w->editor();
    QVERIFY(waitForMovers(*w));
    QCOMPARE(e.moverStates().placement(), MoverPlacement::Spawn);
    QVERIFY(startPlay(*w, 16));
    MoverPlay& play = e.moverPlay();
    QVERIFY(play.fired());
    const Pose& player = e.document().poses()[1];
    const BspTree& world = e.moverStates().staticWorld()->result->onion;
    QVERIFY(QTest::qWaitFor([&] {
        for (size_t i = 0; i < play.agentBoxes().size(); ++i)
            if (world.isSolid(play.agentBoxes()[i].mins - player.mins, 1)) qFatal("agent %zu in the world's solid", i);
        return play.teleported() > 0 && play.keysPickedUp() == 1;
    }, 40000));
    auto* playTime = w->findChild<QLabel*>("playTime");
    QVERIFY(playTime);
    QVERIFY(QTest::qWaitFor([&] { return playTime->text().contains("teleported") && playTime->text().contains("1 key taken"); }, 5000));
    QTest::keyClick(w->view2d(0), Qt::Key_F5);
    QVERIFY(!play.playing());
}

QTEST_MAIN(MoversPlayGuiTest)
#include "movers_play_gui_test.moc"

// Light Bounces in the editor (issue 41's radiosity): View > Light Bounces adds bounces of
// diffuse light to the lit view's direct light, on the light service's pool thread. With one
// bounce the dark room beyond a doorway gets light on its far wall; the lighting shown is
// core's direct light plus core's bounce computed on the same compiled world, luxel for
// luxel; None shows the direct light again; the choice is saved with the document.
#include "gui_test_window.h"

#include "document/entity_edits.h"
#include "light/bounce.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "services/light_service.h"

#include <QFile>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace shallot;
using namespace shallot::test;

namespace {

// Two rooms 256 x 256 x 256 side by side along x, a wall between them with a doorway
// (y 160-240, up to z 128) and a light in the west room's corner. Every segment from the
// light through the doorway ends on the east room's north wall: its far (east) wall, at
// x = 528, gets no direct light.
QString twoRooms() {
    QString map = "{\n\"classname\" \"worldspawn\"\n";
    map += boxBrushText(-16, -16, -16, 544, 272, 0);   // floor
    map += boxBrushText(-16, -16, 256, 544, 272, 272); // ceiling
    map += boxBrushText(-16, -16, 0, 0, 272, 256);     // west wall
    map += boxBrushText(528, -16, 0, 544, 272, 256);   // east wall: the far wall
    map += boxBrushText(0, -16, 0, 528, 0, 256);       // south
    map += boxBrushText(0, 256, 0, 528, 272, 256);     // north
    map += boxBrushText(256, 0, 0, 272, 160, 256);     // the wall between, beside the doorway
    map += boxBrushText(256, 240, 0, 272, 256, 256);
    map += boxBrushText(256, 160, 128, 272, 240, 256); // over the doorway
    map += "}\n{\n\"classname\" \"light\"\n\"origin\" \"32 32 64\"\n\"light\" \"600\"\n}\n";
    map += "{\n\"classname\" \"info_player_start\"\n\"origin\" \"64 128 24\"\n}\n";
    return map;
}

// The newest lighting shown is full, of the newest compile, with the bounces chosen.
bool litCurrent(MainWindow& w, int bounces) {
    const LightService& s = w.editor().lighting();
    const auto& compiled = w.editor().compiler().latest();
    return !s.busy() && s.latest().lighting && compiled && s.latest().world == compiled &&
           compiled->revision == w.editor().document().worldRevision() && s.latest().bounces == bounces;
}

// Core's lighting of `compiled` with the document's entities: the direct light of
// lightLevelInTree, then `bounces` bounces through the same tree (addBounce).
LevelLighting coreLighting(Editor& e, const CompiledWorld& compiled, int bounces) {
    std::vector<MapEntity> entities = e.document().entities();
    MapEntity worldspawn;
    worldspawn.keys = {{"classname", "worldspawn"}};
    entities.insert(entities.begin(), worldspawn);
    LightInput input;
    input.worldBrushes = &compiled.world.brushes;
    input.entities = &entities;
    input.bounds = compiled.world.bounds;
    const int pose = pointPoseIndex(compiled.world.poses);
    LevelLighting lit = lightLevelInTree(input, compiled.result->onion, pose, 1);
    const SkyFaces sky(compiled.world.brushes, compiled.world.bounds);
    const TreeOccluder occluder(compiled.result->onion, pose, sky);
    addBounce(lit, occluder, bounces, 2);
    return lit;
}

// The same lightmaps, luxel for luxel (every style's light and colour).
bool sameLuxels(const LevelLighting& a, const LevelLighting& b) {
    if (a.lightmaps.size() != b.lightmaps.size()) return false;
    for (size_t f = 0; f < a.lightmaps.size(); ++f) {
        const auto& x = a.lightmaps[f].styles;
        const auto& y = b.lightmaps[f].styles;
        if (x.size() != y.size()) return false;
        for (size_t s = 0; s < x.size(); ++s)
            if (x[s].light != y[s].light || x[s].rgb != y[s].rgb) {
                qWarning("face %zu style %zu differs", f, s);
                return false;
            }
    }
    return true;
}

// The light on the east room's far wall: its style-0 luxels summed, and how many there are.
std::pair<double, size_t> farWallLight(const LevelLighting& lit) {
    double sum = 0;
    size_t luxels = 0;
    for (size_t f = 0; f < lit.faces.size(); ++f) {
        const FaceLightmap& map = lit.lightmaps[f];
        if (map.styles.empty() || lit.faces[f].plane.normal.x() > -0.99 || lit.faces[f].polygon.vertices.front().x() < 527)
            continue;
        for (const uint8_t v : map.styles.front().light) sum += v;
        luxels += map.styles.front().light.size();
    }
    return {sum, luxels};
}

} // namespace

class LightBounceGuiTest : public QObject {
    Q_OBJECT
private slots:
    void bouncesLightTheDarkRoomAsCoreDoes();
};

void LightBounceGuiTest::bouncesLightTheDarkRoomAsCoreDoes() {
    QTemporaryDir dir;
    const QString path = dir.filePath("two_rooms.map");
    QVERIFY(writeLevel(path, twoRooms()));
    auto w = openWindow(path);
    Editor& e = w->editor();
    const LightService& lighting = e.lighting();
    QVERIFY(waitForCompiledOverlay(*w));
    // None by default: the direct light, as before.
    QCOMPARE(e.document().data().lightBounces, 0);
    QVERIFY(w->action("lightBounces0")->isChecked());
    w->action("shadingLit")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 0); }, 20000));
    const auto compiled = lighting.latest().world;
    const LevelLighting direct = coreLighting(e, *compiled, 0);
    QVERIFY(sameLuxels(*lighting.latest().lighting, direct));
    const auto [darkSum, wallLuxels] = farWallLight(*lighting.latest().lighting);
    QVERIFY(wallLuxels > 100);
    QCOMPARE(darkSum, 0.0); // no direct light reaches it

    // One bounce: light on the far wall, exactly core's bounce on the same compiled world.
    w->action("lightBounces1")->trigger();
    QCOMPARE(e.document().data().lightBounces, 1);
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 1); }, 30000));
    QCOMPARE(lighting.latest().world, compiled);
    const LevelLighting bounced = coreLighting(e, *compiled, 1);
    QVERIFY(sameLuxels(*lighting.latest().lighting, bounced));
    const double bouncedSum = farWallLight(*lighting.latest().lighting).first;
    QVERIFY2(bouncedSum > double(wallLuxels), qPrintable(QString("far wall %1 over %2 luxels").arg(bouncedSum).arg(wallLuxels)));
    // The relights start from the direct light, kept apart.
    QVERIFY(lighting.latest().direct);
    QVERIFY(sameLuxels(*lighting.latest().direct, direct));
    QVERIFY2(e.lighting().latest().bounceMilliseconds > 0, "no bounce time");
    QVERIFY2(w->statusBar()->currentMessage().contains("bounced 1 times in "), qPrintable(w->statusBar()->currentMessage()));

    // A moved light with the bounce on: relit from the direct light (relight.h), bounced
    // again: core's lighting of the moved light, luxel for luxel.
    const auto light = std::find_if(e.document().entities().begin(), e.document().entities().end(),
                                    [](const MapEntity& m) { return m.classname() == "light"; });
    QVERIFY(light != e.document().entities().end());
    e.document().setEntitySelection({int(light - e.document().entities().begin())});
    e.document().undoStack()->push(moveSelectionCommand(e.document(), "Move light", {}, Vec3(0, 32, 0)));
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 1) && lighting.latest().relit; }, 30000));
    QVERIFY(sameLuxels(*lighting.latest().lighting, coreLighting(e, *compiled, 1)));
    QVERIFY(sameLuxels(*lighting.latest().direct, coreLighting(e, *compiled, 0)));
    const uint64_t moved = lighting.latest().generation;
    e.document().undoStack()->undo();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 1) && lighting.latest().generation > moved; }, 30000));
    QVERIFY(sameLuxels(*lighting.latest().lighting, bounced));

    // With the Visible overlay the PVS service computes the PVS of this world: the bounce's
    // receivers go through it, and the light is the same.
    w->action("overlayVisible")->setChecked(true);
    QVERIFY(QTest::qWaitFor([&] { return e.overlays().pvs().of(*compiled) != nullptr; }, 30000));
    w->action("lightBounces0")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 0); }, 20000));
    w->action("lightBounces1")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 1); }, 30000));
    QVERIFY(lighting.latest().bouncePvs);
    QVERIFY(sameLuxels(*lighting.latest().lighting, bounced));
    QVERIFY2(w->statusBar()->currentMessage().contains("receivers through the PVS"), qPrintable(w->statusBar()->currentMessage()));
    w->action("overlayVisible")->setChecked(false);

    // None again: the direct light shown.
    w->action("lightBounces0")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 0); }, 20000));
    QVERIFY(sameLuxels(*lighting.latest().lighting, direct));

    // Two bounces: more light still; saved with the document and restored on open.
    w->action("lightBounces2")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w, 2); }, 30000));
    QVERIFY(sameLuxels(*lighting.latest().lighting, coreLighting(e, *compiled, 2)));
    QVERIFY(farWallLight(*lighting.latest().lighting).first > bouncedSum);
    const QString saved = dir.filePath("two_rooms.shallot");
    QVERIFY(w->saveTo(saved));
    w.reset();
    auto reopened = openWindow(saved);
    QCOMPARE(reopened->editor().document().data().lightBounces, 2);
    QVERIFY(reopened->action("lightBounces2")->isChecked());
}

QTEST_MAIN(LightBounceGuiTest)
#include "light_bounce_gui_test.moc"

// Light while you draw (issue 41), in the editor: the 3D Shading menu's Lit and Lightmap
// Only draw the level's faces in its light in place of the flat brush faces; the light is
// the core's (a fresh lighting of the compiled world reads the same), a pillar casts its
// shadow, a moved light relights the level, a brush edit too, and Flat computes nothing.
#include "gui_test_window.h"

#include "docks/leaf_inspector.h"
#include "document/entity_edits.h"
#include "light/light_lookup.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "render_scene.h"
#include "services/light_service.h"
#include "services/too_dark_overlay.h"

#include <QFile>
#include <cmath>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace shallot;
using namespace shallot::test;

namespace {


// A closed room 512 x 512 x 256 with a pillar in its middle and one light west of it.
QString roomWithPillar() {
    QString map = "{\n\"classname\" \"worldspawn\"\n";
    map += boxBrushText(-16, -16, -16, 528, 528, 0);   // floor
    map += boxBrushText(-16, -16, 256, 528, 528, 272); // ceiling
    map += boxBrushText(-16, -16, 0, 0, 528, 256);     // walls
    map += boxBrushText(512, -16, 0, 528, 528, 256);
    map += boxBrushText(0, -16, 0, 512, 0, 256);
    map += boxBrushText(0, 512, 0, 512, 528, 256);
    map += boxBrushText(224, 224, 0, 288, 288, 256);   // the pillar
    map += "}\n{\n\"classname\" \"light\"\n\"origin\" \"128 256 128\"\n\"light\" \"600\"\n}\n";
    map += "{\n\"classname\" \"info_player_start\"\n\"origin\" \"64 64 24\"\n}\n";
    return map;
}

// The light the engine would read on the floor at (x, y), in the newest lighting shown.
double floorLight(const LightService& s, double x, double y) {
    std::string error;
    const std::optional<LightReading> r = readLight(*s.latest().lighting, Vec3(x, y, 0), Vec3::UnitZ(), error);
    if (!r) qWarning("no light read at %g %g: %s", x, y, error.c_str());
    return r ? r->light : -1;
}

// The newest lighting shown is of the newest compile and of the entities now.
bool litCurrent(MainWindow& w) {
    const LightService& s = w.editor().lighting();
    const auto& compiled = w.editor().compiler().latest();
    return !s.busy() && s.latest().lighting && compiled && s.latest().world == compiled &&
           compiled->revision == w.editor().document().worldRevision();
}

// The newest lighting shown reads as a fresh lighting of its compiled world and the
// document's entities now, at floor points around the room.
bool sameAsFresh(Editor& e, const LightService& lighting) {
    const auto& compiled = lighting.latest().world;
    std::vector<MapEntity> entities = e.document().entities();
    MapEntity worldspawn;
    worldspawn.keys = {{"classname", "worldspawn"}};
    entities.insert(entities.begin(), worldspawn);
    LightInput input;
    input.worldBrushes = &compiled->world.brushes;
    input.entities = &entities;
    input.bounds = compiled->world.bounds;
    const LevelLighting fresh = lightLevelInTree(input, compiled->result->onion, pointPoseIndex(compiled->world.poses), 1);
    for (int x = 24; x < 512; x += 40)
        for (int y = 24; y < 512; y += 40) {
            if (x > 216 && x < 296 && y > 216 && y < 296) continue; // the pillar
            std::string error;
            const auto expected = readLight(fresh, Vec3(x, y, 0), Vec3::UnitZ(), error);
            if (!expected || floorLight(lighting, x, y) != expected->light) {
                qWarning("at %d %d: %s", x, y, expected ? "differs" : error.c_str());
                return false;
            }
        }
    return true;
}

} // namespace

class LightingGuiTest : public QObject {
    Q_OBJECT
private slots:
    void litShadingLightsTheLevelAndFollowsEdits();
};

void LightingGuiTest::litShadingLightsTheLevelAndFollowsEdits() {
    QTemporaryDir dir;
    const QString path = dir.filePath("pillar.map");
    QVERIFY(writeLevel(path, roomWithPillar()));
    auto w = openWindow(path);
    Editor& e = w->editor();
    const LightService& lighting = e.lighting();
    QVERIFY(waitForCompiledOverlay(*w));
    // Flat: nothing lit, the brush faces drawn.
    QCOMPARE(lighting.shading(), render::LightShading::Flat);
    QVERIFY(!lighting.latest().lighting);
    QVERIFY(e.scene().layer(render::Layer::BrushFaces).visible);
    QVERIFY(!e.scene().layer(render::Layer::LitFaces).visible);

    w->action("shadingLit")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w); }, 20000));
    QVERIFY(e.scene().layer(render::Layer::LitFaces).visible);
    QVERIFY(!e.scene().layer(render::Layer::BrushFaces).visible);
    QVERIFY(!e.scene().layer(render::Layer::LitFaces).chunkList().empty());

    // The same light as a fresh lighting of the compiled world, read anywhere on the floor.
    QVERIFY(sameAsFresh(e, lighting));
    // Near the light bright, beside the pillar lit, behind it dark.
    const double near = floorLight(lighting, 100, 256), beside = floorLight(lighting, 400, 100),
                 behind = floorLight(lighting, 400, 256);
    QVERIFY2(near > beside && beside > 0 && behind == 0,
             qPrintable(QString("near %1 beside %2 behind %3").arg(near).arg(beside).arg(behind)));

    // The Inspect tool on the floor: the light there and the light that gives it.
    auto* inspector = w->findChild<LeafInspector*>();
    QVERIFY(inspector);
    inspector->inspect(Vec3(100, 256, 0));
    QVERIFY2(inspector->text().contains(QString("Light %1 ").arg(near, 0, 'f', 0)), qPrintable(inspector->text()));
    QVERIFY2(inspector->text().contains("light at 128 256 128 (line "), qPrintable(inspector->text()));
    inspector->inspect(Vec3(400, 256, 0));
    QVERIFY2(inspector->text().contains("Light 0 ") && inspector->text().contains("no light reaches it"),
             qPrintable(inspector->text()));

    // Move the light past the pillar: east of it is lit now, the old place darker.
    const auto light = std::find_if(e.document().entities().begin(), e.document().entities().end(),
                                    [](const MapEntity& m) { return m.classname() == "light"; });
    QVERIFY(light != e.document().entities().end());
    e.document().setEntitySelection({int(light - e.document().entities().begin())});
    e.document().undoStack()->push(moveSelectionCommand(e.document(), "Move light", {}, Vec3(320, 0, 0)));
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w) && floorLight(lighting, 400, 256) > 0; }, 20000));
    QVERIFY(floorLight(lighting, 100, 256) < near);
    // Only a light moved: relit where it reaches (relight.h), as a full lighting.
    QVERIFY(lighting.latest().relit);
    QVERIFY(sameAsFresh(e, lighting));

    // A brush edit relights: the pillar gone, the old shadow side of it is lit from the east.
    e.document().undoStack()->undo();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w) && floorLight(lighting, 400, 256) == 0; }, 20000));
    const int pillar = int(e.document().brushes().size()) - 1;
    e.document().setEntitySelection({});
    e.document().setSelection({pillar});
    w->action("delete")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w) && floorLight(lighting, 400, 256) > 0; }, 20000));
    // Only brushes changed: relit near the edit (brush_relight.h), as a full lighting.
    QVERIFY(lighting.latest().relit);
    QVERIFY(sameAsFresh(e, lighting));

    // Lightmap only: white light drawn grey.
    w->action("shadingLightmap")->trigger();
    QVERIFY(QTest::qWaitFor([&] {
        const auto& chunks = e.scene().layer(render::Layer::LitFaces).chunkList();
        if (chunks.empty() || !litCurrent(*w)) return false;
        for (const render::MeshChunk& chunk : chunks)
            for (const render::Vertex& v : chunk.geometry->vertices)
                if (v.colour[0] != v.colour[1] || v.colour[1] != v.colour[2]) return false;
        return true;
    }, 20000));

    // Flat again: the brush faces back, nothing more is lit after an edit.
    w->action("shadingFlat")->trigger();
    QVERIFY(e.scene().layer(render::Layer::BrushFaces).visible);
    QVERIFY(!e.scene().layer(render::Layer::LitFaces).visible);
    e.document().undoStack()->undo(); // the pillar back
    QVERIFY(waitForCompiledOverlay(*w));
    QTest::qWait(200);
    QVERIFY(!lighting.busy());
    QVERIFY(lighting.latest().world != e.compiler().latest());

    // Too dark, with Flat shading: the level is lit for it; the walkable floor in the
    // pillar's shadow is drawn, none near the light.
    w->action("overlayToodark")->setChecked(true);
    const TooDarkOverlay& dark = e.tooDark();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w) && dark.drawnTriangles() > 0; }, 30000));
    QVERIFY(e.scene().layer(render::Layer::TooDark).visible);
    bool behindPillar = false;
    for (const render::MeshChunk& chunk : e.scene().layer(render::Layer::TooDark).chunkList())
        for (size_t t = 0; t + 2 < chunk.geometry->vertices.size(); t += 3) {
            const float* a = chunk.geometry->vertices[t].position;
            QVERIFY2(std::hypot(a[0] - 100.0, a[1] - 256.0) > 64, "a dark cell next to the light");
            behindPillar = behindPillar || (std::abs(a[0] - 400.0) < 32 && std::abs(a[1] - 256.0) < 32);
        }
    QVERIFY(behindPillar);
    // The highest limit: nearly all the floor.
    const size_t at16 = dark.drawnTriangles();
    e.document().setDarkLimit(255);
    QVERIFY(QTest::qWaitFor([&] { return dark.drawnTriangles() > 4 * at16; }, 20000));
    w->action("overlayToodark")->setChecked(false);
    QVERIFY(!e.scene().layer(render::Layer::TooDark).visible);
}

QTEST_MAIN(LightingGuiTest)
#include "lighting_gui_test.moc"

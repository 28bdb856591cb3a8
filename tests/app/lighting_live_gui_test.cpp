// Light while you draw (issue 41), live: after an edit the Lit view shows a coarse lighting
// first and then the full one; a second edit during a long lighting cancels the first (no
// result of the first is shown once the second's started), and the lighting finally shown
// is, face by face and luxel by luxel, a fresh full lighting of the edited level.
#include "gui_test_window.h"

#include "check/mover_checks.h"
#include "document/entity_edits.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"
#include "services/light_service.h"
#include "views/legend.h"

#include <QFile>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace shallot;
using namespace shallot::test;

namespace {

// A 2560-unit square courtyard under a sky, lit by ericw-tools' sky dome (65 suns) with
// dirt, pillars, and one bright light that reaches most of it: a full lighting of over
// 50,000 luxels, each tracing about a hundred rays (seconds), its coarse pass far fewer.
QString courtyard() {
    constexpr int kSide = 2560;
    QString map = "{\n\"classname\" \"worldspawn\"\n\"_sunlight2\" \"150\"\n\"_dirt\" \"1\"\n";
    map += boxBrushText(-16, -16, -16, kSide + 16, kSide + 16, 0);
    map += boxBrushText(-16, -16, 384, kSide + 16, kSide + 16, 400).replace(" w ", " sky1 ");
    map += boxBrushText(-16, -16, 0, 0, kSide + 16, 384);
    map += boxBrushText(kSide, -16, 0, kSide + 16, kSide + 16, 384);
    map += boxBrushText(0, -16, 0, kSide, 0, 384);
    map += boxBrushText(0, kSide, 0, kSide, kSide + 16, 384);
    for (int x = 128; x < kSide; x += 256)
        for (int y = 128; y < kSide; y += 256) map += boxBrushText(x, y, 0, x + 32, y + 32, 256);
    map += "}\n{\n\"classname\" \"light\"\n\"origin\" \"1280 1280 128\"\n\"light\" \"2500\"\n}\n";
    map += "{\n\"classname\" \"info_player_start\"\n\"origin\" \"64 64 24\"\n}\n";
    return map;
}

// What the Lit view was given, in order: each result shown.
struct Shown {
    uint64_t generation;
    bool coarse;
};

bool litCurrent(MainWindow& w) {
    const LightService& s = w.editor().lighting();
    const auto& compiled = w.editor().compiler().latest();
    return !s.busy() && s.latest().lighting && !s.latest().coarse && compiled && s.latest().world == compiled &&
           compiled->revision == w.editor().document().worldRevision();
}

// Moves the level's light by `offset` (one undoable edit, as the Move tool makes it).
void moveLight(Editor& e, const Vec3& offset) {
    const auto& entities = e.document().entities();
    const auto light = std::find_if(entities.begin(), entities.end(), [](const MapEntity& m) { return m.classname() == "light"; });
    QVERIFY(light != entities.end());
    e.document().setEntitySelection({int(light - entities.begin())});
    e.document().undoStack()->push(moveSelectionCommand(e.document(), "Move light", {}, offset));
}

} // namespace

class LightingLiveGuiTest : public QObject {
    Q_OBJECT
private slots:
    void coarseThenFullAndANewerEditCancels();
    void aLevelWithoutLightsSaysItIsBlack();
};

void LightingLiveGuiTest::coarseThenFullAndANewerEditCancels() {
    QTemporaryDir dir;
    const QString path = dir.filePath("courtyard.map");
    QVERIFY(writeLevel(path, courtyard()));
    auto w = openWindow(path);
    Editor& e = w->editor();
    const LightService& lighting = e.lighting();
    QVERIFY(waitForCompiledOverlay(*w));
    std::vector<Shown> shown;
    QObject::connect(&lighting, &LightService::lit, [&] { shown.push_back({lighting.latest().generation, lighting.latest().coarse}); });

    // The first lighting, from scratch: coarse, then full.
    w->action("shadingLit")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w); }, 120000));
    QVERIFY(shown.size() >= 2);
    QVERIFY(shown.front().coarse && !shown.back().coarse && shown.front().generation == shown.back().generation);
    QVERIFY2(lighting.latest().coarseMilliseconds > 0 && lighting.latest().coarseMilliseconds < lighting.latest().milliseconds,
             qPrintable(QString("coarse %1 ms, full %2 ms").arg(lighting.latest().coarseMilliseconds).arg(lighting.latest().milliseconds)));

    // Two edits: the second as soon as the first's coarse picture shows, while its full
    // lighting runs (seconds). The first's full lighting is cancelled, never shown.
    shown.clear();
    const uint64_t cancelledBefore = lighting.cancelled(), before = lighting.generation();
    moveLight(e, Vec3(64, 0, 0));
    QVERIFY(QTest::qWaitFor([&] { return lighting.generation() > before; }, 1000));
    QVERIFY(lighting.busy());
    const uint64_t first = lighting.generation();
    QCOMPARE(first, before + 1); // one lighting for one edit
    QVERIFY(QTest::qWaitFor([&] { return !shown.empty() && shown.back().generation == first && shown.back().coarse; }, 60000));
    moveLight(e, Vec3(0, 64, 0));
    QVERIFY(QTest::qWaitFor([&] { return lighting.generation() > first; }, 1000));
    const uint64_t second = lighting.generation();
    QCOMPARE(second, first + 1);
    QCOMPARE(lighting.cancelled(), cancelledBefore + 1);
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w); }, 120000));
    QCOMPARE(lighting.latest().generation, second);
    QVERIFY(lighting.latest().relit); // only the light moved: relit where it reaches
    bool secondStarted = false, secondCoarse = false;
    for (const Shown& s : shown) {
        QVERIFY2(!(s.generation == first && !s.coarse), "the cancelled lighting's full result was shown");
        if (s.generation == second) {
            secondCoarse = secondCoarse || (s.coarse && !secondStarted);
            secondStarted = true;
        }
        QVERIFY2(!secondStarted || s.generation == second, "a result of the first edit was shown after the second's");
    }
    QVERIFY2(secondCoarse, "the second edit showed no coarse picture first");
    QVERIFY(!shown.back().coarse && shown.back().generation == second);

    // The lighting shown: a fresh full lighting of the level as it is now, luxel by luxel.
    const auto& compiled = lighting.latest().world;
    const DocumentData& data = e.document().data();
    const std::vector<MapEntity> entities = mapOfDocumentEntities(data.entities, data.game, data.worldKeys).entities;
    LightInput input;
    input.worldBrushes = &compiled->world.brushes;
    input.entities = &entities;
    input.bounds = compiled->world.bounds;
    const LevelLighting fresh = lightLevelInTree(input, compiled->result->onion, pointPoseIndex(compiled->world.poses), 2);
    const LevelLighting& final = *lighting.latest().lighting;
    QCOMPARE(final.lightmaps.size(), fresh.lightmaps.size());
    QVERIFY(fresh.stats.luxels > 50000);
    for (size_t f = 0; f < fresh.lightmaps.size(); ++f) {
        QCOMPARE(final.lightmaps[f].stride, 1);
        QCOMPARE(final.lightmaps[f].styles.size(), fresh.lightmaps[f].styles.size());
        for (size_t s = 0; s < fresh.lightmaps[f].styles.size(); ++s) {
            QVERIFY(final.lightmaps[f].styles[s].light == fresh.lightmaps[f].styles[s].light);
            QVERIFY(final.lightmaps[f].styles[s].rgb == fresh.lightmaps[f].styles[s].rgb);
        }
    }
}

// No light, no sun, no minlight: Lit shows the level black, as the game does, and says why
// in the status bar and the 3D view's legend; a light added takes the note away.
void LightingLiveGuiTest::aLevelWithoutLightsSaysItIsBlack() {
    QTemporaryDir dir;
    const QString path = dir.filePath("dark.map");
    QString map = "{\n\"classname\" \"worldspawn\"\n";
    map += boxBrushText(-16, -16, -16, 528, 528, 0) + boxBrushText(-16, -16, 256, 528, 528, 272);
    map += boxBrushText(-16, -16, 0, 0, 528, 256) + boxBrushText(512, -16, 0, 528, 528, 256);
    map += boxBrushText(0, -16, 0, 512, 0, 256) + boxBrushText(0, 512, 0, 512, 528, 256);
    map += "}\n{\n\"classname\" \"info_player_start\"\n\"origin\" \"64 64 24\"\n}\n";
    QVERIFY(writeLevel(path, map));
    auto w = openWindow(path);
    Editor& e = w->editor();
    const LightService& lighting = e.lighting();
    QVERIFY(waitForCompiledOverlay(*w));
    QString status;
    QObject::connect(&lighting, &LightService::updated, [&](const QString& summary) { status = summary; });
    const auto noted = [&] {
        const std::vector<LegendEntry> legend = viewLegend(e, true);
        return std::any_of(legend.begin(), legend.end(), [](const LegendEntry& l) { return l.text.contains("black in the game"); });
    };
    QVERIFY(!noted()); // Flat: nothing said
    w->action("shadingLit")->trigger();
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w); }, 30000));
    QVERIFY2(status.contains("No lights: the level is black in the game"), qPrintable(status));
    QVERIFY(noted());
    for (const FaceLightmap& map : lighting.latest().lighting->lightmaps)
        for (const StyleLightmap& style : map.styles)
            QVERIFY(std::all_of(style.light.begin(), style.light.end(), [](uint8_t v) { return v == 0; }));

    MapEntity light;
    light.keys = {{"classname", "light"}, {"origin", "256 256 128"}};
    e.document().insertEntities({{int(e.document().entities().size()), light}});
    QVERIFY(QTest::qWaitFor([&] { return litCurrent(*w) && lighting.latest().lighting->stats.lights == 1; }, 30000));
    QVERIFY2(!status.contains("black in the game") && status.contains("Relit"), qPrintable(status));
    QVERIFY(!noted());
}

QTEST_MAIN(LightingLiveGuiTest)
#include "lighting_live_gui_test.moc"

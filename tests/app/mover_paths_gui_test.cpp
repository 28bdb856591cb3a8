// View > Mover Paths (issue 40): a door's swept volume and its open place drawn from the
// document's entities, following an edit of the door.
#include "gui_test_window.h"

#include "render_scene.h"
#include "services/mover_paths.h"

#include <QFile>
#include <QTemporaryDir>

using namespace shallot;
using namespace shallot::test;

namespace {


// The largest z of the mover volumes' vertices.
float topOfVolumes(const Editor& e) {
    float top = -1e9f;
    for (const render::MeshChunk& chunk : e.scene().layer(render::Layer::MoverVolumes).chunkList())
        for (const render::Vertex& v : chunk.geometry->vertices) top = std::max(top, v.position[2]);
    return top;
}

} // namespace

class MoverPathsGuiTest : public QObject {
    Q_OBJECT
private slots:
    void aDoorsSweptVolumeIsDrawn();
};

void MoverPathsGuiTest::aDoorsSweptVolumeIsDrawn() {
    QTemporaryDir dir;
    const QString path = dir.filePath("door.map");
    QString map = "{\n\"classname\" \"worldspawn\"\n" + boxBrushText(-256, -256, -16, 256, 256, 0) + "}\n";
    // A door 160 tall that opens up (angle -1) by its height less its lip (8): to z 312.
    map += "{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n" + boxBrushText(-8, -128, 0, 8, 128, 160) + "}\n";
    QVERIFY(writeLevel(path, map));
    auto w = openWindow(path);
    Editor& e = w->editor();
    QVERIFY(waitForCompiledOverlay(*w));
    QVERIFY(!e.scene().layer(render::Layer::MoverVolumes).visible);
    w->action("moverPaths")->setChecked(true);
    QCOMPARE(e.moverPaths().drawnMovers(), size_t(1));
    QVERIFY(e.scene().layer(render::Layer::MoverVolumes).visible);
    QCOMPARE(topOfVolumes(e), 312.0f);
    QVERIFY(!e.scene().layer(render::Layer::MoverOutlines).chunkList().empty());
    // A lip of 40: it opens 120, to z 280.
    std::vector<MapEntity> entities = e.document().entities();
    e.document().removeEntities({0});
    entities[0].keys.push_back({"lip", "40"});
    e.document().insertEntities({{0, entities[0]}});
    QCOMPARE(topOfVolumes(e), 280.0f);
    w->action("moverPaths")->setChecked(false);
    QVERIFY(!e.scene().layer(render::Layer::MoverVolumes).visible);
}

QTEST_MAIN(MoverPathsGuiTest)
#include "mover_paths_gui_test.moc"

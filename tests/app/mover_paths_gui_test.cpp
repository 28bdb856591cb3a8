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

QString box(int x0, int y0, int z0, int x1, int y1, int z1) {
    return QString("{\n( %1 0 0 ) ( %1 1 0 ) ( %1 0 1 ) w 0 0 0 1 1\n( %2 0 0 ) ( %2 0 1 ) ( %2 1 0 ) w 0 0 0 1 1\n"
                   "( 0 %3 0 ) ( 0 %3 1 ) ( 1 %3 0 ) w 0 0 0 1 1\n( 0 %4 0 ) ( 1 %4 0 ) ( 0 %4 1 ) w 0 0 0 1 1\n"
                   "( 0 0 %5 ) ( 1 0 %5 ) ( 0 1 %5 ) w 0 0 0 1 1\n( 0 0 %6 ) ( 0 1 %6 ) ( 1 0 %6 ) w 0 0 0 1 1\n}\n")
        .arg(x0).arg(x1).arg(y0).arg(y1).arg(z0).arg(z1);
}

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
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QString map = "{\n\"classname\" \"worldspawn\"\n" + box(-256, -256, -16, 256, 256, 0) + "}\n";
    // A door 160 tall that opens up (angle -1) by its height less its lip (8): to z 312.
    map += "{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n" + box(-8, -128, 0, 8, 128, 160) + "}\n";
    file.write(map.toUtf8());
    file.close();
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

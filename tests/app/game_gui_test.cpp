// The editor's game settings, driven through the real menus and the Poses dock under Xvfb
// on maps/q2_clip_room.map: a player clip wall (x 160..176) and a monster clip wall
// (x 336..352). Inside the monster clip wall the tree is solid for the `monster` pose only
// (tests/core/game_sample_maps_test.cpp); each edit below moves that answer, and undo
// brings it back.
#include "brush_scene_builder.h"
#include "docks/leaf_inspector.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "docks/pose_dock.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "services/overlay_controller.h"
#include "views/legend.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTableWidget>
#include <QtTest>

using namespace shallot;

namespace {

const Vec3 kInMonsterClip(344, 256, 100);
constexpr int kBlockingColumn = PoseDock::Blocking;

// The compiled tree's solidity bits (one per pose, in pose order) at `p`, once the overlays
// show a compile of the document as it is now.
uint64_t solidityAt(MainWindow& w, const Vec3& p) {
    if (!test::waitForCompiledOverlay(w)) qFatal("no compile shown");
    return w.editor().overlays().compiled()->result->onion.solidityAt(p);
}

bool legendNames(const Editor& editor, const QString& text) {
    const auto entries = viewLegend(editor, true);
    return std::any_of(entries.begin(), entries.end(), [&](const LegendEntry& e) { return e.text == text; });
}

} // namespace

class GameGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    void aQuake2LevelShowsItsGameAndItsPosesBlockingSets() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
        MainWindow& w = *window_;
        // The title holds "[*]" where Qt marks an unsaved document.
        QCOMPARE(w.windowTitle().remove("[*]"), QString("q2_clip_room.map (imported) - Quake 2 - Shallot"));
        QVERIFY(w.action("gameQuake2")->isChecked());
        QVERIFY(!w.action("gameQuake")->isChecked());
        QTableWidget* table = w.poseDock()->table();
        QCOMPARE(table->rowCount(), 4); // point, player, crouch, monster
        QCOMPARE(table->item(0, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window"));
        QCOMPARE(table->item(1, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window+playerclip"));
        QCOMPARE(table->item(3, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window+monsterclip"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));
        // Inspected inside the monster clip wall, at the top view's working height: the
        // leaf is solid for the monster alone, and the inspector names the wall's contents.
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-16, -16, 0), Vec3(528, 528, 0)});
        w.action("gridSmaller")->trigger(); // grid 8: x 344 is the wall's middle, not snapped to its face
        w.action("toolInspect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(344, 256, 0)).toPoint());
        const QString inspected = w.leafInspector()->text();
        QVERIFY2(inspected.startsWith("Point 344 256 46"), qPrintable(inspected));
        QVERIFY2(inspected.contains("monster: solid") && inspected.contains("player: empty"), qPrintable(inspected));
        QVERIFY2(QRegularExpression("Inside brushes \\d+ monsterclip\n").match(inspected).hasMatch(), qPrintable(inspected));
        // Both clip colours are in the level, so the legend names them.
        QVERIFY(legendNames(w.editor(), "player clip"));
        QVERIFY(legendNames(w.editor(), "monster clip"));
    }

    void aPosesBlockingSetTypedInTheDockChangesTheTreeAndUndoes() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
        MainWindow& w = *window_;
        QTableWidget* table = w.poseDock()->table();
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));
        const int steps = w.editor().document().undoStack()->index();
        table->item(1, kBlockingColumn)->setText("solid+monsterclip"); // the player is now stopped too
        QCOMPARE(w.editor().document().undoStack()->index(), steps + 1);
        QVERIFY(w.poseDock()->message()->isHidden());
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1010));
        QCOMPARE(table->item(1, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+monsterclip"));
        // An unknown name changes nothing and says why.
        table->item(2, kBlockingColumn)->setText("solid+lava2");
        QCOMPARE(w.editor().document().undoStack()->index(), steps + 1);
        QVERIFY(!w.poseDock()->message()->isHidden());
        QVERIFY2(w.poseDock()->message()->text().contains("\"solid+lava2\" is not a contents set"),
                 qPrintable(w.poseDock()->message()->text()));
        QCOMPARE(table->item(2, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window+playerclip"));
        // "default" unsets the set: Quake's rule (solid, window and clip for a box).
        table->item(3, kBlockingColumn)->setText("default");
        QCOMPARE(table->item(3, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("default (Quake)"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b0010));
        w.action("undo")->trigger();
        w.action("undo")->trigger();
        QCOMPARE(table->item(1, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window+playerclip"));
        QCOMPARE(table->item(3, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("solid+window+monsterclip"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));
    }

    void theSelectionsContentsAreShownAndSetInOneStep() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
        MainWindow& w = *window_;
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForCompiledOverlay(w));
        QVERIFY(!w.action("contentsSolid")->isEnabled()); // nothing selected
        // A click on the monster clip wall in the top view (cut at the player's eye).
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-16, -16, 0), Vec3(528, 528, 0)});
        w.action("toolSelect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(344, 256, 0)).toPoint());
        QCOMPARE(doc.selection().size(), size_t(1));
        QCOMPARE(doc.brushes()[size_t(doc.selection()[0])].contents, BrushContents::MonsterClip);
        QCOMPARE(w.action("contentsOfSelection")->text(), QString("Selection: monsterclip"));
        QVERIFY(w.action("contentsMonsterclip")->isChecked());
        QVERIFY(!w.action("contentsSolid")->isChecked());

        const int steps = doc.undoStack()->index();
        w.action("contentsNonsolid")->trigger();
        QCOMPARE(doc.undoStack()->index(), steps + 1);
        QCOMPARE(w.action("contentsOfSelection")->text(), QString("Selection: nonsolid"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0));
        QVERIFY(!legendNames(w.editor(), "monster clip"));
        QVERIFY(legendNames(w.editor(), "non-solid brush"));
        w.action("contentsSolid")->trigger();
        QVERIFY(w.action("contentsSolid")->isChecked());
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1111)); // solid stops every pose
        w.action("contentsSolid")->trigger(); // toggled off again: nonsolid
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0));
        w.action("undo")->trigger();
        w.action("undo")->trigger();
        w.action("undo")->trigger();
        QCOMPARE(doc.undoStack()->index(), steps);
        QCOMPARE(w.action("contentsOfSelection")->text(), QString("Selection: monsterclip"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));
    }

    // Issue 31: contents set with Edit > Contents are written into the exported .map (Quake 2
    // face fields) and read back; the brushes left alone are written as they were.
    void contentsSetInTheEditorAreExportedToTheMap() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
        MainWindow& w = *window_;
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForCompiledOverlay(w));
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(-16, -16, 0), Vec3(528, 528, 0)});
        w.action("toolSelect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(344, 256, 0)).toPoint()); // the monster clip wall
        QCOMPARE(doc.selection().size(), size_t(1));
        const size_t wall = size_t(doc.selection()[0]);
        w.action("contentsNonsolid")->trigger();
        w.action("contentsPlayerclip")->trigger();
        w.action("contentsWater")->trigger();
        QCOMPARE(w.action("contentsOfSelection")->text(), QString("Selection: playerclip+water"));
        QCOMPARE(doc.brushes()[wall].contents, BrushContents::PlayerClip | BrushContents::Water);

        QTemporaryDir dir;
        const QString path = dir.filePath("clip_room.map");
        QVERIFY(w.saveTo(path));
        const MapReadResult exported = readMapFile(path.toStdString());
        QVERIFY2(exported.ok(), exported.error.format().c_str());
        QCOMPARE(exported.map->game, Game::Quake2);
        const World world = worldFromMap(*exported.map);
        QCOMPARE(world.brushes.size(), doc.brushes().size());
        for (size_t b = 0; b < world.brushes.size(); ++b) {
            QCOMPARE(world.brushes[b].contents, doc.brushes()[b].contents);
            // Only the wall's sides changed: its fields say player clip and water (0x10020).
            for (size_t s = 0; s < world.brushes[b].sides.size(); ++s) {
                const std::string& params = world.brushes[b].sides[s].textureParams;
                QCOMPARE(params, b == wall ? std::string("0 0 0 1 1 65568 0 0") : doc.brushes()[b].sides[s].textureParams);
                QCOMPARE(world.brushes[b].sides[s].texture, doc.brushes()[b].sides[s].texture);
            }
        }
        // Opened again: the wall stops the player and crouch poses (player clip), not the
        // point or the monster.
        window_ = test::openWindow(path);
        QCOMPARE(window_->editor().document().brushes()[wall].contents, BrushContents::PlayerClip | BrushContents::Water);
        QCOMPARE(solidityAt(*window_, kInMonsterClip), uint64_t(0b0110));
    }

    void changingTheGameChangesItsDefaultPosesAndUndoes() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q2_clip_room.map");
        MainWindow& w = *window_;
        EditorDocument& doc = w.editor().document();
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));
        const int steps = doc.undoStack()->index();
        w.action("gameQuake")->trigger();
        QCOMPARE(doc.undoStack()->index(), steps + 1);
        QCOMPARE(doc.data().game, Game::Quake);
        QVERIFY2(w.windowTitle().endsWith(" - Quake - Shallot"), qPrintable(w.windowTitle()));
        QVERIFY(w.action("gameQuake")->isChecked());
        // Quake's poses (point, player, large), blocked by Quake's rule: a monster clip
        // stops nobody.
        QCOMPARE(doc.poses().size(), size_t(3));
        QCOMPARE(w.poseDock()->table()->item(1, kBlockingColumn)->data(PoseDock::kFullTextRole).toString(), QString("default (Quake)"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0));
        w.action("undo")->trigger();
        QCOMPARE(doc.data().game, Game::Quake2);
        QVERIFY2(w.windowTitle().endsWith(" - Quake 2 - Shallot"), qPrintable(w.windowTitle()));
        QVERIFY(w.action("gameQuake2")->isChecked());
        QCOMPARE(doc.poses().size(), size_t(4));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0b1000));

        // Poses of the designer's own stay when the game changes; the dock's preset gives
        // the game's.
        w.poseDock()->table()->item(3, kBlockingColumn)->setText("solid");
        w.action("gameHalfLife")->trigger();
        QCOMPARE(doc.data().game, Game::HalfLife);
        QCOMPARE(doc.poses().size(), size_t(4));
        QCOMPARE(doc.poses()[3].name, std::string("monster"));
        w.poseDock()->findChild<QAction*>("gamePosesPreset")->trigger();
        QCOMPARE(doc.poses()[1].name, std::string("human"));
        QCOMPARE(solidityAt(w, kInMonsterClip), uint64_t(0)); // Half-Life's hulls ignore a monster clip
        w.action("undo")->trigger();
        w.action("undo")->trigger();
        QCOMPARE(doc.data().game, Game::Quake2);
        QCOMPARE(doc.poses()[3].name, std::string("monster"));
    }

    // maps/q3_patch_room.map: its 3 x 5 arch is tessellated and drawn (shaded both sides in
    // 3D, its grid in 2D) in the patch colour the legend names, and blocks no pose.
    void aQuake3PatchIsDrawnNotCollided() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/q3_patch_room.map");
        MainWindow& w = *window_;
        QVERIFY2(w.windowTitle().endsWith(" - Quake 3 - Shallot"), qPrintable(w.windowTitle()));
        const std::vector<PatchMesh>& patches = w.editor().patchMeshes();
        QCOMPARE(patches.size(), size_t(1));
        QCOMPARE(patches[0].rows, 17); // two spans of 8 along each group's 5 points
        QCOMPARE(patches[0].columns, 9);
        QVERIFY(legendNames(w.editor(), "patch (not collided)"));
        QVERIFY(!legendNames(w.editor(), "non-solid brush")); // the trigger is an entity's
        const auto count = [&](render::Layer layer, const QColor& colour) {
            size_t n = 0;
            for (const render::MeshChunk& c : w.editor().scene().layer(layer).chunkList())
                for (const render::Vertex& v : c.geometry->vertices)
                    n += v.colour[0] == colour.red() && v.colour[1] == colour.green() && v.colour[2] == colour.blue();
            return n;
        };
        // 16 x 8 cells, two triangles a side, two sides; 17 x 8 + 9 x 16 grid lines.
        QCOMPARE(count(render::Layer::BrushFaces, render::kPatchColour), size_t(16 * 8 * 2 * 2 * 3));
        QCOMPARE(count(render::Layer::BrushEdges, render::kPatchColour.lighter(125)), size_t((17 * 8 + 9 * 16) * 2));
        // Under the arch's top and on its side: empty for every pose, as if it were not there.
        QCOMPARE(solidityAt(w, Vec3(248, 256, 190)), uint64_t(0));
        QCOMPARE(solidityAt(w, patches[0].at(3, 4)), uint64_t(0));
        // Selecting everything selects the brushes alone.
        w.action("selectAll")->trigger();
        QCOMPARE(w.editor().document().selection().size(), w.editor().document().brushes().size());
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    GameGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "game_gui_test.moc"

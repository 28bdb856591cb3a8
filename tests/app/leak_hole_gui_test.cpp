// A leak clicked in the Problems dock with the mouse (issue 37): the views frame the hole
// its path leaves the level through, not the player start it begins at; the path is the
// selection (drawn in the selection's colour, no entity selected) and the 2D views cut
// through the hole. maps/leaky_box.map: a room 0..512 x 0..512 x 0..256 with a 128 x 128
// hole in its east wall (x 512..528, y 192..320, z 0..128); the player start at 128 128 24.
#include "docks/problems_dock.h"
#include "entity_scene_builder.h"
#include "gui_test_window.h"
#include "palette.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace shallot;

namespace {

const Aabb kOpening{Vec3(512, 192, 0), Vec3(528, 320, 128)};
const Vec3 kStart(128, 128, 24);
// The hole is found on the cells' faces around the opening, which the largest pose's
// expanded walls place up to its box (32 across, 64 up) away from it, and is framed grown
// by the pose's box (the body passing through).
const Aabb kNearOpening{kOpening.mins - Vec3(64, 64, 128), kOpening.maxs + Vec3(64, 64, 128)};

// Whether a layer has a vertex of this colour (alpha ignored).
bool hasColour(const render::SceneLayer& layer, const QColor& c) {
    for (const auto& chunk : layer.chunkList())
        for (const render::Vertex& v : chunk.geometry->vertices)
            if (v.colour[0] == c.red() && v.colour[1] == c.green() && v.colour[2] == c.blue()) return true;
    return false;
}

} // namespace

class LeakHoleGuiTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void clickingALeakFramesItsHoleAndSelectsItsPath() {
        const auto window = test::openWindow(SHALLOT_SAMPLE_MAPS "/leaky_box.map");
        MainWindow& w = *window;
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForSpawnChecks(w));
        QListWidget* list = w.problemsDock()->list();
        const QList<QListWidgetItem*> leaks = list->findItems("leak", Qt::MatchStartsWith);
        QCOMPARE(leaks.size(), int(doc.poses().size())); // every pose leaks through the hole
        std::vector<Aabb> framed;
        QObject::connect(&w.editor(), &Editor::frameRequested, [&](const Aabb& box) { framed.push_back(box); });
        w.problemsDock()->show();
        w.problemsDock()->raise();
        QVERIFY(QTest::qWaitForWindowExposed(list));
        for (QListWidgetItem* leak : leaks) {
            framed.clear();
            list->scrollToItem(leak);
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(leak).center());
            QCOMPARE(framed.size(), size_t(1));
            const Aabb& box = framed[0];
            const QString where = QString("%1: framed %2 %3 %4 .. %5 %6 %7")
                                      .arg(leak->text())
                                      .arg(box.mins.x()).arg(box.mins.y()).arg(box.mins.z())
                                      .arg(box.maxs.x()).arg(box.maxs.y()).arg(box.maxs.z());
            // The hole: at the opening (touching it at least), never the start.
            QVERIFY2(!box.empty() && kNearOpening.contains(box.mins) && kNearOpening.contains(box.maxs), qPrintable(where));
            QVERIFY2(box.overlaps(kOpening), qPrintable(where));
            QVERIFY2(!box.contains(kStart), qPrintable(where));
            // The top view is centred on it; the whole opening is in view, the start is not
            // at its centre.
            Viewport2D* top = w.view2d(0);
            const Vec3 lo = top->viewPoint(QPointF(0, top->height()), {}).world;
            const Vec3 hi = top->viewPoint(QPointF(top->width(), 0), {}).world;
            const Vec3 centre = top->viewPoint(QPointF(top->width() / 2.0, top->height() / 2.0), {}).world;
            QVERIFY2(lo.x() <= kOpening.mins.x() && hi.x() >= kOpening.maxs.x() && lo.y() <= kOpening.mins.y() &&
                         hi.y() >= kOpening.maxs.y(), qPrintable(where));
            QVERIFY2(kNearOpening.contains(Vec3(centre.x(), centre.y(), kOpening.mins.z())), qPrintable(where));
            // The 2D views cut through the hole.
            QVERIFY(kNearOpening.contains(doc.workingPoint()));
            // The path is the selection, not the start.
            QVERIFY(doc.entitySelection().empty() && doc.selection().empty());
            QVERIFY(!w.editor().selectedProblemPath().empty());
            QVERIFY((w.editor().selectedProblemPath().front() - kStart).norm() < 1); // placed as placeStart does
            QVERIFY(hasColour(w.editor().scene().layer(render::Layer::ProblemPaths), render::kSelectionColour));
        }
        // Selecting a brush deselects the path.
        doc.setSelection({0});
        QVERIFY(w.editor().selectedProblemPath().empty());
        QVERIFY(!hasColour(w.editor().scene().layer(render::Layer::ProblemPaths), render::kSelectionColour));
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    LeakHoleGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "leak_hole_gui_test.moc"

// The 2D views' working planes, driven by real mouse and key events under Xvfb: rays drawn
// in the top view stand on the floor below the working height, Inspect reports the air at
// that height, the depth lines are dragged by their tabs, and the overlays of each 2D view
// are the sections of the 3D data by its plane (checked against the leaves themselves).
#include "document/editor_document.h"
#include "geometry/axis_section.h"
#include "gui_test_window.h"
#include "docks/leaf_inspector.h"
#include "views/legend.h"
#include "main_window.h"
#include "portal/reachability.h"
#include "services/overlay_controller.h"
#include "section_overlays.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace shallot;

namespace {

// figure1_rooms: the lower room is x 200..600, y 200..400, floor top z 0, ceiling 256; its
// east wall x 600..616. The player start stands at 400 300 24 (eye 46).
constexpr int kPlayer = 1;

bool waitForSections(MainWindow& w) {
    return QTest::qWaitFor([&] {
        const SectionService& s = w.editor().overlays().sections();
        const auto& compiled = w.editor().overlays().compiled();
        return test::waitForCompiledOverlay(w, 1) && s.shownBuilds() > 0 && s.shown().compiled == compiled &&
               s.shown().workingPoint == w.editor().document().workingPoint() &&
               s.shown().settings.cells.pose == w.editor().currentPose() &&
               s.shown().settings.cellsOn == w.editor().overlays().isOn(Overlay::Cells);
    }, 20000);
}

// The triangles of a layer, as area per colour (RGBA).
std::map<QRgb, double> areaByColour(const render::SceneLayer& layer) {
    std::map<QRgb, double> out;
    for (const auto& chunk : layer.chunkList()) {
        const auto& v = chunk.geometry->vertices;
        for (size_t i = 0; i + 2 < v.size(); i += 3) {
            auto at = [&](size_t k) { return Vec3(v[k].position[0], v[k].position[1], v[k].position[2]); };
            const double area = 0.5 * (at(i + 1) - at(i)).cross(at(i + 2) - at(i)).norm();
            out[qRgba(v[i].colour[0], v[i].colour[1], v[i].colour[2], v[i].colour[3])] += area;
        }
    }
    return out;
}

// The colours of the triangles of a layer drawn in view `axis` that hold p (in the view's
// plane), or nothing when p lies within kOnEdge of one's edge (there rounding decides).
std::optional<std::vector<QRgb>> coloursAt(const render::SceneLayer& layer, int axis, const Vec3& p) {
    constexpr double kOnEdge = 0.01;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    std::vector<QRgb> out;
    for (const auto& chunk : layer.chunkList()) {
        const auto& t = chunk.geometry->vertices;
        for (size_t i = 0; i + 2 < t.size(); i += 3) {
            // Distances of p from the triangle's edges, positive to their left.
            double side[3];
            for (size_t k = 0; k < 3; ++k) {
                const auto& a = t[i + k].position;
                const auto& b = t[i + (k + 1) % 3].position;
                const double eu = b[u] - a[u], ev = b[v] - a[v], length = std::hypot(eu, ev);
                side[k] = length > 0 ? (eu * (p[v] - a[v]) - ev * (p[u] - a[u])) / length : 0.0;
            }
            const double lo = std::min({side[0], side[1], side[2]}), hi = std::max({side[0], side[1], side[2]});
            const bool inside = lo > 0 || hi < 0; // either winding
            const bool onEdge = (lo > -kOnEdge && lo <= kOnEdge) || (hi < kOnEdge && hi >= -kOnEdge);
            if (onEdge) return std::nullopt;
            if (inside) out.push_back(qRgba(t[i].colour[0], t[i].colour[1], t[i].colour[2], t[i].colour[3]));
        }
    }
    return out;
}

} // namespace

class WorkingPlaneGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    MainWindow& fresh(const QString& file) {
        window_ = test::openWindow(file);
        return *window_;
    }

    static void drag(Viewport2D* view, const QPoint& a, const QPoint& b) { test::dragBetween(view, a, b); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    // The working point opens at the player start's eye; a ray dragged across the room in
    // the top view stands on its floor for the pose and stops at the far wall.
    void aRayDrawnInTheTopViewStandsOnTheFloorAndHitsTheFarWall() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        QCOMPARE(doc.workingPoint(), Vec3(400, 300, 46));
        // The camera far above the level, as it is when a level without a start opens: it
        // has no say in where rays go.
        CameraState above = doc.data().camera;
        above.position = Vec3(400, 300, 2000);
        doc.setCamera(above);
        w.editor().setCurrentPose(kPlayer);
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(700, 450, 0)});
        w.action("toolRay")->trigger();
        drag(top, top->toWidget(Vec3(256, 304, 0)).toPoint(), top->toWidget(Vec3(688, 304, 0)).toPoint());
        QCOMPARE(doc.rays().size(), size_t(1));
        QCOMPARE(doc.rays()[0].from, Vec3(256, 304, 25)); // the player's box (24 below) 1 above the floor
        QCOMPARE(doc.rays()[0].to, Vec3(688, 304, 25));
        QVERIFY(test::waitForCompiledOverlay(w));
        QVERIFY(QTest::qWaitFor([&] { return w.editor().overlays().rayResults().size() == 1; }));
        const TraceResult& r = w.editor().overlays().rayResults()[0][kPlayer];
        QVERIFY(r.hit && !r.startSolid);
        QCOMPARE(r.point.x(), 600.0 - 16); // the box's face against the east wall
        QCOMPARE(r.normal, Vec3(-1, 0, 0));

        // Dragged in the front view, the end keeps its y and moves in x and z only.
        Viewport2D* front = w.view2d(1);
        front->frame({Vec3(150, 0, -50), Vec3(750, 0, 350)});
        drag(front, front->toWidget(Vec3(688, 0, 25)).toPoint(), front->toWidget(Vec3(560, 0, 96)).toPoint());
        QCOMPARE(doc.rays()[0].to, Vec3(560, 304, 96));
    }

    // Inspect in the top view reports the room's leaf at the working height, not the void
    // above the roof.
    void inspectInTheTopViewReportsTheRoomAtTheWorkingHeight() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QVERIFY(test::waitForCompiledOverlay(w));
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(700, 450, 0)});
        w.action("toolInspect")->trigger();
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(320, 320, 0)).toPoint());
        const QString text = w.leafInspector()->text();
        QVERIFY2(text.startsWith("Point 320 320 46"), qPrintable(text));
        const QRegularExpressionMatch leaf = QRegularExpression("Leaf (\\d+)").match(text);
        QVERIFY(leaf.hasMatch());
        const auto& compiled = w.editor().overlays().compiled();
        const BspTree& tree = compiled->result->onion;
        const size_t index = leaf.captured(1).toULong();
        QCOMPARE(int32_t(index), tree.findLeaf(Vec3(320, 320, 46)));
        QVERIFY(!(tree.leafSolid[index] & 1u)); // empty for the point pose
        const Aabb cell = compiled->cells[index].bounds();
        // Inside the room (walls 200..600 x 200..400, floor 0, ceiling 256).
        QVERIFY(cell.mins.z() >= 0 - 1e-6 && cell.maxs.z() <= 256 + 1e-6);
        QVERIFY(cell.mins.x() >= 200 - 1e-6 && cell.maxs.x() <= 600 + 1e-6);
    }

    // The top view's height is a line in the front view, dragged there by its tab (with any
    // tool); Page Up / Down step the view's own depth; the sections follow.
    void theWorkingHeightIsDraggedByItsTabAndTheSectionsFollow() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        QVERIFY(waitForSections(w));
        Viewport2D* front = w.view2d(1);
        front->frame({Vec3(150, 0, -50), Vec3(750, 0, 350)});
        w.action("toolBox")->trigger(); // tabs take the press from any tool
        const size_t brushes = doc.brushes().size();
        const QPoint tab(int(Viewport2D::kWorkingTabPixels / 2), front->toWidget(Vec3(0, 0, 46)).toPoint().y());
        drag(front, tab, QPoint(tab.x(), front->toWidget(Vec3(0, 0, 128)).toPoint().y()));
        QCOMPARE(doc.brushes().size(), brushes); // no box drawn
        QCOMPARE(doc.workingPoint(), Vec3(400, 300, 128));
        QVERIFY(waitForSections(w));
        QCOMPARE(w.editor().overlays().sections().shown().workingPoint.z(), 128.0);
        Viewport2D* top = w.view2d(0);
        QTest::mouseMove(top, top->rect().center());
        QTest::keyClick(top, Qt::Key_PageDown);
        QCOMPARE(doc.workingPoint().z(), 112.0);
        QTest::keyClick(top, Qt::Key_PageUp);
        QTest::keyClick(top, Qt::Key_PageUp);
        QCOMPARE(doc.workingPoint().z(), 144.0);
        // The top view draws the sections at z 144, the others not.
        QVERIFY(waitForSections(w));
        const auto& scene = w.editor().scene();
        QVERIFY(!scene.layer(render::sectionLines(2)).chunkList().empty()); // the walls cut at z 144
        QVERIFY(scene.layer(render::sectionLines(2)).drawnIn(2) && !scene.layer(render::sectionLines(2)).drawnIn(1));
        // Saved and reopened, the working point stays.
        QTemporaryDir dir;
        const QString path = dir.filePath("w.shallot");
        QVERIFY(w.saveTo(path));
        MainWindow& again = fresh(path);
        QCOMPARE(again.editor().document().workingPoint(), Vec3(400, 300, 144));
    }

    // A click in the top view selects what its plane cuts or the floor below it, as drawn;
    // with the projection, the brush nearest the viewer (the ceiling).
    void aClickInACutViewPicksTheFloorBelowThePlaneNotTheCeiling() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(700, 450, 0)});
        w.action("toolSelect")->trigger();
        const QPoint room = top->toWidget(Vec3(300, 250, 0)).toPoint();
        auto selectedTop = [&] {
            return doc.selection().size() == 1 ? w.editor().geometry()[size_t(doc.selection()[0])]->bounds.maxs.z() : -1.0;
        };
        QTest::mouseClick(top, Qt::LeftButton, {}, room);
        QCOMPARE(selectedTop(), 0.0); // the floor's top
        doc.setSelection({});
        w.action("sections2d")->setChecked(false);
        QTest::mouseClick(top, Qt::LeftButton, {}, room);
        QCOMPARE(selectedTop(), 272.0); // the roof
        w.action("sections2d")->setChecked(true);
        // At the plane through a wall, the wall.
        doc.setSelection({});
        QTest::mouseClick(top, Qt::LeftButton, {}, top->toWidget(Vec3(192, 250, 0)).toPoint());
        QCOMPARE(doc.selection().size(), size_t(1));
        const Aabb wall = w.editor().geometry()[size_t(doc.selection()[0])]->bounds;
        QVERIFY(wall.mins.z() < 46 && wall.maxs.z() > 46 && wall.maxs.x() <= 200);
    }

    // The cells of the top view at standing height are the leaves cut by the plane: their
    // filled area per colour equals the area of the sections of the leaves empty for the
    // pose (green) and of the void (its own colour), computed here from the cells.
    void theTopViewShowsTheCellsCutAtTheWorkingHeightWithTheVoidApart() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        w.editor().setCurrentPose(kPlayer);
        w.action("overlayLeafcells")->setChecked(true);
        QVERIFY(waitForSections(w));
        const auto& compiled = w.editor().overlays().compiled();
        const BspTree& tree = compiled->result->onion;
        const double z = w.editor().document().workingPoint().z();
        const std::vector<bool> outside = reachableFromOutside(tree, kPlayer);
        double empty = 0, voidArea = 0;
        for (size_t leaf = 0; leaf < tree.leafCount(); ++leaf) {
            if (tree.leafSolid[leaf] >> kPlayer & 1u) continue;
            const double a = axisSection(compiled->cells[leaf], 2, z).area();
            (outside[leaf] ? voidArea : empty) += a;
        }
        QColor green = render::kEmptyCellColour, violet = render::kVoidColour;
        green.setAlpha(render::kSectionAlpha);
        violet.setAlpha(render::kSectionAlpha);
        const std::map<QRgb, double> drawn = areaByColour(w.editor().scene().layer(render::sectionFills(2)));
        QVERIFY(empty > 0 && voidArea > 0);
        QCOMPARE(drawn.size(), size_t(2));
        QVERIFY(std::abs(drawn.at(green.rgba()) - empty) < 1e-3 * empty);
        QVERIFY(std::abs(drawn.at(violet.rgba()) - voidArea) < 1e-3 * voidArea);
        // Where a standing player's reference point may be in the room at eye height: the
        // room shrunk by the box's half width (200..600 x 200..400 less 16).
        const double room = (600 - 200 - 32) * (400 - 200 - 32);
        QVERIFY2(empty >= room - 1e-3, qPrintable(QString::number(empty)));
        // The legend names both colours, and the projection setting brings the old
        // overlay back into the 2D views.
        const std::vector<LegendEntry> legend = viewLegend(w.editor(), false);
        auto named = [&](const QColor& c) {
            return std::any_of(legend.begin(), legend.end(), [&](const LegendEntry& e) { return e.colour.rgb() == c.rgb(); });
        };
        QVERIFY(named(render::kEmptyCellColour) && named(render::kVoidColour));
        QVERIFY(!w.editor().scene().layer(render::Layer::LeafCells).drawnIn(2));
        w.action("sections2d")->setChecked(false);
        QVERIFY(w.editor().scene().layer(render::Layer::LeafCells).drawnIn(2));
        QVERIFY(w.editor().scene().layer(render::sectionFills(2)).chunkList().empty());
        const std::vector<LegendEntry> projected = viewLegend(w.editor(), false);
        QVERIFY(std::none_of(projected.begin(), projected.end(),
                             [](const LegendEntry& e) { return e.colour.rgb() == render::kVoidColour.rgb(); }));
    }

    // A working plane on a face of the player's expanded walls (the room's north wall is
    // y 400..416, so y 384 for the player's box) crosses no cell, but every cell beside the
    // face touches it; such a view used to draw neither side (issue 37). With every cell
    // drawn (filter All), each point of the front view's section around the level is drawn
    // once, in the colour of what the tree says there: solid, empty, or the void. A brush
    // resting on the plane is outlined there.
    void aSectionOnAnExpandedFaceIsDrawnOnceEverywhere() {
        MainWindow& w = fresh(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        EditorDocument& doc = w.editor().document();
        w.editor().setCurrentPose(kPlayer);
        w.action("sections2d")->setChecked(true); // a test before may have left them off
        w.action("overlayLeafcells")->setChecked(true);
        w.editor().overlays().setCellFilter(render::CellFilter::All);
        auto colourOf = [](QColor c) {
            c.setAlpha(render::kSectionAlpha);
            return c.rgba();
        };
        // The front view's plane dragged onto the face by its tab in the top view, as a
        // designer does; then the wall's own face and a plane between.
        Viewport2D* top = w.view2d(0);
        top->frame({Vec3(150, 150, 0), Vec3(700, 850, 0)});
        const QPoint tab(int(Viewport2D::kWorkingTabPixels / 2), top->toWidget(Vec3(0, 300, 0)).toPoint().y());
        drag(top, tab, QPoint(tab.x(), top->toWidget(Vec3(0, 384, 0)).toPoint().y()));
        QCOMPARE(doc.workingPoint(), Vec3(400, 384, 46));
        for (const double y : {384.0, 400.0, 392.0}) {
            doc.setWorkingPoint(Vec3(400, y, 46));
            const SectionService& sections = w.editor().overlays().sections();
            QVERIFY2(waitForSections(w), qPrintable(QString("builds %1, shown at y %2, pose %3, cells %4, compiled %5")
                                                        .arg(sections.shownBuilds()).arg(sections.shown().workingPoint.y())
                                                        .arg(sections.shown().settings.cells.pose)
                                                        .arg(sections.shown().settings.cellsOn)
                                                        .arg(sections.shown().compiled == w.editor().overlays().compiled())));
            QVERIFY(QTest::qWaitFor([&] {
                return w.editor().overlays().sections().shown().settings.cells.filter == render::CellFilter::All;
            }, 20000));
            const BspTree& tree = w.editor().overlays().sections().shown().compiled->result->onion;
            const std::vector<bool> outside = reachableFromOutside(tree, kPlayer);
            const render::SceneLayer& fills = w.editor().scene().layer(render::sectionFills(1));
            int points = 0;
            for (double x = 100.3; x < 700; x += 7.1)
                for (double z = -60.7; z < 340; z += 6.3) {
                    const Vec3 p(x, y, z);
                    const auto colours = coloursAt(fills, 1, p);
                    if (!colours) continue;
                    ++points;
                    const int32_t leaf = tree.findLeaf(p);
                    const bool solid = tree.isSolid(p, kPlayer);
                    const QRgb expected = colourOf(solid ? render::kSolidCellColour
                                                   : outside[size_t(leaf)] ? render::kVoidColour : render::kEmptyCellColour);
                    QVERIFY2(colours->size() == 1 && colours->front() == expected,
                             qPrintable(QString("y %1: (%2, %3) drawn %4 times").arg(y).arg(x).arg(z).arg(colours->size())));
                }
            QVERIFY(points > 3000);
            if (y != 400.0) continue;
            // The wall x 200..300, y 400..416 rests on the plane y 400: its cut is drawn (seen
            // from above, as the cells are), its east edge from the floor to the ceiling.
            bool eastEdge = false;
            for (const auto& chunk : w.editor().scene().layer(render::sectionLines(1)).chunkList()) {
                const auto& v = chunk.geometry->vertices;
                for (size_t i = 0; i + 1 < v.size(); i += 2)
                    eastEdge |= v[i].position[0] == 300 && v[i + 1].position[0] == 300 &&
                                std::abs(v[i].position[2] - v[i + 1].position[2]) == 256 &&
                                v[i].colour[0] == render::kBrushCutColour.red();
            }
            QVERIFY(eastEdge);
        }
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    WorkingPlaneGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "working_plane_gui_test.moc"

// The Path tool (G) on id_e1m1, driven by real mouse events under Xvfb: drags between
// random walkable points seen in the top view at the player start's height find every path
// `shallot-cli query` finds between the same floors; a drag onto a wall says why there is
// no path, at the cursor and in the status bar.
#include "gui_test_window.h"
#include "main_window.h"
#include "nav/nav_mesh.h"
#include "palette.h"
#include "services/mover_states.h"
#include "services/nav_service.h"
#include "services/overlay_controller.h"
#include "views/tool_note_painter.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QLabel>
#include <QStatusBar>
#include <QtTest>
#include <random>

using namespace shallot;

namespace {

const QString kLevel = SHALLOT_SHARED_MAPS "/id_e1m1.map";
const Vec3 kPlayerStart(480, -352, 88);
// A drawn point is this far inside its floor's outline, so that rounding at an edge cannot
// put it on the neighbour's side; and this many pixels from every point drawn before it, so
// that a press never grabs an earlier path's end (the tool grabs within 8 pixels).
constexpr double kInsideOutline = 2.0;
constexpr double kApartPixels = 12.0;

// The floors under (x, y) where the mesh's pose stands, by brute force over every polygon:
// the reference point's height on each polygon holding (x, y) well inside its outline;
// nothing when (x, y) is near the outline of one (on which side is rounding's choice).
std::optional<std::vector<double>> floorsUnder(const NavMesh& mesh, double x, double y) {
    std::vector<double> floors;
    for (const NavPolygon& poly : mesh.polygons) {
        const bool inside = containsXY(poly.vertices, Vec3(x, y, 0), -kInsideOutline);
        if (inside) floors.push_back(heightOnPolygon(poly, x, y));
        else if (containsXY(poly.vertices, Vec3(x, y, 0), kInsideOutline)) return std::nullopt;
    }
    return floors;
}

// Whether no polygon comes near (x, y) at all: no floor anywhere in that column.
bool noFloorNear(const NavMesh& mesh, double x, double y) {
    for (const NavPolygon& poly : mesh.polygons)
        if (containsXY(poly.vertices, Vec3(x, y, 0), kInsideOutline)) return false;
    return true;
}

// shallot-cli query's answers (found or not) to path queries for `pose` between the pairs,
// with typed travel through doors, lifts and teleporters as the Path tool walks
// (docs/movers.md).
std::vector<bool> cliFinds(const QString& pose, const std::vector<std::pair<Vec3, Vec3>>& pairs) {
    QByteArray input;
    auto point = [](const Vec3& p) { return QJsonArray{p.x(), p.y(), p.z()}; };
    for (const auto& [from, to] : pairs)
        input += QJsonDocument(QJsonObject{{"op", "path"}, {"pose", pose}, {"from", point(from)}, {"to", point(to)}})
                     .toJson(QJsonDocument::Compact) +
                 "\n";
    QProcess cli;
    cli.start(SHALLOT_CLI_BINARY, {"query", kLevel});
    cli.write(input);
    cli.closeWriteChannel();
    if (!cli.waitForFinished(120000)) qFatal("shallot-cli query did not finish");
    std::vector<bool> found;
    for (const QByteArray& line : cli.readAllStandardOutput().split('\n'))
        if (!line.trimmed().isEmpty()) found.push_back(QJsonDocument::fromJson(line).object().value("found").toBool());
    return found;
}

} // namespace

class PathToolGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    int pose_ = -1;
    // What the top view shows and the points are drawn from: the extent of the level's
    // floors where the player stands.
    Aabb region_;

    // id_e1m1 with the player pose, the working height at the player start's, the top view
    // on region_ and the Path tool on with the meshes of the level built: the top view.
    Viewport2D* openWithThePathTool() {
        window_ = test::openWindow(kLevel);
        MainWindow& w = *window_;
        // The movers left out: `shallot-cli query` paths on a .map walk the world without them.
        w.editor().moverStates().setPlacement(MoverPlacement::LeftOut, 0.0);
        if (!test::waitForCompiledOverlay(w, 60000)) return nullptr;
        const auto& poses = w.editor().document().poses();
        for (size_t i = 0; i < poses.size(); ++i)
            if (poses[i].name == "player") pose_ = int(i);
        if (pose_ < 0) return nullptr;
        w.editor().setCurrentPose(pose_);
        Vec3 working = w.editor().document().workingPoint();
        working.z() = kPlayerStart.z();
        w.editor().document().setWorkingPoint(working);
        w.action("toolPath")->trigger();
        const auto& compiled = w.editor().compiler().latest();
        // The travel too: it walks the world without the movers, compiled after the first
        // compile at the lowest priority (background_jobs.h).
        if (!QTest::qWaitFor([&] {
                const auto& m = w.editor().overlays().nav().meshes();
                return m && m->world == compiled && m->travelOf(pose_);
            }, 60000))
            return nullptr;
        region_ = Aabb();
        for (const NavPolygon& poly : mesh().polygons) region_.add(poly.bounds);
        region_.mins.z() = region_.maxs.z() = 0;
        Viewport2D* top = w.view2d(0);
        top->frame(region_);
        return top;
    }

    const NavMesh& mesh() const { return *window_->editor().overlays().nav().meshes()->poses[size_t(pose_)]; }

    // The floor a path's end dragged to (x, y) stands on: the highest with the player's
    // feet not above the working height (kPlayerStart.z()), by brute force.
    std::optional<double> floorSeenFromTheWorkingHeight(double x, double y) const {
        const double feetToReference = -window_->editor().document().poses()[size_t(pose_)].mins.z();
        std::optional<double> best;
        const std::optional<std::vector<double>> floors = floorsUnder(mesh(), x, y);
        if (!floors) return std::nullopt;
        for (double f : *floors)
            if (f - feetToReference <= kPlayerStart.z() && (!best || f > *best)) best = f;
        return best;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        if (!QFile::exists(kLevel)) QSKIP("no shared id_e1m1.map");
    }
    void cleanup() { window_.reset(); }

    void twentyDragsFindEveryPathTheCliFinds() {
        Viewport2D* top = openWithThePathTool();
        QVERIFY(top);
        MainWindow& w = *window_;
        const double grid = w.editor().document().data().gridSize;
        // Random grid points of the region with a floor seen from the working height.
        std::mt19937 rng(37);
        std::uniform_int_distribution<int> gx(int(region_.mins.x() / grid), int(region_.maxs.x() / grid)),
            gy(int(region_.mins.y() / grid), int(region_.maxs.y() / grid));
        std::vector<Vec3> points; // x, y and the reference point's floor height
        std::vector<QPoint> pixels;
        for (int tries = 0; points.size() < 40 && tries < 100000; ++tries) {
            const double x = gx(rng) * grid, y = gy(rng) * grid;
            const QPoint pixel = top->toWidget(Vec3(x, y, 0)).toPoint();
            if (!top->rect().adjusted(20, 20, -20, -20).contains(pixel)) continue;
            // The press there must land on this grid point (a pixel spans most of a grid step).
            const Vec3 pressed = w.editor().snap(top->viewPoint(pixel, {}).world);
            if (pressed.x() != x || pressed.y() != y) continue;
            if (std::any_of(pixels.begin(), pixels.end(), [&](const QPoint& q) { return QLineF(pixel, q).length() < kApartPixels; }))
                continue;
            const std::optional<double> floor = floorSeenFromTheWorkingHeight(x, y);
            if (!floor) continue;
            points.emplace_back(x, y, *floor);
            pixels.push_back(pixel);
        }
        QCOMPARE(points.size(), size_t(40));

        std::vector<std::pair<Vec3, Vec3>> ends;
        const auto& rays = w.editor().document().rays();
        for (size_t i = 0; i < 20; ++i) {
            test::dragBetween(top, pixels[2 * i], pixels[2 * i + 1]);
            QCOMPARE(rays.size(), i + 1);
            const Vec3 a = points[2 * i], b = points[2 * i + 1];
            // Each end on the floor drawn, the pose's box 1 unit above it.
            QCOMPARE(rays[i].from.x(), a.x());
            QCOMPARE(rays[i].from.y(), a.y());
            QVERIFY2(std::abs(rays[i].from.z() - (a.z() + 1)) < 0.02, qPrintable(QString::number(rays[i].from.z())));
            QCOMPARE(rays[i].to.x(), b.x());
            QCOMPARE(rays[i].to.y(), b.y());
            QVERIFY2(std::abs(rays[i].to.z() - (b.z() + 1)) < 0.02, qPrintable(QString::number(rays[i].to.z())));
            ends.emplace_back(Vec3(a.x(), a.y(), a.z() + 1), Vec3(b.x(), b.y(), b.z() + 1));
        }
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 20 && paths[19].size() > size_t(pose_); }, 20000));

        const std::vector<bool> cli = cliFinds("player", ends);
        QCOMPARE(cli.size(), size_t(20));
        int cliFound = 0, guiFound = 0;
        for (size_t i = 0; i < 20; ++i) {
            const TravelPath& path = paths[i][size_t(pose_)];
            cliFound += cli[i];
            guiFound += path.found;
            QVERIFY2(!cli[i] || path.found, qPrintable(QString("path %1: the CLI finds it, the Path tool does not").arg(i + 1)));
            // Where the editor finds none it says why: another walkable area (both ends stand).
            if (!path.found) QCOMPARE(path.miss, NavPathMiss::NotReached);
        }
        qInfo("paths found: %d by the Path tool, %d by shallot-cli query, of 20", guiFound, cliFound);
        // Most pairs are joined by walking. (Ends dropped onto brush tops, as the tool did
        // before, found 2 of the 13 paths the CLI finds here.)
        QVERIFY(cliFound >= 10);
    }

    // A goal dragged onto a wall (no floor under it where the player stands, down or up):
    // the view says why at the cursor, whole, and the status bar too; off the wall again,
    // the note goes.
    void aGoalOnAWallSaysWhyAtTheCursor() {
        Viewport2D* top = openWithThePathTool();
        QVERIFY(top);
        MainWindow& w = *window_;
        const double grid = w.editor().document().data().gridSize;
        std::optional<Vec3> floor, wall;
        for (double y = region_.mins.y(); y <= region_.maxs.y() && !(floor && wall); y += grid)
            for (double x = region_.mins.x(); x <= region_.maxs.x() && !(floor && wall); x += grid) {
                if (!top->rect().adjusted(20, 20, -20, -20).contains(top->toWidget(Vec3(x, y, 0)).toPoint())) continue;
                if (!floor && floorSeenFromTheWorkingHeight(x, y)) floor = Vec3(x, y, 0);
                else if (!wall && noFloorNear(mesh(), x, y)) wall = Vec3(x, y, 0);
            }
        QVERIFY(floor && wall);
        const QPoint a = top->toWidget(*floor).toPoint(), b = top->toWidget(*wall).toPoint();
        QTest::mousePress(top, Qt::LeftButton, {}, a);
        QTest::mouseMove(top, (a + b) / 2);
        QTest::mouseMove(top, b);
        const QString note = w.editor().toolNote().text;
        QVERIFY2(note.contains("no floor under the goal where the player can stand"), qPrintable(note));
        QCOMPARE(w.statusBar()->currentMessage(), note);
        // Whole in the status bar too: the labels beside it leave it room, or step aside.
        int beside = 0;
        for (const QLabel* label : w.statusBar()->findChildren<QLabel*>())
            if (label->isVisible()) beside += label->width();
        QVERIFY2(w.statusBar()->fontMetrics().horizontalAdvance(note) + beside <= w.statusBar()->width(), qPrintable(note));
        QCOMPARE(w.editor().toolNote().at.x(), wall->x());
        QCOMPARE(w.editor().toolNote().at.y(), wall->y());
        // Drawn whole: wrapped inside the view wherever the cursor is, even in its corner.
        for (const QPointF& at : {QPointF(top->toWidget(*wall)), QPointF(top->width() - 2, top->height() - 2)}) {
            QImage image(top->size(), QImage::Format_ARGB32);
            QPainter painter(&image);
            const QRectF drawn = paintToolNote(painter, top->rect(), at, note);
            QVERIFY(QRectF(top->rect()).contains(drawn));
            QVERIFY(drawn.height() > 1.5 * painter.fontMetrics().height()); // on more than one line
        }
        QTest::mouseMove(top, a + QPoint(1, 0)); // back onto the floor: a path, no note
        QVERIFY(w.editor().toolNote().text.isEmpty());
        QTest::mouseMove(top, b);
        QTest::mouseRelease(top, Qt::LeftButton, {}, b);
        QVERIFY(w.editor().toolNote().text.isEmpty()); // the drag is over
        const auto& paths = w.editor().overlays().nav().rayPaths();
        QVERIFY(QTest::qWaitFor([&] { return paths.size() == 1 && paths[0].size() > size_t(pose_); }, 20000));
        QVERIFY(!paths[0][size_t(pose_)].found);
        // Its label at the goal, whole inside the view on one line wherever the goal is (at the
        // view's edge it ran off it, cut).
        const QString label = "no path: " + pathMissShort(paths[0][size_t(pose_)].miss);
        for (const QPointF& at : {QPointF(top->toWidget(*wall)), QPointF(top->width() - 2, 3), QPointF(2, top->height() - 2)}) {
            QImage image(top->size(), QImage::Format_ARGB32);
            QPainter painter(&image);
            const QRectF drawn = paintPointLabel(painter, top->rect(), at, label, render::kProblemColour);
            QVERIFY(QRectF(top->rect()).contains(drawn));
            QVERIFY(drawn.width() >= painter.fontMetrics().horizontalAdvance(label));
            QVERIFY(drawn.height() < 1.5 * painter.fontMetrics().height());
        }
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    PathToolGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "path_tool_gui_test.moc"

// The designer's sequence of issue #37, item 1, with the mouse and keys: draw a box in the
// top view, clip it with slanted lines in the front and the side views, drag an edge of the
// selection to resize it, rotate and flip it, export. The exported .map had
// "( 400.0000000000872 346.6666666666859 -1.368860580441833e-11 )"; now no coordinate has an exponent or
// lies within 1e-6 of an integer without being it, and the file reads back to the
// document's brushes.
#include "edit/brush_operations.h"
#include "gui_test_window.h"
#include "io/map_reader.h"
#include "main_window.h"
#include "views/view_surface.h"
#include "views/viewport_2d.h"
#include "world/brush_geometry.h"
#include "world/map_points.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;
using namespace shallot::test;

namespace {

// The bound on how far a read-back vertex may be from the document's.
constexpr double kReadBackVertexMatch = 1e-6;

void drag(Viewport2D* view, const Vec3& from, const Vec3& to) {
    dragBetween(view, view->toWidget(from).toPoint(), view->toWidget(to).toPoint());
}

void click(Viewport2D* view, const Vec3& at) { QTest::mouseClick(view, Qt::LeftButton, {}, view->toWidget(at).toPoint()); }

std::vector<Vec3> verticesOf(const Brush& b) {
    const BrushGeometryResult g = buildBrushGeometry(b, defaultWorldBounds());
    return g.geometry ? g.geometry->vertices : std::vector<Vec3>{};
}

} // namespace

class MapExportGuiTest : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    void aClippedResizedRotatedAndFlippedBoxExportsWithoutNoise() {
        window_ = openWindow({});
        MainWindow& w = *window_;
        EditorDocument& doc = w.editor().document();
        Viewport2D* top = w.view2d(0);
        Viewport2D* front = w.view2d(1);
        Viewport2D* side = w.view2d(2);
        top->frame({Vec3(128, 64, -128), Vec3(512, 512, 256)});
        front->frame({Vec3(128, 0, -128), Vec3(512, 0, 256)});
        side->frame({Vec3(0, 64, -128), Vec3(0, 512, 256)});
        QTest::qWait(20);

        w.action("toolBox")->trigger();
        drag(top, Vec3(256, 192, 0), Vec3(384, 384, 0));
        QCOMPARE(doc.brushes().size(), size_t(1));
        const Aabb box = bounds(doc.brushes()[0]);
        QCOMPARE(box.mins.x(), 256.0);
        QCOMPARE(box.maxs.y(), 384.0);
        const double low = box.mins.z(), high = box.maxs.z();

        // Slanted clips keeping the front parts: one in the front view (x, z), one in the
        // side view (y, z). Their corners leave the grid (z 26.67, y 346.67).
        w.action("toolClip")->trigger();
        click(front, Vec3(320, 0, low + 16));
        click(front, Vec3(368, 0, low + 32));
        QTest::keyClick(front, Qt::Key_Return);
        click(side, Vec3(0, 224, low));
        click(side, Vec3(0, 320, low + 16));
        QTest::keyClick(side, Qt::Key_Return);
        QCOMPARE(doc.brushes().size(), size_t(1));
        const auto slanted = [&] {
            const auto& sides = doc.brushes()[0].sides;
            return std::count_if(sides.begin(), sides.end(), [](const BrushSide& s) { return s.plane.axis() < 0; });
        };
        QCOMPARE(slanted(), 2);
        QVERIFY(bounds(doc.brushes()[0]).maxs.z() < high); // the clips cut the top off

        // Resize: the east edge two grid steps to the right in the top view, a 4:3 stretch
        // of the slanted sides (it wrote "-1.368860580441833e-11" for 0).
        w.action("toolSelect")->trigger();
        doc.setSelection({0});
        const Aabb now = bounds(doc.brushes()[0]);
        const double midY = 0.5 * (now.mins.y() + now.maxs.y());
        drag(top, Vec3(now.maxs.x(), midY, 0), Vec3(now.maxs.x() + 32, midY, 0));
        QCOMPARE(bounds(doc.brushes()[0]).maxs.x(), now.maxs.x() + 32);
        QCOMPARE(slanted(), 2);

        // Rotate and flip carry what the resize left.
        top->setFocus();
        w.action("rotateCw")->trigger();
        w.action("flipH")->trigger();
        QCOMPARE(doc.brushes().size(), size_t(1));

        QTemporaryDir dir;
        const QString path = dir.filePath("exported.map");
        QVERIFY(w.saveTo(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        int coordinates = 0;
        for (const QByteArray& line : text.split('\n')) {
            if (!line.startsWith('(')) continue;
            const QList<QByteArray> words = line.simplified().split(' ');
            for (const QByteArray& word : words.mid(0, 15)) {
                if (word == "(" || word == ")") continue;
                QVERIFY2(!word.contains('e') && !word.contains('E'), line.constData());
                bool ok = false;
                const double v = word.toDouble(&ok);
                QVERIFY2(ok, line.constData());
                QVERIFY2(v == std::round(v) || std::abs(v - std::round(v)) > kIntegerSnapDistance, line.constData());
                ++coordinates;
            }
        }
        QCOMPARE(coordinates, int(doc.brushes()[0].sides.size()) * 9);

        const MapReadResult back = readMap(text.toStdString(), "exported.map");
        QVERIFY2(back.ok(), back.error.format().c_str());
        const Brush& read = back.map->entities.at(0).brushes.at(0);
        const std::vector<Vec3> a = verticesOf(read), b = verticesOf(doc.brushes()[0]);
        QCOMPARE(a.size(), b.size());
        for (const Vec3& v : b) {
            const bool found = std::any_of(a.begin(), a.end(), [&](const Vec3& u) {
                return (u - v).cwiseAbs().maxCoeff() <= kReadBackVertexMatch;
            });
            QVERIFY2(found, qPrintable(QString("vertex %1 %2 %3 not read back").arg(v.x()).arg(v.y()).arg(v.z())));
        }
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    MapExportGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "map_export_gui_test.moc"

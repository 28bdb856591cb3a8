// Working beside another editor: the open .map rewritten on disk by another program is
// reloaded without any user action, its compile updates only what changed, and what
// Shallot adds (camera, working planes, poses, test rays) stays.
#include "document/editor_document.h"
#include "document/file_watch.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "services/overlay_controller.h"
#include "views/view_surface.h"

#include <QApplication>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;
using shallot::test::waitForCompiledOverlay;

namespace {

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes as editors do: a temporary file renamed over the old one.
void writeAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
    if (!f.commit()) qFatal("cannot commit %s", qPrintable(path));
}

} // namespace

class ExternalEditGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    MainWindow& fresh(const QString& file) {
        window_ = test::openWindow(file);
        return *window_;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    // id_e1m1 (1257 brushes): another editor adds a 16-unit box in front of the player
    // start. The point 480 -288 88 was open for the player and now is solid; the compile
    // after the reload updated the tree rather than building it again.
    void aMapRewrittenOnDiskIsReloadedAndRecompiledWhereItChanged() {
        const QString source = SHALLOT_SHARED_MAPS "/id_e1m1.map";
        if (!QFile::exists(source)) QSKIP("no shared id_e1m1.map");
        QTemporaryDir dir;
        const QString path = dir.filePath("e1m1.map");
        QVERIFY(QFile::copy(source, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        MainWindow& w = fresh(path);
        EditorDocument& doc = w.editor().document();
        QVERIFY(waitForCompiledOverlay(w));
        const int player = 1;
        QCOMPARE(doc.poses()[size_t(player)].name, std::string("player"));
        QVERIFY(!w.editor().overlays().compiled()->result->onion.isSolid(Vec3(480, -288, 88), player));
        const CameraState camera{Vec3(300, 250, 60), 30.0, -5.0};
        doc.setCamera(camera);
        const Vec3 working(320, -200, 150); // where the 2D views cut the level
        doc.setWorkingPoint(working);
        doc.setRays({{"ray 1", Vec3(480, -352, 88), Vec3(480, 0, 88), false}});
        const size_t brushes = doc.brushes().size();

        // The box 472..488 x -296..-280 x 64..112, written into worldspawn as an editor writes it.
        const int x0 = 472, y0 = -296, z0 = 64, x1 = 488, y1 = -280, z1 = 112;
        auto face = [](int ax, int ay, int az, int bx, int by, int bz, int cx, int cy, int cz) {
            return QString("( %1 %2 %3 ) ( %4 %5 %6 ) ( %7 %8 %9 ) WALL 0 0 0 1 1\n")
                .arg(ax).arg(ay).arg(az).arg(bx).arg(by).arg(bz).arg(cx).arg(cy).arg(cz).toUtf8();
        };
        const QByteArray box = "{\n" + face(x1, y1 + 64, z0, x1, y1, z0, x1, y1, z0 + 64) +
                               face(x0, y0, z0 + 64, x0, y0, z0, x0, y0 + 64, z0) +
                               face(x1, y1, z0 + 64, x1, y1, z0, x1 + 64, y1, z0) +
                               face(x0 + 64, y0, z0, x0, y0, z0, x0, y0, z0 + 64) +
                               face(x1 + 64, y1, z1, x1, y1, z1, x1, y1 + 64, z1) +
                               face(x0, y0 + 64, z0, x0, y0, z0, x0 + 64, y0, z0) + "}\n";
        QByteArray text = read(path);
        const QByteArray after = "\"worldtype\"\t\"2\"\n";
        QVERIFY(text.contains(after));
        text.replace(after, after + box);
        writeAtomically(path, text);

        QVERIFY(QTest::qWaitFor([&] { return w.statusBar()->currentMessage().contains("Reloaded e1m1.map"); }, 5000));
        QVERIFY(waitForCompiledOverlay(w));
        const auto& compiled = w.editor().overlays().compiled();
        QVERIFY(compiled->result->onion.isSolid(Vec3(480, -288, 88), player));
        QVERIFY(compiled->result->stats.incremental); // only what changed was rebuilt
        QCOMPARE(doc.brushes().size(), brushes + 1);
        QCOMPARE(doc.data().camera.position, camera.position);
        QCOMPARE(doc.workingPoint(), working);
        QCOMPARE(doc.rays().size(), size_t(1));
        QCOMPARE(doc.rays()[0].from, Vec3(480, -352, 88));
        QVERIFY(!doc.isModified());
    }

    // An export over the followed file is Shallot's own write, not a change to reload; with
    // unsaved edits an outside change is not reloaded over them (a window in tests never asks).
    void ownWritesAreNotReloadedAndEditsAreNotLost() {
        QTemporaryDir dir;
        const QString path = dir.filePath("rooms.map");
        QVERIFY(QFile::copy(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map", path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        MainWindow& w = fresh(path);
        EditorDocument& doc = w.editor().document();
        QVERIFY(w.saveTo(path));
        QTest::qWait(3 * FileWatch::kSettleMs);
        QVERIFY(!w.statusBar()->currentMessage().contains("Reloaded"));

        doc.setSelection({2});
        w.action("delete")->trigger();
        QVERIFY(doc.isModified());
        const size_t brushes = doc.brushes().size();
        QByteArray text = read(path);
        text.append("\n// touched by another editor\n");
        writeAtomically(path, text);
        QVERIFY(QTest::qWaitFor([&] { return w.statusBar()->currentMessage().contains("not reloaded"); }, 5000));
        QCOMPARE(doc.brushes().size(), brushes);
    }
};

int main(int argc, char** argv) {
    ViewSurface::prepareApplication();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("ShallotTest");
    ExternalEditGuiTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "external_edit_gui_test.moc"

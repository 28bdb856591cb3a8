// The movers' problems (check/mover_checks.h) in the editor's Problems dock under Xvfb:
// listed beside the spawn problems, clicked to select their entity, and gone once fixed.
#include "docks/problems_dock.h"
#include "document/editor_document.h"
#include "gui_test_window.h"
#include "main_window.h"
#include "services/spawn_check_service.h"

#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace shallot;

namespace {

// The brush of the box [lo, hi] in Quake's point order.
QString boxBrush(const Vec3& lo, const Vec3& hi) {
    auto p = [](double x, double y, double z) { return QString("( %1 %2 %3 )").arg(x).arg(y).arg(z); };
    const QString t = " T 0 0 0 1 1\n";
    const double x0 = lo.x(), y0 = lo.y(), z0 = lo.z(), x1 = hi.x(), y1 = hi.y(), z1 = hi.z();
    return "{\n" + p(x0, y0, z1) + " " + p(x0, y1, z1) + " " + p(x1, y0, z1) + t + //
           p(x0, y0, z0) + " " + p(x1, y0, z0) + " " + p(x0, y1, z0) + t +         //
           p(x1, y0, z0) + " " + p(x1, y0, z1) + " " + p(x1, y1, z0) + t +         //
           p(x0, y0, z0) + " " + p(x0, y1, z0) + " " + p(x0, y0, z1) + t +         //
           p(x0, y1, z0) + " " + p(x1, y1, z0) + " " + p(x0, y1, z1) + t +         //
           p(x0, y0, z0) + " " + p(x0, y0, z1) + " " + p(x1, y0, z0) + t + "}\n";
}

// Entity positions (in EditorDocument::entities()) by classname.
int positionOf(const EditorDocument& doc, const std::string& classname) {
    for (size_t i = 0; i < doc.entities().size(); ++i)
        if (doc.entities()[i].classname() == classname) return int(i);
    return -1;
}

} // namespace

class MoverProblemsGuiTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // figure1_rooms' lower room (x 200..600, y 200..400, floor z 0) with a door nothing
    // fires (sliding 56 along +y from y 220..284), a grunt in its way and a trigger whose
    // target names nothing.
    void moverProblemsAreListedSelectedAndGoWhenFixed() {
        QTemporaryDir dir;
        QFile in(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll()) +
                             "{\n\"classname\" \"func_door\"\n\"angle\" \"90\"\n\"targetname\" \"nobody\"\n" +
                             boxBrush(Vec3(240, 220, 0), Vec3(256, 284, 96)) + "}\n" +
                             "{\n\"classname\" \"monster_army\"\n\"origin\" \"248 330 24\"\n}\n" +
                             "{\n\"classname\" \"trigger_once\"\n\"target\" \"nowhere\"\n" +
                             boxBrush(Vec3(500, 220, 0), Vec3(564, 284, 64)) + "}\n";
        const QString path = dir.filePath("movers.map");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();

        std::unique_ptr<MainWindow> window = test::openWindow(path);
        MainWindow& w = *window;
        EditorDocument& doc = w.editor().document();
        QVERIFY(test::waitForSpawnChecks(w));
        QListWidget* list = w.problemsDock()->list();
        const QList<QListWidgetItem*> neverOpens = list->findItems("never opens", Qt::MatchStartsWith);
        const QList<QListWidgetItem*> missing = list->findItems("missing target", Qt::MatchStartsWith);
        const QList<QListWidgetItem*> blocked = list->findItems("blocked", Qt::MatchStartsWith);
        QCOMPARE(neverOpens.size(), 1);
        QCOMPARE(missing.size(), 1);
        QCOMPARE(blocked.size(), 1);
        QVERIFY2(neverOpens.front()->text().contains("\"nobody\""), qPrintable(neverOpens.front()->text()));
        QVERIFY2(missing.front()->text().contains("\"nowhere\""), qPrintable(missing.front()->text()));

        // Clicking a problem selects its entity.
        const int grunt = positionOf(doc, "monster_army");
        const int door = positionOf(doc, "func_door");
        QVERIFY(grunt >= 0 && door >= 0);
        doc.setEntitySelection({});
        list->itemClicked(blocked.front());
        QCOMPARE(doc.entitySelection(), std::vector<int>{grunt});
        list->itemClicked(neverOpens.front());
        QCOMPARE(doc.entitySelection(), std::vector<int>{door});

        // The grunt deleted: it is in nobody's way any more; the others stay.
        doc.setEntitySelection({grunt});
        w.action("delete")->trigger();
        QCOMPARE(positionOf(doc, "monster_army"), -1);
        QVERIFY(QTest::qWaitFor([&] { return list->findItems("blocked", Qt::MatchStartsWith).isEmpty(); }, 20000));
        QVERIFY(test::waitForSpawnChecks(w));
        QCOMPARE(list->findItems("never opens", Qt::MatchStartsWith).size(), 1);
        QCOMPARE(list->findItems("missing target", Qt::MatchStartsWith).size(), 1);
    }
};

QTEST_MAIN(MoverProblemsGuiTest)
#include "mover_problems_gui_test.moc"

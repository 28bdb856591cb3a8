// Legends that leave the level visible (issue 37, item 6): on id_e1m1 with every overlay
// on, in the default window, each view's legend covers at most kLegendMaxViewShare of it;
// it names every colour the view shows once (the entity categories too), each a colour of
// the palette; texts shortened to keep within that share are shown whole while the mouse
// is on the legend; a legend with no room collapses to a key that the mouse opens (hover)
// and pins (click).
#include "gui_test_window.h"
#include "nav_overlay.h"
#include "overlay_names.h"
#include "palette.h"
#include "views/legend.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace shallot;

namespace {

std::vector<Viewport*> views(MainWindow& w) { return {w.view3d(), w.view2d(0), w.view2d(1), w.view2d(2)}; }

// Each view painted again, so that its legend is laid out for what it shows now.
bool repaint(MainWindow& w) {
    for (Viewport* v : views(w)) {
        const quint64 before = v->framesPainted();
        v->redraw();
        if (!QTest::qWaitFor([&] { return v->framesPainted() > before; }, 5000)) return false;
    }
    return true;
}

} // namespace

class LegendGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    MainWindow& allOverlaysOn() {
        window_ = test::openWindow(SHALLOT_SHARED_MAPS "/id_e1m1.map");
        for (const QString& action : overlayActionNames()) window_->action(action)->setChecked(true);
        if (!test::waitForCompiledOverlay(*window_, 60000)) qFatal("no compile");
        QTest::qWait(300);
        if (!repaint(*window_)) qFatal("the views do not paint");
        return *window_;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void cleanup() { window_.reset(); }

    void legendsTakeAtMostAFifthOfTheirView() {
        MainWindow& w = allOverlaysOn();
        for (Viewport* v : views(w)) {
            const LegendBox& legend = v->legend();
            const double share = legend.shown().width() * legend.shown().height() / (v->width() * v->height());
            qInfo("%s view %dx%d: legend %s %.0fx%.0f, %.1f%% of it", v == w.view3d() ? "3D" : "2D", v->width(), v->height(),
                  legend.open() ? "open" : "collapsed", legend.shown().width(), legend.shown().height(), 100 * share);
            QVERIFY(!legend.shown().isEmpty());
            QVERIFY2(share <= kLegendMaxViewShare, qPrintable(QString::number(share)));
            QVERIFY(QRectF(v->rect()).contains(legend.shown()));
        }
        // With the overlays of the collision spaces and walking on (cells, portals, expanded
        // world, reach, rays, walkable with the travel through doors, lifts and teleporters),
        // the legends are open: they fit. (With the visibility and lighting overlays on too,
        // the 2D views' legends fold into their keys, each named line a mouse move away.)
        for (const char* off : {"overlayVisible", "overlayViewweight", "overlayToodark", "overlayQuake3capsule"})
            w.action(off)->setChecked(false);
        QVERIFY(repaint(w));
        QVERIFY(w.view2d(0)->legend().open());
        w.grab().save(QDir::temp().filePath("legend_all_overlays.png"));
    }

    // Texts shortened to keep a legend within its share are whole while the mouse is on it,
    // short again when it leaves (painted into an image: the entries and the view fixed).
    void shortenedNamesShowWholeUnderTheMouse() {
        std::vector<LegendEntry> entries;
        for (int i = 0; i < 16; ++i)
            entries.push_back({QColor::fromHsv(i * 22, 200, 220), QString("a rather long name for colour %1").arg(i)});
        QImage image(560, 300, QImage::Format_ARGB32);
        const QRectF view(0, 0, image.width(), image.height());
        LegendBox legend;
        auto paint = [&] {
            QPainter painter(&image);
            legend.paint(painter, view, entries);
        };
        paint();
        QVERIFY(legend.open() && legend.elided());
        const QRectF fitted = legend.shown();
        QVERIFY(fitted.width() * fitted.height() <= kLegendMaxViewShare * view.width() * view.height());
        QVERIFY(legend.hover(fitted.center()));
        paint();
        QVERIFY(legend.open() && !legend.elided());
        QVERIFY(legend.shown() != fitted && view.contains(legend.shown()));
        // A click on it, the mouse there, is the tools' (it pinned the legend, and a drag
        // begun on it drew nothing).
        QVERIFY(!legend.click(fitted.center()));
        QVERIFY(legend.hover(std::nullopt));
        paint();
        QVERIFY(legend.elided());
        QCOMPARE(legend.shown(), fitted);
    }

    void everyColourIsNamedOnce() {
        MainWindow& w = allOverlaysOn();
        // A ray, a path and a selection, so that their colours show too.
        EditorDocument& doc = w.editor().document();
        doc.setRays({{"r", Vec3(480, -352, 88), Vec3(480, 200, 88), false, false}, {"p", Vec3(480, -352, 88), Vec3(600, -352, 88), false, true}});
        doc.setSelection({0});
        for (const bool view3d : {true, false}) {
            const std::vector<LegendEntry> entries = viewLegend(w.editor(), view3d);
            const std::vector<render::PaletteEntry> palette = render::paletteEntries();
            QSet<QString> texts;
            for (size_t i = 0; i < entries.size(); ++i) {
                QVERIFY2(!texts.contains(entries[i].text), qPrintable(entries[i].text));
                texts.insert(entries[i].text);
                for (size_t j = i + 1; j < entries.size(); ++j)
                    QVERIFY2(entries[i].colour.rgb() != entries[j].colour.rgb(),
                             qPrintable(entries[i].text + " / " + entries[j].text));
                // A colour of the palette, or of a family (walkable areas' first, the view weight ramp).
                const bool inPalette = std::any_of(palette.begin(), palette.end(),
                                                   [&](const render::PaletteEntry& p) { return p.colour.rgb() == entries[i].colour.rgb(); });
                bool inRamp = false;
                for (int step = 0; step <= render::kViewWeightSteps; ++step) inRamp |= entries[i].colour == render::viewWeightColour(step);
                QVERIFY2(inPalette || inRamp || entries[i].colour == render::componentColour(0), qPrintable(entries[i].text));
            }
            // id_e1m1's entities: its player start, monsters, items and lights are named.
            for (const EntityCategory c : {EntityCategory::PlayerStart, EntityCategory::Monster, EntityCategory::Item, EntityCategory::Light})
                QVERIFY2(texts.contains(categoryName(c)), categoryName(c));
            QVERIFY(texts.contains("selected"));
            QVERIFY(texts.contains("ray: clear"));
        }
    }

    // A drag of the Box tool that starts on a legend that fits, the mouse having come
    // over it first (its texts whole), draws the box: about a fifth of each view used to
    // take no drags while the legends were on.
    void aDragThatStartsOnALegendThatFitsReachesTheTool() {
        MainWindow& w = allOverlaysOn();
        for (const char* off : {"overlayVisible", "overlayViewweight", "overlayToodark", "overlayQuake3capsule"})
            w.action(off)->setChecked(false);
        QVERIFY(repaint(w));
        Viewport2D* top = w.view2d(0);
        const LegendBox& legend = top->legend();
        QVERIFY(legend.open());
        const QPoint a = legend.shown().center().toPoint(), b = a - QPoint(80, 60);
        QTest::mouseMove(top->surface(), a);
        QTRY_VERIFY(!legend.elided()); // hovered: the texts whole
        w.action("toolBox")->trigger();
        const size_t brushes = w.editor().document().brushes().size();
        test::dragBetween(top, a, b);
        QCOMPARE(w.editor().document().brushes().size(), brushes + 1);
    }

    // A view too small for its legend's share shows the key; the mouse opens it.
    void aCrowdedLegendCollapsesToAKeyTheMouseOpens() {
        MainWindow& w = allOverlaysOn();
        w.resize(900, 600);
        QTest::qWait(200);
        QVERIFY(repaint(w));
        Viewport* view = w.view2d(0);
        const LegendBox& legend = view->legend();
        QVERIFY2(!legend.open(), qPrintable(QString("%1x%2").arg(view->width()).arg(view->height())));
        const QRectF key = legend.shown();
        QVERIFY2(key.width() * key.height() <= kLegendMaxViewShare * view->width() * view->height(),
                 qPrintable(QString("key %1x%2 in %3x%4").arg(key.width()).arg(key.height()).arg(view->width()).arg(view->height())));
        // Hovered, it opens; the mouse gone, it closes.
        QTest::mouseMove(view->surface(), key.center().toPoint());
        QTRY_VERIFY(legend.open());
        QVERIFY(legend.shown().height() > key.height());
        QTest::mouseMove(view->surface(), QPoint(10, 10));
        QTRY_VERIFY(!legend.open());
        // Clicked, it stays open with the mouse away, and the tool saw nothing.
        const auto undo = w.editor().document().undoStack()->count();
        QTest::mouseClick(view->surface(), Qt::LeftButton, {}, key.center().toPoint());
        QTest::mouseMove(view->surface(), QPoint(10, 10));
        QTest::qWait(100);
        QVERIFY(repaint(w));
        QVERIFY(legend.open());
        QCOMPARE(w.editor().document().undoStack()->count(), undo);
        QVERIFY(w.editor().document().selectionEmpty());
        // A click on the open legend collapses it again.
        QTest::mouseClick(view->surface(), Qt::LeftButton, {}, legend.shown().center().toPoint());
        QTRY_VERIFY(!legend.open());
    }
};

QTEST_MAIN(LegendGuiTest)
#include "legend_gui_test.moc"

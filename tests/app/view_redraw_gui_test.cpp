// Which views paint, and upload, after the scene changes (issue 38: a frame of a view costs
// 10-35 ms under llvmpipe, and an edit used to paint the four views again for every layer
// any of them draws): a view uploads only the layers it draws, paints again only when one
// of those changed, and every view paints for what no layer holds (a tool's note).
#include "gui_test_window.h"
#include "tree_overlays.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QtTest>

using namespace shallot;

class ViewRedrawGuiTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    QList<Viewport*> views() const { return window_->findChildren<Viewport*>(); }
    std::vector<quint64> frames() const {
        std::vector<quint64> out;
        for (const Viewport* v : views()) out.push_back(v->framesPainted());
        return out;
    }
    // Until no view has painted for half a second (the first compile's overlays, the spawn
    // checks and the movers' world have all been shown).
    bool settled() {
        QElapsedTimer clock;
        clock.start();
        std::vector<quint64> before = frames();
        QElapsedTimer still;
        still.start();
        while (clock.elapsed() < 20000) {
            QTest::qWait(50);
            const std::vector<quint64> now = frames();
            if (now != before) {
                before = now;
                still.restart();
            } else if (still.elapsed() >= 500) {
                return true;
            }
        }
        return false;
    }
    // A test ray's drawing, as the layers hold it.
    static render::MeshBatch rayBatch(double y) {
        render::RayDrawing ray;
        ray.from = Vec3(0, y, 64);
        ray.to = Vec3(256, y, 64);
        Pose box;
        box.mins = Vec3(-16, -16, -24);
        box.maxs = Vec3(16, 16, 32);
        return render::rayOverlay({ray}, box);
    }

private slots:
    void init() {
        window_ = test::openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
        QVERIFY(test::waitForSpawnChecks(*window_));
        QVERIFY(test::waitForCompiledOverlay(*window_));
        QVERIFY(settled());
    }
    void cleanup() { window_.reset(); }

    // The step and drop arrows are drawn in 3D alone: only the 3D view uploads and paints them.
    void aLayerOnlyThe3DViewDrawsPaintsOnlyIt() {
        Editor& editor = window_->editor();
        Viewport3D* view3d = window_->view3d();
        const std::vector<quint64> before = frames();
        editor.scene().set(render::Layer::WalkableLinks, rayBatch(0));
        emit editor.sceneChanged();
        QVERIFY(QTest::qWaitFor([&] { return view3d->showsScene(); }, 10000));
        QVERIFY(settled());
        const std::vector<quint64> after = frames();
        const uint64_t version = editor.scene().layer(render::Layer::WalkableLinks).version;
        const QList<Viewport*> all = views();
        for (qsizetype i = 0; i < all.size(); ++i) {
            const size_t k = size_t(i);
            if (all[i] == view3d) {
                QVERIFY(after[k] > before[k]);
                QCOMPARE(all[i]->uploadedVersion(render::Layer::WalkableLinks), version);
            } else {
                QCOMPARE(after[k], before[k]);
                QCOMPARE(all[i]->uploadedVersion(render::Layer::WalkableLinks), uint64_t(0));
                QVERIFY(all[i]->showsScene());
            }
        }
    }

    // A layer set again to the same drawing keeps its version: no view paints.
    void theSameDrawingAgainPaintsNothing() {
        Editor& editor = window_->editor();
        editor.scene().set(render::Layer::Rays, rayBatch(32));
        emit editor.sceneChanged();
        QVERIFY(settled());
        const std::vector<quint64> before = frames();
        editor.scene().set(render::Layer::Rays, rayBatch(32));
        emit editor.sceneChanged();
        QVERIFY(settled());
        QVERIFY(frames() == before);
        // A different one: every view draws the rays, every view paints.
        editor.scene().set(render::Layer::Rays, rayBatch(64));
        emit editor.sceneChanged();
        QVERIFY(settled());
        const std::vector<quint64> after = frames();
        for (size_t i = 0; i < after.size(); ++i) QVERIFY(after[i] > before[i]);
    }

    // A tool's note is in no layer: every view paints for it.
    void aToolNotePaintsEveryView() {
        Editor& editor = window_->editor();
        const std::vector<quint64> before = frames();
        editor.setToolNote({"no walking path", Vec3(0, 0, 64)});
        QVERIFY(settled());
        const std::vector<quint64> after = frames();
        for (size_t i = 0; i < after.size(); ++i) QVERIFY(after[i] > before[i]);
    }
};

QTEST_MAIN(ViewRedrawGuiTest)
#include "view_redraw_gui_test.moc"

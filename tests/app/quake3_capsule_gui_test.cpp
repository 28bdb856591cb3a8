// The Quake 3 capsule overlay (issue 42, item 5): for a capsule pose, crosses where Quake
// 3's moved brush planes refuse the capsule though it fits (the same places the core's
// comparison finds), nothing but a note for a box pose.
#include "gui_test_window.h"

#include "query/shifted_plane_comparison.h"
#include "render_scene.h"
#include "services/quake3_capsule_overlay.h"

using namespace shallot;
using namespace shallot::test;

class Quake3CapsuleGuiTest : public QObject {
    Q_OBJECT
private slots:
    void theOverlayMarksThePlacesQuake3Refuses();
};

void Quake3CapsuleGuiTest::theOverlayMarksThePlacesQuake3Refuses() {
    auto w = openWindow(SHALLOT_SAMPLE_MAPS "/nav_stairs.map");
    Editor& e = w->editor();
    QVERIFY(waitForCompiledOverlay(*w));
    std::vector<Pose> poses = e.document().poses();
    poses.push_back(Pose::round("q3", PoseShape::capsule(15, 56)));
    e.document().setPoses(poses);
    e.setCurrentPose(int(poses.size()) - 1);
    QVERIFY(waitForCompiledOverlay(*w));
    const Quake3CapsuleOverlay& q3 = e.quake3Capsule();
    w->action("overlayQuake3capsule")->setChecked(true);
    QVERIFY(QTest::qWaitFor([&] { return !q3.busy() && q3.drawnRevision() == e.document().worldRevision(); }, 30000));
    // The stairs' step edges: resting places Quake 3 refuses.
    ShiftedPlaneComparisonSettings settings;
    settings.samples = kQuake3OverlaySamples;
    settings.keepRefusals = kQuake3OverlaySamples;
    const ShiftedPlaneComparison c = compareShiftedPlanes(e.compiler().latest()->world, poses.back(), settings);
    QVERIFY(c.resting.refused > 0);
    QCOMPARE(q3.drawnPlaces(), size_t(c.beside.refused + c.resting.refused));
    QVERIFY(e.scene().layer(render::Layer::Quake3Refusals).visible);
    QCOMPARE(e.scene().layer(render::Layer::Quake3Refusals).chunkList().empty(), false);
    QVERIFY2(q3.summary().startsWith("Quake 3 refuses q3: "), qPrintable(q3.summary()));

    // A box pose: nothing drawn, and the status says why.
    e.setCurrentPose(1);
    QVERIFY(QTest::qWaitFor([&] { return q3.drawnPlaces() == 0 && q3.summary().contains("is a box"); }, 10000));
    QVERIFY(e.scene().layer(render::Layer::Quake3Refusals).chunkList().empty());
    w->action("overlayQuake3capsule")->setChecked(false);
    QVERIFY(!e.scene().layer(render::Layer::Quake3Refusals).visible);
}

QTEST_MAIN(Quake3CapsuleGuiTest)
#include "quake3_capsule_gui_test.moc"

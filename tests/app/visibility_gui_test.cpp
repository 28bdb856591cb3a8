// What the eye sees, live in the editor (issue 39): the PVS follows the compiles (base flow
// first, then the full flow), equals a fresh computation on the compiled world after an
// edit, narrows the 3D view's culling, and the Visible overlay follows the camera's leaf,
// keeps its point (Keep Visible Position, a point inspected), and reaches the sections.
#include "gui_test_window.h"
#include "sanitizer_build.h"

#include "docks/problems_dock.h"
#include "render_scene.h"
#include "services/pvs_service.h"
#include "services/visibility_overlays.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QStatusBar>
#include <bit>
#include <filesystem>

using namespace shallot;
using namespace shallot::test;

namespace {

const QString kLevel = qEnvironmentVariableIsSet("VIS_LEVEL") ? qEnvironmentVariable("VIS_LEVEL") : SHALLOT_SHARED_MAPS "/id_e1m7.map";

// The newest compile's PVS, of the full flow when `full`.
bool pvsOfNewest(MainWindow& w, bool full) {
    const OverlayController& o = w.editor().overlays();
    const auto& compiled = o.compiled();
    const std::shared_ptr<const SightPvs> pvs = compiled ? o.pvs().of(*compiled) : nullptr;
    return pvs && (!full || pvs->fullFlow()) && compiled->revision == w.editor().document().worldRevision();
}

// Whether every leaf of `inner`'s PVS of every leaf is in `outer`'s. The visible pairs of `pvs`.
bool holds(const PotentiallyVisibleSet& outer, const PotentiallyVisibleSet& inner) {
    for (int32_t leaf = 0; leaf < int32_t(inner.leafCount()); ++leaf)
        for (size_t w = 0; w < inner.words(); ++w)
            if (inner.row(leaf)[w] & ~outer.row(leaf)[w]) return false;
    return true;
}
size_t visiblePairs(const PotentiallyVisibleSet& pvs) {
    size_t n = 0;
    for (int32_t leaf = 0; leaf < int32_t(pvs.leafCount()); ++leaf)
        for (size_t w = 0; w < pvs.words(); ++w) n += size_t(std::popcount(pvs.row(leaf)[w]));
    return n;
}

// The Visible overlay shows the PVS of the newest compile and the sections carry it.
bool visibleShown(MainWindow& w) {
    const OverlayController& o = w.editor().overlays();
    const auto& compiled = o.compiled();
    const VisibilityOverlays& v = o.visibility();
    return compiled && v.shownSerial() == compiled->serial && v.visibleLeaves(compiled->serial) &&
           o.sections().shown().visible == v.visibleLeaves(compiled->serial);
}

// An empty leaf's interior point of the newest tree, the `n`th of those out of the void's reach.
Vec3 roomPoint(MainWindow& w, size_t n) {
    const SightPvs& pvs = *w.editor().overlays().pvs().latest().pvs;
    const BspTree& onion = w.editor().overlays().compiled()->result->onion;
    std::vector<Vec3> points;
    for (size_t leaf = 0; leaf < onion.leafCount(); ++leaf)
        if (pvs.viewWeight()[leaf] > 0 && !onion.leaves[leaf].interiorPoint.hasNaN()) points.push_back(onion.leaves[leaf].interiorPoint);
    return points[(n * 7919) % points.size()];
}

} // namespace

class VisibilityGuiTest : public QObject {
    Q_OBJECT
private slots:
    void pvsFollowsTheCompilesAndTheVisibleOverlayTheCamera();
    void aLevelWithoutAPointPoseHasNoPvs();
    void aLeakingLevelSaysSo();
    void nothingIsComputedWhileNothingShowsIt();
    void detailIsLeftOutOfTheClusters();
};

void VisibilityGuiTest::pvsFollowsTheCompilesAndTheVisibleOverlayTheCamera() {
    if (!std::filesystem::exists(kLevel.toStdString())) QSKIP("no shared maps");
    QElapsedTimer clock;
    clock.start();
    auto w = openWindow(kLevel);
    Editor& e = w->editor();
    OverlayController& o = e.overlays();
    w->action("overlayVisible")->setChecked(true);
    w->action("overlayLeafcells")->setChecked(true);
    QVERIFY(waitForCompiledOverlay(*w, 30000));
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, false); }, 30000));
    const qint64 baseMs = clock.elapsed();
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, true); }, 120000));
    qInfo("id_e1m7: base flow shown %lld ms after opening, full flow %lld ms", baseMs, clock.elapsed());

    // The 3D view's culling of the tree shown is narrowed to the PVS.
    QVERIFY(QTest::qWaitFor([&] {
        const auto& v = e.scene().layer(render::Layer::LeafCells).visibility;
        return v && v->restricted();
    }, 10000));

    // The Visible overlay: the PVS of the camera's leaf, in 3D and in the sections.
    CameraState camera = e.document().data().camera;
    camera.position = roomPoint(*w, 1);
    e.document().setCamera(camera);
    const auto& compiled = o.compiled();
    const SightPvs& pvs = *o.pvs().latest().pvs;
    const int32_t leaf = compiled->result->onion.findLeaf(camera.position);
    QVERIFY(QTest::qWaitFor([&] { return o.visibility().sourceLeaf() == leaf && visibleShown(*w); }, 10000));
    QCOMPARE(*o.visibility().visibleLeaves(compiled->serial), pvs.visibleFrom(leaf));
    QVERIFY(!e.scene().layer(render::Layer::Visible).chunkList().empty());
    auto* status = w->statusBar()->findChild<QLabel*>("pvsStatus");
    QVERIFY(status && status->text().startsWith("PVS "));

    // Another leaf far off: the overlay follows the camera.
    size_t n = 2;
    for (; n < 50; ++n)
        if (pvs.visibleFrom(compiled->result->onion.findLeaf(roomPoint(*w, n))) != pvs.visibleFrom(leaf)) break;
    camera.position = roomPoint(*w, n);
    e.document().setCamera(camera);
    const int32_t other = compiled->result->onion.findLeaf(camera.position);
    QVERIFY(QTest::qWaitFor([&] { return o.visibility().sourceLeaf() == other && visibleShown(*w); }, 10000));

    // Heavy views: the places over the document's limit are listed in the Problems dock.
    auto* problems = w->findChild<ProblemsDock*>();
    QVERIFY(problems);
    auto heavyViews = [&] { return problems->list()->findItems("heavy view:", Qt::MatchStartsWith).size(); };
    e.document().setViewWeightLimit(uint32_t(pvs.figures().largestWeight));
    QCOMPARE(heavyViews(), qsizetype(0));
    e.document().setViewWeightLimit(uint32_t(pvs.figures().largestWeight - 1));
    QCOMPARE(heavyViews(), qsizetype(1));
    e.document().setViewWeightLimit(1);
    QCOMPARE(heavyViews(), qsizetype(10));
    e.document().setViewWeightLimit(kDefaultViewWeightLimit);

    // Kept, it stays while the camera moves; a point inspected becomes the kept point.
    w->action("keepVisiblePosition")->setChecked(true);
    camera.position = roomPoint(*w, 1);
    e.document().setCamera(camera);
    QTest::qWait(300);
    QCOMPARE(o.visibility().sourceLeaf(), other);
    emit e.inspectRequested(roomPoint(*w, 1));
    QVERIFY(QTest::qWaitFor([&] { return o.visibility().sourceLeaf() == leaf; }, 10000));
    QVERIFY(w->action("keepVisiblePosition")->isChecked());
    w->action("keepVisiblePosition")->setChecked(false);

    // Live: after an edit the provisional PVS comes first (the full flow before the edit where
    // the edit left its sight lines alone, narrowed base sets through it), then the full flow
    // at once, updated from the one before the edit, and it equals a fresh computation; the
    // provisional one lies within the base flow, nearer the full flow.
    QElapsedTimer editClock;
    editClock.start();
    // A small box in an open room (an edit that cannot open the level to the void).
    const Vec3 box = roomPoint(*w, 1);
    e.document().insertBrushes({{int(e.document().brushes().size()), Brush::box(box - Vec3(8, 8, 8), box + Vec3(8, 8, 8))}});
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, false); }, 60000));
    const qint64 editBaseMs = editClock.elapsed();
    const std::shared_ptr<const SightPvs> provisional = o.pvs().of(*o.compiled());
    QVERIFY(provisional && !provisional->fullFlow() && provisional->provisional());
    QVERIFY(provisional->updateStats().fullFlowsKept > 0);
    QVERIFY(status->text().contains("(updating)"));
    QVERIFY(status->toolTip().contains("provisional"));
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, true); }, 120000));
    const auto& edited = o.compiled();
    const SightPvs& live = *o.pvs().of(*edited);
    QVERIFY(live.updated());
    QVERIFY(live.updateStats().fullFlowsKept > 0);
    qInfo("id_e1m7 after an edit: provisional PVS shown %lld ms (%zu final sets kept), full flow %lld ms (%zu of %zu flows "
          "kept)",
          editBaseMs, provisional->updateStats().fullFlowsKept, editClock.elapsed(), live.updateStats().fullFlowsKept,
          live.updateStats().portals);
    SightPvsSettings full;
    full.threads = 2;
    full.detail = detailBrushes(edited->world, e.document().data().entities);
    const std::shared_ptr<const SightPvs> fresh = SightPvs::compute(*edited->result, edited->world, full);
    QVERIFY(fresh);
    QVERIFY(live.clusterPvs() == fresh->clusterPvs());
    QCOMPARE(live.viewWeight(), fresh->viewWeight());
    QCOMPARE(live.figures().averageLeaves, fresh->figures().averageLeaves);
    SightPvsSettings base = full;
    base.fullFlow = false;
    const std::shared_ptr<const SightPvs> baseFlow = SightPvs::compute(*edited->result, edited->world, base);
    QVERIFY(baseFlow && holds(baseFlow->clusterPvs(), provisional->clusterPvs()));
    qInfo("visible pairs of clusters: full flow %zu, provisional %zu, base flow %zu", visiblePairs(live.clusterPvs()),
          visiblePairs(provisional->clusterPvs()), visiblePairs(baseFlow->clusterPvs()));
    const size_t fullPairs = visiblePairs(live.clusterPvs()), basePairs = visiblePairs(baseFlow->clusterPvs());
    QVERIFY(visiblePairs(provisional->clusterPvs()) - fullPairs < (basePairs - fullPairs) / 2);
}

void VisibilityGuiTest::aLevelWithoutAPointPoseHasNoPvs() {
    auto w = openWindow(SHALLOT_SOURCE_DIR "/maps/figure1_rooms.map");
    Editor& e = w->editor();
    w->action("overlayVisible")->setChecked(true);
    std::vector<Pose> poses = e.document().poses();
    poses.erase(std::remove_if(poses.begin(), poses.end(), [](const Pose& p) { return p.isPoint(); }), poses.end());
    e.document().setPoses(poses);
    QVERIFY(waitForCompiledOverlay(*w));
    auto* status = w->statusBar()->findChild<QLabel*>("pvsStatus");
    QVERIFY(QTest::qWaitFor([&] { return status->text() == "No PVS"; }, 10000));
    QVERIFY(status->toolTip().contains("no pose is a point"));
    QVERIFY(QTest::qWaitFor([&] { return e.scene().layer(render::Layer::Visible).chunkList().empty(); }, 10000));
}

void VisibilityGuiTest::aLeakingLevelSaysSo() {
    auto w = openWindow(SHALLOT_SOURCE_DIR "/maps/leaky_box.map");
    w->action("overlayViewweight")->setChecked(true);
    QVERIFY(waitForCompiledOverlay(*w));
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, false); }, 10000));
    auto* status = w->statusBar()->findChild<QLabel*>("pvsStatus");
    QCOMPARE(status->text(), QString("PVS: none inside (leaks?)"));
    QVERIFY(status->toolTip().contains("leaks"));
}

// With the Visible and View weight overlays off no PVS is computed and the status bar
// shows none; switching one on computes it.
void VisibilityGuiTest::nothingIsComputedWhileNothingShowsIt() {
    auto w = openWindow(SHALLOT_SOURCE_DIR "/maps/figure1_rooms.map");
    QVERIFY(waitForCompiledOverlay(*w));
    QTest::qWait(300);
    const PvsService& pvs = w->editor().overlays().pvs();
    QVERIFY(!pvs.wanted());
    QVERIFY(!pvs.latest().pvs);
    auto* status = w->statusBar()->findChild<QLabel*>("pvsStatus");
    QVERIFY(status->text().isEmpty());
    w->action("overlayViewweight")->setChecked(true);
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, true); }, 20000));
    QVERIFY(status->text().startsWith("PVS "));
    w->action("overlayViewweight")->setChecked(false);
    QVERIFY(status->text().isEmpty());
}

// librequake_e3m4 is built of func_detail: its clusters are the leaves of its structural
// brushes alone (35,106 one-way portals with detail, whose full flow takes half an hour), so
// the full flow is in the editor's reach; the status bar says so.
void VisibilityGuiTest::detailIsLeftOutOfTheClusters() {
    // The same code as id_e1m7's above on a level ten times its size: under AddressSanitizer
    // (scripts/sanitize.sh) its full flow took minutes of CI for no path the first test misses.
    if (kUnderAddressSanitizer) QSKIP("librequake_e3m4's full flow: not under AddressSanitizer");
    const QString level = SHALLOT_SHARED_MAPS "/librequake_e3m4.map";
    if (!std::filesystem::exists(level.toStdString())) QSKIP("no shared maps");
    QElapsedTimer clock;
    clock.start();
    auto w = openWindow(level);
    w->action("overlayVisible")->setChecked(true);
    QVERIFY(waitForCompiledOverlay(*w, 60000));
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, false); }, 60000));
    const PvsService& pvs = w->editor().overlays().pvs();
    QVERIFY(pvs.latest().pvs->detailClustered());
    QVERIFY(pvs.latest().pvs->stats().oneWayPortals < kFullFlowPortalLimit);
    const qint64 baseMs = clock.elapsed();
    QVERIFY(QTest::qWaitFor([&] { return pvsOfNewest(*w, true); }, 240000));
    qInfo("librequake_e3m4: base flow shown %lld ms after opening, full flow %lld ms (%zu one-way portals)", baseMs,
          clock.elapsed(), pvs.latest().pvs->stats().oneWayPortals);
    auto* status = w->statusBar()->findChild<QLabel*>("pvsStatus");
    QVERIFY(status->toolTip().contains("detail"));
}

QTEST_MAIN(VisibilityGuiTest)
#include "visibility_gui_test.moc"

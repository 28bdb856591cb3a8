// After a run of edits the editor shows what a fresh open of the edited level shows (issue
// 38: the work done after an edit is updated in part, cancelled and reordered; none of it
// may leave anything behind): the 2D sections' colours sampled on every view's plane, the
// spawn problems, the current pose's walkable area and walking paths, and the PVS figures.
#include "gui_test_window.h"

#include "edit/brush_operations.h"
#include "render_scene.h"
#include "services/mover_states.h"
#include "services/nav_service.h"
#include "services/pvs_service.h"

#include <QTemporaryDir>
#include <filesystem>
#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

const QString kLevel = SHALLOT_SHARED_MAPS "/id_e1m7.map";

// Everything after the newest edit is shown: the overlays, the sections, the spawn checks,
// the current pose's mesh and the PVS (Visible on) to its full flow.
bool settled(MainWindow& w) {
    Editor& e = w.editor();
    const OverlayController& o = e.overlays();
    const auto& compiled = o.compiled();
    return spawnChecksCurrent(w) && compiled && o.shownRevision() == e.document().worldRevision() &&
           o.sections().shown().compiled == compiled && o.nav().upToDate(compiled) && !o.nav().busy() &&
           o.pvs().of(*compiled) != nullptr && !o.pvs().busy() && o.pvs().of(*compiled)->fullFlow() &&
           o.visibility().shownSerial() == compiled->serial && o.visibility().drawnPvs() == o.pvs().of(*compiled) &&
           o.sections().shown().visible == o.visibility().visibleLeaves(compiled->serial);
}

// The colour of the section fill drawn at `p` on view `axis`'s plane (alpha 0: none), or
// nothing when p lies within kNearEdge of a triangle's edge (where two fills meet).
constexpr double kNearEdge = 1e-3;
std::optional<QColor> fillAt(const render::RenderScene& scene, int axis, const Vec3& p) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (const render::MeshChunk& chunk : scene.layer(render::sectionFills(axis)).chunkList()) {
        const auto& vs = chunk.geometry->vertices;
        for (size_t i = 0; i + 2 < vs.size(); i += 3) {
            // Per corner k: the distance from p to the opposite edge, signed (inside: positive).
            double d[3];
            const auto at = [&](size_t k, int c) { return double(vs[i + k].position[c]); };
            const double area = (at(1, u) - at(0, u)) * (at(2, v) - at(0, v)) - (at(2, u) - at(0, u)) * (at(1, v) - at(0, v));
            if (std::abs(area) < 1e-9) continue;
            for (int k = 0; k < 3; ++k) {
                const size_t a = (k + 1) % 3, b = (k + 2) % 3;
                const double cross = (at(b, u) - at(a, u)) * (p[v] - at(a, v)) - (p[u] - at(a, u)) * (at(b, v) - at(a, v));
                d[k] = cross / area * std::abs(area) / std::hypot(at(b, u) - at(a, u), at(b, v) - at(a, v));
            }
            if (d[0] < -kNearEdge || d[1] < -kNearEdge || d[2] < -kNearEdge) continue;
            if (d[0] < kNearEdge || d[1] < kNearEdge || d[2] < kNearEdge) return std::nullopt;
            const uint8_t* c = vs[i].colour;
            return QColor(c[0], c[1], c[2], c[3]);
        }
    }
    return QColor(0, 0, 0, 0);
}

} // namespace

class EditEqualsOpenGuiTest : public QObject {
    Q_OBJECT
private slots:
    void afterEditsTheEditorShowsWhatAFreshOpenShows();
};

void EditEqualsOpenGuiTest::afterEditsTheEditorShowsWhatAFreshOpenShows() {
    if (!std::filesystem::exists(kLevel.toStdString())) QSKIP("no shared maps");
    auto edited = openWindow(kLevel);
    // The movers left out (saved so in the document's view): the fresh window then shows the
    // tree the edited one saved, as it did before movers were compiled in. With them in, the
    // fresh window compiles from scratch what the edited one updated, and a walking path over
    // a mesh cut differently may differ in length.
    edited->editor().moverStates().setPlacement(MoverPlacement::LeftOut, 0.0);
    for (const char* overlay : {"overlayLeafcells", "overlayReachability", "overlayWalkable", "overlayPortals", "overlayVisible"})
        edited->action(overlay)->setChecked(true);
    QVERIFY(QTest::qWaitFor([&] { return settled(*edited); }, 60000));

    // Edits one after the other, each before the last one's work is done: moves, a removal,
    // an undo, a brush added.
    EditorDocument& doc = edited->editor().document();
    std::mt19937 rng(38);
    for (int step = 0; step < 6; ++step) {
        const int k = int(rng() % doc.brushes().size());
        if (step == 3) {
            doc.removeBrushes({k});
        } else if (step == 4) {
            doc.undoStack()->undo();
        } else {
            const Vec3 by(16.0 * double(int(rng() % 3) - 1), 16.0 * double(int(rng() % 3) - 1), 0);
            const Brush moved = translated(doc.brushes()[size_t(k)], by);
            doc.removeBrushes({k});
            doc.insertBrushes({{k, moved}});
        }
        QTest::qWait(int(rng() % 120));
    }
    QVERIFY(QTest::qWaitFor([&] { return settled(*edited); }, 60000));

    QTemporaryDir dir;
    const QString path = dir.filePath("edited.shallot");
    QVERIFY(edited->saveTo(path));
    auto fresh = openWindow(path);
    for (const char* overlay : {"overlayLeafcells", "overlayReachability", "overlayWalkable", "overlayPortals", "overlayVisible"})
        fresh->action(overlay)->setChecked(true);
    fresh->editor().setCurrentPose(edited->editor().currentPose());
    const Vec3 working = doc.workingPoint();
    fresh->editor().document().setWorkingPoint(working);
    edited->editor().overlays().setReachStart(*edited->editor().overlays().reachStart());
    fresh->editor().overlays().setReachStart(*edited->editor().overlays().reachStart());
    QVERIFY(QTest::qWaitFor([&] { return settled(*edited) && settled(*fresh); }, 60000));
    QVERIFY(QTest::qWaitFor([&] { return fresh->editor().overlays().sections().shown().workingPoint == working; }, 10000));
    QTest::qWait(300); // sections requested by the reach start: the newest shown

    // The spawn problems.
    const auto& a = edited->editor().spawnChecks().problems();
    const auto& b = fresh->editor().spawnChecks().problems();
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].kind, b[i].kind);
        QCOMPARE(a[i].entity, b[i].entity);
        QCOMPARE(a[i].message, b[i].message);
    }

    // The sections: the same colour at random points of each view's plane, in the box of
    // what the edited window fills there.
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int compared = 0;
    for (int axis = 0; axis < 3; ++axis) {
        Aabb level;
        for (const render::MeshChunk& c : edited->editor().scene().layer(render::sectionFills(axis)).chunkList()) level.add(c.bounds);
        QVERIFY(!level.empty());
        for (int sample = 0; sample < 3000; ++sample) {
            Vec3 p = level.mins + (level.maxs - level.mins).cwiseProduct(Vec3(unit(rng), unit(rng), unit(rng)));
            p[axis] = working[axis];
            const auto x = fillAt(edited->editor().scene(), axis, p), y = fillAt(fresh->editor().scene(), axis, p);
            if (!x || !y) continue;
            QVERIFY2(*x == *y, qPrintable(QString("axis %1 at %2 %3 %4: %5 against %6").arg(axis).arg(p.x()).arg(p.y()).arg(p.z())
                                              .arg(x->name(QColor::HexArgb), y->name(QColor::HexArgb))));
            compared += x->alpha() > 0;
        }
    }
    qInfo("%d of 9000 sampled points in a fill, each the same colour in both", compared);
    QVERIFY(compared > 1000);

    // The current pose's walkable area and walking paths between random points.
    const int pose = edited->editor().currentPose();
    const NavMesh* ma = edited->editor().overlays().nav().meshes()->mesh(pose);
    const NavMesh* mb = fresh->editor().overlays().nav().meshes()->mesh(pose);
    QVERIFY(ma && mb);
    double areaA = 0, areaB = 0;
    for (const NavPolygon& q : ma->polygons) areaA += q.area;
    for (const NavPolygon& q : mb->polygons) areaB += q.area;
    QVERIFY2(std::abs(areaA - areaB) < 1e-6 * std::max(1.0, areaA), qPrintable(QString("%1 against %2").arg(areaA).arg(areaB)));
    int found = 0;
    for (int k = 0; k < 40; ++k) {
        const NavPolygon& s = ma->polygons[rng() % ma->polygons.size()];
        const NavPolygon& g = ma->polygons[rng() % ma->polygons.size()];
        const Vec3 from = s.vertices[0] + Vec3(0, 0, 1);
        const Vec3 to = g.vertices[0] + Vec3(0, 0, 1);
        const auto pa = edited->editor().overlays().walkingPath(from, to, pose);
        const auto pb = fresh->editor().overlays().walkingPath(from, to, pose);
        QVERIFY(pa && pb);
        QCOMPARE(pa->found, pb->found);
        if (pa->found) QVERIFY(std::abs(pa->length - pb->length) < 1e-6 * std::max(1.0, pa->length));
        found += pa->found;
    }
    QVERIFY(found > 0);

    // The PVS: the same figures.
    const auto pvsA = edited->editor().overlays().pvs().of(*edited->editor().overlays().compiled());
    const auto pvsB = fresh->editor().overlays().pvs().of(*fresh->editor().overlays().compiled());
    QCOMPARE(pvsA->figures().averageLeaves, pvsB->figures().averageLeaves);
    QCOMPARE(pvsA->figures().largestWeight, pvsB->figures().largestWeight);
}

QTEST_MAIN(EditEqualsOpenGuiTest)
#include "edit_equals_open_gui_test.moc"

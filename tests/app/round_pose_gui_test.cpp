// A round current pose in the editor (issue 42, item 4): its expanded world drawn as its
// exact rounded surface, its cells from its two boxes coloured certain-empty / decided
// exactly / certain-solid, and its test rays answered exactly, each against core's exact
// answers (query/round_pose_world.h) on maps/figure1_rooms.map.
#include "gui_test_window.h"

#include "palette.h"
#include "query/round_pose_world.h"
#include "query/round_shape_overlap.h"
#include "query/trace.h"
#include "render_scene.h"
#include "tree_overlays.h"

#include <random>

using namespace shallot;
using namespace shallot::test;

namespace {

// A vertex of the drawn surface is this close (shape space, a capsule's is world units) to
// touching a brush: rounding of the tessellation's points (core's test holds it to 1e-7 of
// the brush's size).
constexpr double kOnSurface = 1e-6;
// A step in from the surface along its normal (world units) overlaps the brush it came
// from by more than the exact tests' contact band (1e-3).
constexpr double kStepInside = 0.05;
// The views' vertices are floats: a section line's end is this far from where it was cut
// (world units, for coordinates up to 1000).
constexpr double kFloatPosition = 1e-4;
// The test ray's contact for the round pose, against core's exact sweep (world units).
constexpr double kSameContact = 1e-9;

bool hasColour(const render::SceneLayer& layer, const QColor& colour) {
    for (const render::MeshChunk& chunk : layer.chunkList())
        for (const render::Vertex& v : chunk.geometry->vertices)
            if (v.colour[0] == colour.red() && v.colour[1] == colour.green() && v.colour[2] == colour.blue()) return true;
    return false;
}

} // namespace

class RoundPoseGuiTest : public QObject {
    Q_OBJECT
private slots:
    void aCapsuleIsDrawnAndAnsweredExactly();
};

void RoundPoseGuiTest::aCapsuleIsDrawnAndAnsweredExactly() {
    auto w = openWindow(SHALLOT_SAMPLE_MAPS "/figure1_rooms.map");
    Editor& e = w->editor();
    QVERIFY(waitForCompiledOverlay(*w));
    std::vector<Pose> poses = e.document().poses();
    poses.push_back(Pose::round("cap", PoseShape::capsule(16, 56)));
    const int cap = int(poses.size()) - 1;
    e.document().setPoses(poses);
    e.setCurrentPose(cap);
    // A horizontal ray towards the wall beside the corridor's opening (the wall x 200..300,
    // y 400..416): the box meets the wall's face at y = 384, the capsule the wall's vertical
    // edge (300, 400), 11 units beside its axis, at y = 400 - sqrt(16^2 - 11^2).
    const Vec3 from(311, 300, 128), to(311, 500, 128);
    e.document().setRays({TestRay{"edge", from, to}});
    w->action("overlayLeafcells")->setChecked(true);
    w->action("overlayExpandedworld")->setChecked(true);
    OverlayController& o = e.overlays();
    QVERIFY(waitForCompiledOverlay(*w, 30000));
    QVERIFY(QTest::qWaitFor([&] {
        const auto& c = o.compiled();
        return c && o.roundCells() && o.roundSurface() && o.roundCells()->serial == c->serial && o.roundSurface()->serial == c->serial;
    }, 30000));
    const std::shared_ptr<const CompiledWorld> compiled = o.compiled();
    const World& world = compiled->world;
    const RoundPoseWorld exact(world, world.poses[size_t(cap)]);
    const RoundShapeFrame& frame = exact.frame();

    // The rounded surface: each blocking brush's, in order, and every vertex on the exact
    // surface of some brush (touching it), a step in overlapping the world.
    std::vector<RoundBrush> brushes;
    std::vector<RoundSurfaceVertex> expected;
    for (const Brush& b : world.brushes) {
        if (!blocks(b, world.poses[size_t(cap)])) continue;
        const std::optional<BrushGeometry> g = buildBrushGeometry(b, world.bounds).geometry;
        if (!g) continue;
        brushes.push_back(RoundBrush::of(*g, frame));
        appendRoundExpandedSurface(*g, world.poses[size_t(cap)].shape, kRoundSurfaceStep, expected);
    }
    std::vector<RoundSurfaceVertex> mesh;
    for (const RoundSurfacePiece& piece : o.roundSurface()->pieces)
        if (piece) mesh.insert(mesh.end(), piece->begin(), piece->end());
    QCOMPARE(mesh.size(), expected.size());
    QVERIFY(mesh.size() > 3000);
    for (size_t i = 0; i < mesh.size(); ++i) {
        QCOMPARE(mesh[i].position, expected[i].position);
        double nearest = std::numeric_limits<double>::infinity();
        for (const RoundBrush& b : brushes)
            nearest = std::min(nearest, std::abs(roundShapeClearance(frame, b, frame.toShape(mesh[i].position))));
        QVERIFY2(nearest <= kOnSurface, qPrintable(QString("vertex %1 is %2 from every brush's surface").arg(i).arg(nearest)));
        QVERIFY(exact.isSolid(mesh[i].position - kStepInside * mesh[i].normal));
    }
    const render::SceneLayer& surface = e.scene().layer(render::Layer::UnionWire);
    QVERIFY(hasColour(surface, render::kExpandedWorldColour));
    // What the 3D view draws is the shown part: the walls' grown copies overlap where they
    // meet, and what lies deep inside another's is left out (RoundExpandedSurface.Shown*).
    size_t shownVertices = 0, drawnVertices = 0;
    for (const RoundSurfacePiece& piece : o.roundSurface()->shown) shownVertices += piece ? piece->size() : 0;
    for (const render::MeshChunk& chunk : surface.chunkList()) drawnVertices += chunk.vertexCount();
    QCOMPARE(drawnVertices, shownVertices);
    QVERIFY(shownVertices < mesh.size());
    // Its section in the top view: lines whose ends lie on the tessellation's chords, at
    // most its sag inside the exact surface and never outside it.
    QVERIFY(QTest::qWaitFor([&] { return o.sections().shown().roundSurface == o.roundSurface(); }, 30000));
    const double sag = frame.radius * (1.0 - std::cos(kRoundSurfaceStep));
    size_t sectionEnds = 0;
    for (const render::MeshChunk& chunk : e.scene().layer(render::sectionLines(2)).chunkList())
        for (const render::Vertex& v : chunk.geometry->vertices) {
            if (v.colour[0] != render::kExpandedWorldColour.red() || v.colour[1] != render::kExpandedWorldColour.green()) continue;
            const Vec3 p(v.position[0], v.position[1], v.position[2]);
            // On the surface of some brush (the grown brushes overlap where brushes meet).
            const bool onSome = std::any_of(brushes.begin(), brushes.end(), [&](const RoundBrush& b) {
                const double c = roundShapeClearance(frame, b, frame.toShape(p));
                return c <= kFloatPosition && c >= -sag - kFloatPosition;
            });
            QVERIFY2(onSome, qPrintable(QString("(%1 %2 %3)").arg(p.x()).arg(p.y()).arg(p.z())));
            ++sectionEnds;
        }
    QVERIFY(sectionEnds > 100);

    // The cells: certain-empty never holds the shape, certain-solid always, against the
    // exact classify of random points over the level; all three kinds drawn.
    const BspTree& boxes = o.roundCells()->result->onion;
    QCOMPARE(boxes.poses.size(), size_t(2));
    std::mt19937_64 rng(7);
    const Aabb level = e.levelBounds();
    int kinds[3] = {};
    for (int n = 0; n < 20000; ++n) {
        Vec3 p;
        for (int k = 0; k < 3; ++k) p[k] = std::uniform_real_distribution<double>(level.mins[k], level.maxs[k])(rng);
        const uint64_t bits = boxes.solidityAt(p);
        const render::RoundCellKind kind = render::roundCellKind(bits);
        ++kinds[int(kind)];
        if (kind == render::RoundCellKind::CertainEmpty) QVERIFY2(!exact.isSolid(p), qPrintable(QString("(%1 %2 %3)").arg(p.x()).arg(p.y()).arg(p.z())));
        if (kind == render::RoundCellKind::CertainSolid) QVERIFY2(exact.isSolid(p), qPrintable(QString("(%1 %2 %3)").arg(p.x()).arg(p.y()).arg(p.z())));
    }
    QVERIFY(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
    o.setCellFilter(render::CellFilter::All);
    QVERIFY(waitForCompiledOverlay(*w, 30000));
    QVERIFY(QTest::qWaitFor([&] { return hasColour(e.scene().layer(render::Layer::LeafCells), render::kSolidCellColour); }, 30000));
    const render::SceneLayer& cells = e.scene().layer(render::Layer::LeafCells);
    QVERIFY(hasColour(cells, render::kEmptyCellColour));
    QVERIFY(hasColour(cells, render::kDecidedExactlyColour));

    // The test ray: where core's exact sweep stops, not where the bounding box does.
    QVERIFY(QTest::qWaitFor([&] { return o.rayResults().size() == 1 && o.rayResults()[0].size() == poses.size(); }, 10000));
    const TraceResult drawn = o.rayResults()[0][size_t(cap)];
    const TraceResult swept = exact.trace(from, to);
    QVERIFY(drawn.hit && swept.hit);
    QVERIFY(std::abs(drawn.t - swept.t) <= kSameContact);
    QVERIFY((drawn.point - swept.point).norm() <= kSameContact);
    QVERIFY(std::abs(drawn.point.y() - (400 - std::sqrt(16.0 * 16 - 11 * 11))) < 1e-6);
    const TraceResult box = traceSegment(compiled->result->onion, cap, from, to);
    QVERIFY(std::abs(box.point.y() - 384) < 1e-6); // the bounding box would stop 4.4 units short
    const render::RayDrawing ray = o.rayDrawing(from, to, false);
    QVERIFY((ray.point - swept.point).norm() <= kSameContact);

    // With the 2D views projecting the overlays instead of cutting them, the rounded
    // surface stays out of them; a box pose's outlines are projected again.
    o.sections().setOn(false);
    QVERIFY(!e.scene().layer(render::Layer::UnionWire).in2d);
    e.setCurrentPose(1);
    QVERIFY(QTest::qWaitFor([&] { return !o.roundSurface() && e.scene().layer(render::Layer::UnionWire).in2d; }, 30000));
    o.sections().setOn(true);
}

QTEST_MAIN(RoundPoseGuiTest)
#include "round_pose_gui_test.moc"

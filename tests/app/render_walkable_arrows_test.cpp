// The Walkable overlay's arrows (nav_overlay.h) on id_e1m1, thinned: every link is shown by
// an arrow of its kind whose start and end lie within kLinkArrowSpacing of its own, and no
// two arrows of one kind are that close at both ends; the mesh's steps, drops and jumps and
// the travel links (doors, lifts, swims, water jumps, ladders; a swim round corners along
// its points).
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"
#include "nav_overlay.h"

#include <QtTest>

using namespace shallot;
using namespace shallot::render;

namespace {

constexpr int kPlayer = 1; // quakePoses(): point, player, large

// An arrow as drawn: from the start of its shaft to its tip (a swim round corners: its
// pieces one after the other, the last one the shaft), lifted back down to the links' own
// heights, and its colour.
struct Arrow {
    Vec3 start, end;
    QColor colour;
};

// The arrows of `lines` after its first `skipLines`: each a chain of lines, each starting
// where the one before ends, then its head, two lines from the tip.
std::vector<Arrow> arrowsOf(const MeshBatch& lines, double lift, size_t skipLines = 0) {
    std::vector<Arrow> arrows;
    const size_t count = lines.vertices.size() / 2;
    auto from = [&](size_t line) { return lines.vertices[2 * line].position; };
    auto to = [&](size_t line) { return lines.vertices[2 * line + 1].position; };
    auto same = [](const float* a, const float* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; };
    auto at = [&](const float* p) { return Vec3(p[0], p[1], p[2] - lift); };
    for (size_t line = skipLines; line < count;) {
        const float* start = from(line);
        const float* tip = to(line);
        const uint8_t* c = lines.vertices[2 * line].colour;
        ++line;
        while (line + 1 < count && !(same(from(line), tip) && same(from(line + 1), tip))) tip = to(line++);
        if (line + 1 >= count) {
            QTest::qFail("an arrow without its head", __FILE__, __LINE__);
            break;
        }
        arrows.push_back({at(start), at(tip), QColor(c[0], c[1], c[2])});
        line += 2;
    }
    return arrows;
}

// Checks `links` (start, end and a colour each: none for those not drawn) against the
// arrows drawn for them.
template <class Link, class ColourOf>
void expectThinnedCover(const std::vector<Link>& links, const std::vector<Arrow>& arrows, ColourOf colourOf, const char* what) {
    // The drawn positions are floats: a float's rounding of coordinates of a few thousand units.
    constexpr double kFloatSlack = 1e-3;
    auto near = [](const Vec3& a, const Vec3& b, double within) { return (a - b).norm() < within; };
    size_t drawnLinks = 0;
    for (const Link& l : links) {
        if (!colourOf(l).isValid()) continue;
        ++drawnLinks;
        bool covered = false;
        for (const Arrow& a : arrows)
            if (a.colour == colourOf(l) && near(a.start, l.start, kLinkArrowSpacing + kFloatSlack) &&
                near(a.end, l.end, kLinkArrowSpacing + kFloatSlack)) {
                covered = true;
                break;
            }
        if (!covered)
            QFAIL(qPrintable(QString("%1: the link from %2 %3 %4 has no arrow of its kind near both its ends")
                                 .arg(what).arg(l.start.x()).arg(l.start.y()).arg(l.start.z())));
    }
    for (size_t i = 0; i < arrows.size(); ++i)
        for (size_t j = i + 1; j < arrows.size(); ++j) {
            const Arrow &a = arrows[i], &b = arrows[j];
            QVERIFY2(a.colour != b.colour || !near(a.start, b.start, kLinkArrowSpacing - kFloatSlack) ||
                         !near(a.end, b.end, kLinkArrowSpacing - kFloatSlack),
                     what);
        }
    qInfo("%s: %zu links drawn as %zu arrows", what, drawnLinks, arrows.size());
    QVERIFY(arrows.size() <= drawnLinks);
}

} // namespace

class WalkableArrowsTest : public QObject {
    Q_OBJECT

private slots:
    void e1m1LinksDrawnAlongTheirLedges() {
        const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m1.map");
        QVERIFY(read.ok());
        const World world = worldFromMap(*read.map);
        const CompileResult compiled = compileWorld(world);
        const BspTree& tree = compiled.onion;
        const Pose& player = world.poses[kPlayer];
        const NavMesh mesh = buildNavMesh(tree, kPlayer, player.nav);
        const double feet = tree.poses[kPlayer].mins.z();
        const double lift = feet + kFeetLift;

        const MeshBatch links = walkableLinks(mesh, feet);
        QCOMPARE(links.vertices.size() % 6, size_t(0)); // three lines an arrow
        expectThinnedCover(mesh.links, arrowsOf(links, lift), [](const NavLink& l) {
            return l.kind == NavLinkKind::StepUp     ? kStepUpColour
                   : l.kind == NavLinkKind::StepDown ? kStepDownColour
                   : l.kind == NavLinkKind::Jump     ? kJumpColour
                   : l.kind == NavLinkKind::Drop     ? kDropColour
                                                     : QColor();
        }, "mesh links");

        TravelLevel level = travelLevelOf(*read.map);
        addLiquidsAndLadders(level, world);
        const TravelGraph graph = buildTravelGraph(tree, mesh, tree.poses[kPlayer], level);
        const MeshBatch travel = walkableTravel(graph, tree.poses[kPlayer]);
        size_t gateLines = 0; // a gate's boxes come first, 12 edges each
        for (const DoorGate& gate : graph.gates) gateLines += 12 * gate.boxes.size();
        QVERIFY(gateLines > 0);
        const std::vector<Arrow> arrows = arrowsOf(travel, lift, gateLines);
        QVERIFY(std::any_of(arrows.begin(), arrows.end(), [](const Arrow& a) { return a.colour == kSwimTravelColour; }));
        QVERIFY(std::any_of(graph.links.begin(), graph.links.end(), [](const TravelLink& l) { return !l.via.empty(); }));
        expectThinnedCover(graph.links, arrows, [](const TravelLink& l) { return travelColour(l.kind); }, "travel links");
    }
};

QTEST_GUILESS_MAIN(WalkableArrowsTest)
#include "render_walkable_arrows_test.moc"

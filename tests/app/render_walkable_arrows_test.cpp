// The Walkable overlay's arrows (nav_overlay.h) on id_e1m1, thinned: every link is shown by
// an arrow of its kind whose start and end lie within kLinkArrowSpacing of its own, and no
// two arrows of one kind are that close at both ends; the mesh's steps, drops and jumps and
// the travel links (doors, lifts, swims, water jumps, ladders; a swim round corners as an
// arrow into its route and one out of it, the routes' pieces each drawn once).
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"
#include "nav_overlay.h"

#include <QtTest>

#include <array>
#include <set>

using namespace shallot;
using namespace shallot::render;

namespace {

constexpr int kPlayer = 1; // quakePoses(): point, player, large

// An arrow as drawn: from the start of its shaft to its tip, lifted back down to the
// links' own heights, and its colour.
struct Arrow {
    Vec3 start, end;
    QColor colour;
};

// The arrows in `lines[first, end)`: each a shaft, then the two lines of its head from the
// tip.
std::vector<Arrow> arrowsOf(const MeshBatch& lines, double lift, size_t first = 0, size_t end = SIZE_MAX) {
    std::vector<Arrow> arrows;
    end = std::min(end, lines.vertices.size() / 2);
    auto from = [&](size_t line) { return lines.vertices[2 * line].position; };
    auto to = [&](size_t line) { return lines.vertices[2 * line + 1].position; };
    auto same = [](const float* a, const float* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; };
    auto at = [&](const float* p) { return Vec3(p[0], p[1], p[2] - lift); };
    if ((end - first) % 3 != 0) QTest::qFail("not three lines an arrow", __FILE__, __LINE__);
    for (size_t line = first; line + 2 < end; line += 3) {
        if (!same(from(line + 1), to(line)) || !same(from(line + 2), to(line))) {
            QTest::qFail("an arrow without its head", __FILE__, __LINE__);
            break;
        }
        const uint8_t* c = lines.vertices[2 * line].colour;
        arrows.push_back({at(from(line)), at(to(line)), QColor(c[0], c[1], c[2])});
    }
    return arrows;
}

// A line as drawn, its ends in either order.
using DrawnLine = std::pair<std::array<float, 3>, std::array<float, 3>>;

// The drawn positions are floats: a float's rounding of coordinates of a few thousand units.
constexpr double kFloatSlack = 1e-3;

bool near(const Vec3& a, const Vec3& b, double within) { return (a - b).norm() < within; }

bool hasArrow(const std::vector<Arrow>& arrows, const QColor& colour, const Vec3& start, const Vec3& end) {
    return std::any_of(arrows.begin(), arrows.end(), [&](const Arrow& a) {
        return a.colour == colour && near(a.start, start, kLinkArrowSpacing + kFloatSlack) &&
               near(a.end, end, kLinkArrowSpacing + kFloatSlack);
    });
}

// The arrows' and pieces' count against the lines it would take to draw every link whole.
template <class Link, class ColourOf>
void expectThinnedCover(const std::vector<Link>& links, const std::vector<Arrow>& arrows, ColourOf colourOf, const char* what) {
    size_t drawnLinks = 0;
    for (const Link& l : links) {
        if (!colourOf(l).isValid()) continue;
        ++drawnLinks;
        if (!hasArrow(arrows, colourOf(l), l.start, l.end))
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
        // A swim round corners: an arrow from its floor to its first corner, an arrow from its
        // last corner to the floor it reaches, and the pieces of its route, each drawn once
        // after all the arrows.
        auto drawnAt = [&](const Vec3& p) { return std::array<float, 3>{float(p.x()), float(p.y()), float(p.z() + lift)}; };
        std::set<DrawnLine> routePieces;
        size_t routed = 0, pieceCount = 0;
        for (const TravelLink& l : graph.links)
            if (!l.via.empty()) {
                ++routed;
                for (size_t i = 0; i + 1 < l.via.size(); ++i, ++pieceCount)
                    routePieces.insert(std::minmax(drawnAt(l.via[i]), drawnAt(l.via[i + 1])));
            }
        QVERIFY(routed > 0);
        const size_t lineCount = travel.vertices.size() / 2;
        QVERIFY(lineCount >= gateLines + routePieces.size());
        const size_t firstPiece = lineCount - routePieces.size();
        std::set<DrawnLine> drawnPieces;
        for (size_t line = firstPiece; line < lineCount; ++line) {
            const float* a = travel.vertices[2 * line].position;
            const float* b = travel.vertices[2 * line + 1].position;
            drawnPieces.insert(std::minmax(std::array<float, 3>{a[0], a[1], a[2]}, std::array<float, 3>{b[0], b[1], b[2]}));
        }
        QVERIFY(drawnPieces == routePieces);
        qInfo("swims round corners: %zu, %zu pieces along their routes drawn as %zu lines", routed, pieceCount,
              routePieces.size());

        const std::vector<Arrow> arrows = arrowsOf(travel, lift, gateLines, firstPiece);
        QVERIFY(std::any_of(arrows.begin(), arrows.end(), [](const Arrow& a) { return a.colour == kSwimTravelColour; }));
        // Each link as a straight link (or two: into its route and out of it).
        std::vector<TravelLink> straight;
        for (const TravelLink& l : graph.links) {
            if (l.via.empty()) {
                straight.push_back(l);
                continue;
            }
            TravelLink in = l, out = l;
            in.end = l.via.front();
            out.start = l.via.back();
            in.via.clear();
            out.via.clear();
            straight.push_back(in);
            straight.push_back(out);
        }
        expectThinnedCover(straight, arrows, [](const TravelLink& l) { return travelColour(l.kind); }, "travel links");
        qInfo("travel: %zu lines", travel.vertices.size() / 2);
    }
};

QTEST_GUILESS_MAIN(WalkableArrowsTest)
#include "render_walkable_arrows_test.moc"

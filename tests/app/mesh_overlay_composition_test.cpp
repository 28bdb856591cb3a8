// The cell and reachability overlays in one batch (cellAndReachOverlay, tree_overlays.h)
// against the two drawn one over the other: every triangle of either appears once in the
// combined batch, and blending the combined colour over a background gives what blending
// the cell colour and then the reach colour over it gives (OpenGL's SRC_ALPHA,
// ONE_MINUS_SRC_ALPHA blending, simulated in 8 bits).
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "compile/compiler.h"
#include "portal/leaf_cells.h"
#include "portal/reachability.h"
#include "tree_overlays.h"

#include <QtTest>
#include <array>
#include <map>
#include <vector>

using namespace shallot;
using namespace shallot::render;

namespace {

// Most a blended channel may differ (of 255): the composed colour is rounded to 8 bits
// once, the two layers twice.
constexpr int kBlendTolerance = 2;

using TriangleKey = std::array<float, 9>;
using Rgba = std::array<int, 4>;

// Colours of the batch's triangles by their corners (a corner order is a winding, so the two
// copies of a surface between two regions stay apart).
std::multimap<TriangleKey, Rgba> trianglesOf(const MeshBatch& batch) {
    std::multimap<TriangleKey, Rgba> out;
    for (size_t i = 0; i + 2 < batch.vertices.size(); i += 3) {
        TriangleKey key;
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) key[size_t(3 * c + k)] = batch.vertices[i + size_t(c)].position[k];
        const uint8_t* rgba = batch.vertices[i].colour;
        out.emplace(key, Rgba{rgba[0], rgba[1], rgba[2], rgba[3]});
    }
    return out;
}

// One layer drawn over `under` with glBlendFunc(SRC_ALPHA, ONE_MINUS_SRC_ALPHA), in 8 bits.
Rgba blend(const Rgba& top, const Rgba& under) {
    Rgba out{};
    const double a = top[3] / 255.0;
    for (int k = 0; k < 3; ++k) out[size_t(k)] = int(std::lround(top[size_t(k)] * a + under[size_t(k)] * (1.0 - a)));
    out[3] = 255;
    return out;
}

struct Scene {
    BspTree tree;
    LeafCellList cells;
    std::vector<Aabb> cellBounds;
    Flood reach;
    OverlaySource source() const { return {tree, cells, cellBounds}; }
};

Scene compiledScene(const QString& mapPath) {
    const MapReadResult read = readMapFile(mapPath.toStdString());
    if (!read.ok()) qFatal("cannot read %s", qPrintable(mapPath));
    Scene s;
    s.tree = compileWorld(worldFromMap(*read.map)).onion;
    s.cells = leafCells(s.tree);
    s.cellBounds = leafCellBounds(s.cells);
    Vec3 start = Vec3::Zero();
    for (const PointEntity& e : pointEntities(*read.map))
        if (e.classname == "info_player_start") start = e.origin;
    s.reach = flood(s.tree, 0, {start});
    return s;
}

} // namespace

class MeshOverlayCompositionTest : public QObject {
    Q_OBJECT

    void expectComposed(const Scene& s, const CellOverlayOptions& options) {
        const auto cells = trianglesOf(cellOverlay(s.source(), options));
        const auto reach = trianglesOf(reachOverlay(s.source(), s.reach.reached, s.reach.leakPath));
        const auto both = trianglesOf(cellAndReachOverlay(s.source(), options, s.reach.reached, s.reach.leakPath));
        QVERIFY(!cells.empty());
        QVERIFY(!reach.empty());
        // Where both draw a triangle (every reached wall), the combined batch draws it once.
        size_t shared = 0;
        for (const auto& [key, colour] : cells) shared += reach.count(key);
        QVERIFY2(shared > 0, "the two overlays share no surface: nothing is composed");
        QCOMPARE(both.size(), cells.size() + reach.size() - shared);

        const std::vector<Rgba> backgrounds{{0, 0, 0, 255}, {255, 255, 255, 255}, {90, 120, 200, 255}};
        size_t checked = 0;
        for (const auto& [key, colour] : both) {
            const auto c = cells.equal_range(key);
            const auto r = reach.equal_range(key);
            QVERIFY2(c.first != c.second || r.first != r.second, "a triangle neither overlay draws");
            for (const Rgba& bg : backgrounds) {
                Rgba expected = bg;
                if (c.first != c.second) expected = blend(c.first->second, expected);
                if (r.first != r.second) expected = blend(r.first->second, expected);
                const Rgba got = blend(colour, bg);
                for (int k = 0; k < 3; ++k)
                    QVERIFY2(std::abs(got[size_t(k)] - expected[size_t(k)]) <= kBlendTolerance,
                             qPrintable(QString("channel %1: composed %2, layered %3").arg(k).arg(got[size_t(k)]).arg(expected[size_t(k)])));
            }
            ++checked;
        }
        QVERIFY(checked > 0);
    }

private slots:
    void cellsAndReachComposeAsTwoLayersOnId_e1m1() {
        const QString map = QString(SHALLOT_SHARED_MAPS) + "/id_e1m1.map";
        if (!QFile::exists(map)) QSKIP("../shared/maps/id_e1m1.map not present");
        const Scene s = compiledScene(map);
        CellOverlayOptions options;
        options.pose = 0; // the point pose: cell and reach surfaces lie on the walls together
        expectComposed(s, options);
        options.pose = 1;
        options.colouring = CellColouring::ByBitset;
        options.filter = CellFilter::All; // every leaf coloured: reach pieces inside colour regions too
        expectComposed(s, options);
    }

    void aLeakingMapWithAHighlightedLeaf() {
        const QString map = QString(SHALLOT_SAMPLE_MAPS) + "/leaky_box.map";
        if (!QFile::exists(map)) QSKIP("maps/leaky_box.map not present");
        const Scene s = compiledScene(map);
        CellOverlayOptions options;
        for (size_t leaf = 0; leaf < s.reach.reached.size(); ++leaf)
            if (s.reach.reached[leaf]) {
                options.highlightLeaf = int(leaf);
                break;
            }
        expectComposed(s, options);
    }
};

QTEST_GUILESS_MAIN(MeshOverlayCompositionTest)
#include "mesh_overlay_composition_test.moc"

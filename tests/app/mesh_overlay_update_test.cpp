// Overlays updated after an edit (overlay_update.h) against the overlays of the edited
// tree drawn whole: after random edits on random worlds and brush moves on id_e1m1, every
// overlay's chunks come out alike, byte for byte and leaf run for leaf run, while only a
// part of the leaves is drawn again.
#include "../core/random_world.h"
#include "incremental/incremental_compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "edit/brush_operations.h"
#include "overlay_update.h"
#include "portal/reachability.h"

#include <QtTest>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <numeric>

using namespace shallot;
using namespace shallot::render;
using namespace shallot::test;

namespace {

// A region larger than this many chunk cells is drawn whole (as in the editor, more or less).
constexpr size_t kMaxCells = 4096;

// One compiled tree's overlays, as the editor draws them, and what they were drawn from.
struct Drawn {
    OverlayLeafInputs inputs;
    std::vector<MeshBatch> overlays; // cells and reach, cells by bitset, portals, union
};

Drawn draw(const BspTree& tree, const LeafCellList& cells, const std::vector<Aabb>& bounds, int pose, const Vec3& start,
           const LeafMask* only = nullptr) {
    Drawn d;
    const Flood f = flood(tree, pose, {start});
    d.inputs.cellBounds = bounds;
    d.inputs.leafSolid = tree.leafSolid;
    d.inputs.reached = f.reached;
    d.inputs.greyed = reachableFromOutside(tree, pose);
    d.inputs.leakPath = f.leakPath;
    d.inputs.extent = drawnExtent(tree, bounds, f.leak);
    CellOverlayOptions greyedCells;
    greyedCells.pose = pose;
    greyedCells.greyed = &d.inputs.greyed;
    CellOverlayOptions byBitset;
    byBitset.pose = pose;
    byBitset.filter = CellFilter::DiffersBetweenPoses;
    byBitset.colouring = CellColouring::ByBitset;
    const OverlaySource source{tree, cells, bounds};
    d.overlays.push_back(cellAndReachOverlay(source, greyedCells, f.reached, f.leakPath, only));
    d.overlays.push_back(cellOverlay(source, byBitset, only));
    d.overlays.push_back(portalOverlay(source, pose, false, only));
    d.overlays.push_back(unionWireOverlay(tree, pose, only));
    return d;
}

// Random brushes inside a closed room (so the reach does not leak into the void and every
// overlay draws within the room).
World randomRoom(Rng& rng) {
    World w = randomWorld(rng, 160, 1500, 1);
    addClosingWalls(w, 1700);
    return w;
}

bool sameChunks(const std::vector<MeshChunk>& a, const std::vector<MeshChunk>& b, QString& why) {
    if (a.size() != b.size()) {
        why = QString("%1 chunks against %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        const MeshBatch &x = *a[i].geometry, &y = *b[i].geometry;
        why = QString("chunk %1 (cell %2): ").arg(i).arg(a[i].cell);
        if (a[i].cell != b[i].cell) return why += "other cell", false;
        if (a[i].bounds.mins != b[i].bounds.mins || a[i].bounds.maxs != b[i].bounds.maxs) return why += "bounds", false;
        if (x.primitive != y.primitive || x.lit != y.lit || x.outline != y.outline) return why += "kind", false;
        if (x.vertices.size() != y.vertices.size() ||
            std::memcmp(x.vertices.data(), y.vertices.data(), x.vertices.size() * sizeof(Vertex)) != 0)
            return why += QString("vertices (%1 against %2)").arg(x.vertices.size()).arg(y.vertices.size()), false;
        if (a[i].leafRuns != b[i].leafRuns) return why += "leaf runs", false;
    }
    return true;
}

// Compiles `world` after the edit, updates `before`'s overlays and compares them with the
// new tree's drawn whole. Returns the new drawing and the share of leaves drawn again.
Drawn expectUpdateMatchesWhole(IncrementalCompiler& compiler, const World& world, const Drawn& before, int pose,
                               const Vec3& start, double& redrawnShare) {
    const CompileResult r = *compiler.compile(world);
    const LeafCellList& cells = compiler.leafCells();
    const std::vector<int32_t>& leafOfBefore = compiler.onionLeafOfPrevious();
    const std::vector<Aabb> bounds = leafCellBounds(cells, before.inputs.cellBounds, leafOfBefore);
    const std::vector<Aabb> freshBounds = leafCellBounds(cells);
    for (size_t leaf = 0; leaf < bounds.size(); ++leaf) {
        if (bounds[leaf].mins != freshBounds[leaf].mins || bounds[leaf].maxs != freshBounds[leaf].maxs)
            qFatal("kept bounds of leaf %zu differ from its cell's", leaf);
    }
    Drawn whole = draw(r.onion, cells, bounds, pose, start);
    redrawnShare = 1.0;
    if (!r.stats.incremental) return whole;
    const std::optional<OverlayRegion> region = changedRegion(before.inputs, whole.inputs, leafOfBefore, kMaxCells);
    if (!region) return whole;
    redrawnShare = double(region->markedLeaves) / double(std::max<size_t>(1, r.onion.leafCount()));
    Drawn part = draw(r.onion, cells, bounds, pose, start, &region->leaves);
    for (size_t k = 0; k < whole.overlays.size(); ++k) {
        const std::vector<MeshChunk> expected = splitIntoChunks(whole.overlays[k]);
        const std::vector<MeshChunk> beforeChunks = splitIntoChunks(before.overlays[k]);
        const std::vector<MeshChunk> updated = updatedChunks(beforeChunks, leafOfBefore, *region, std::move(part.overlays[k]));
        QString why;
        if (!sameChunks(updated, expected, why)) qFatal("overlay %zu: %s", k, qPrintable(why));
        // The chunks outside the region are the ones before, sharing their vertices.
        for (const MeshChunk& chunk : updated) {
            const bool inRegion = std::binary_search(region->cells.begin(), region->cells.end(), chunk.cell);
            const auto old = std::find_if(beforeChunks.begin(), beforeChunks.end(), [&](const MeshChunk& c) { return c.cell == chunk.cell; });
            if (!inRegion && (old == beforeChunks.end() || old->geometry != chunk.geometry))
                qFatal("overlay %zu: chunk cell %llu outside the region not shared", k, (unsigned long long)chunk.cell);
        }
    }
    return whole;
}

} // namespace

class OverlayUpdateTest : public QObject {
    Q_OBJECT
private slots:
    void updatedOverlaysAreTheWholeOnRandomWorlds() {
        Rng rng(17);
        World w = randomRoom(rng);
        IncrementalCompiler compiler(true);
        const CompileResult first = *compiler.compile(w);
        const Vec3 start(0, 0, 0);
        Drawn drawn = draw(first.onion, compiler.leafCells(), leafCellBounds(compiler.leafCells()), 1, start);
        int partial = 0;
        for (int edit = 0; edit < 12; ++edit) {
            const size_t i = size_t(rng() % (w.brushes.size() - 6)); // not a wall
            if (edit % 4 == 3) w.brushes.erase(w.brushes.begin() + std::ptrdiff_t(i));
            else w.brushes[i] = translated(w.brushes[i], Vec3(uniform(rng, -40, 40), uniform(rng, -40, 40), uniform(rng, -16, 16)));
            double share = 1;
            drawn = expectUpdateMatchesWhole(compiler, w, drawn, 1, start, share);
            partial += share < 0.5;
        }
        QVERIFY2(partial >= 8, qPrintable(QString("only %1 of 12 edits drew less than half the leaves again").arg(partial)));
    }

    // The same tree with the reach start moved into a wall and back: the leaves map to
    // themselves, the reach and the grey differ.
    void aMovedReachStartRedrawsWhereTheReachChanged() {
        Rng rng(3);
        const World w = randomRoom(rng);
        IncrementalCompiler compiler(true);
        const CompileResult r = *compiler.compile(w);
        const LeafCellList& cells = compiler.leafCells();
        const std::vector<Aabb> bounds = leafCellBounds(cells);
        std::vector<int32_t> same(r.onion.leafCount());
        std::iota(same.begin(), same.end(), 0);
        std::vector<Vec3> starts;
        while (starts.size() < 3) {
            const Vec3 p(uniform(rng, -1600, 1600), uniform(rng, -1600, 1600), uniform(rng, -1600, 1600));
            if (!r.onion.isSolid(p, 0)) starts.push_back(p);
        }
        const Vec3 inWall(0, 0, 1716);
        int redrawn = 0;
        Drawn before = draw(r.onion, cells, bounds, 0, starts[0]);
        for (const Vec3& start : {inWall, starts[1], inWall, starts[2]}) {
            Drawn after = draw(r.onion, cells, bounds, 0, start);
            const std::optional<OverlayRegion> region = changedRegion(before.inputs, after.inputs, same, kMaxCells);
            QVERIFY(region);
            redrawn += region->markedLeaves > 0;
            Drawn part = draw(r.onion, cells, bounds, 0, start, &region->leaves);
            for (size_t k = 0; k < after.overlays.size(); ++k) {
                QString why;
                const bool alike = sameChunks(
                    updatedChunks(splitIntoChunks(before.overlays[k]), same, *region, std::move(part.overlays[k])),
                    splitIntoChunks(after.overlays[k]), why);
                QVERIFY2(alike, qPrintable(QString("overlay %1: %2").arg(k).arg(why)));
            }
            before = std::move(after);
        }
        QCOMPARE(redrawn, 4);
    }

    // drawnExtent takes a leaf's cell for its polygons where the cell is added anyway: the
    // extent must be the one of every polygon vertex and every cell away from the world box,
    // up to the rounding between a polygon and its cell.
    void theDrawnExtentHoldsEveryPolygonAndEveryInnerCell() {
        constexpr double kRounding = 1e-6; // world units; polygons and cells are clipped apart
        auto check = [&](const World& w, const char* what) {
            IncrementalCompiler compiler(true);
            const CompileResult r = *compiler.compile(w);
            const std::vector<Aabb> bounds = leafCellBounds(compiler.leafCells());
            Aabb expected;
            for (const Aabb& cell : bounds)
                if (!cell.empty() && !touchesWorldBox(cell, r.onion.bounds)) expected.add(cell);
            for (const LeafPolygon& p : r.onion.polygons)
                for (const Vec3& v : r.onion.polygons.vertices(p)) expected.add(v);
            const Aabb extent = drawnExtent(r.onion, bounds, false);
            QVERIFY2(!expected.empty(), what);
            QVERIFY2((extent.mins - expected.mins).cwiseAbs().maxCoeff() <= kRounding &&
                         (extent.maxs - expected.maxs).cwiseAbs().maxCoeff() <= kRounding,
                     what);
            const Aabb whole = drawnExtent(r.onion, bounds, true);
            QVERIFY2(whole.mins == r.onion.bounds.mins && whole.maxs == r.onion.bounds.maxs, what);
        };
        for (uint32_t seed : {1u, 2u, 3u}) {
            Rng rng(seed);
            World w = randomWorld(rng, 120, 1500, 1);
            check(w, "random world");
            // Brushes cut by the world box: their solid cells touch it, so only their
            // polygons say how far the overlays draw there.
            w.bounds = Aabb{Vec3::Constant(-1000), Vec3::Constant(1000)};
            check(w, "random world in a small box");
        }
        const std::string path = std::string(SHALLOT_SHARED_MAPS) + "/id_e1m1.map";
        if (!std::filesystem::exists(path)) QSKIP("no shared id_e1m1.map");
        const MapReadResult read = readMapFile(path);
        QVERIFY(read.ok());
        check(worldFromMap(*read.map), "id_e1m1");
    }

    void brushMovesInIdE1m1RedrawLittle() {
        const std::string path = std::string(SHALLOT_SHARED_MAPS) + "/id_e1m1.map";
        if (!std::filesystem::exists(path)) QSKIP("no shared id_e1m1.map");
        const MapReadResult read = readMapFile(path);
        QVERIFY(read.ok());
        World w = worldFromMap(*read.map);
        Vec3 start = Vec3::Zero();
        for (const PointEntity& e : pointEntities(*read.map))
            if (e.classname == "info_player_start") start = e.origin;
        IncrementalCompiler compiler(true);
        const CompileResult first = *compiler.compile(w);
        Drawn drawn = draw(first.onion, compiler.leafCells(), leafCellBounds(compiler.leafCells()), 1, start);
        Rng rng(8);
        double largest = 0;
        for (int edit = 0; edit < 4; ++edit) {
            Brush& b = w.brushes[size_t(rng() % w.brushes.size())];
            b = translated(b, Vec3(std::round(uniform(rng, -32, 32)), std::round(uniform(rng, -32, 32)), 0));
            double share = 1;
            drawn = expectUpdateMatchesWhole(compiler, w, drawn, 1, start, share);
            largest = std::max(largest, share);
        }
        QVERIFY2(largest < 0.5, qPrintable(QString("an edit drew %1 of the leaves again").arg(largest)));
    }
};

QTEST_GUILESS_MAIN(OverlayUpdateTest)
#include "mesh_overlay_update_test.moc"

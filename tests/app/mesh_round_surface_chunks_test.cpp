// A round pose's expanded surface chunked for the 3D view and kept between edits
// (render::RoundSurfaceChunker) against the whole surface drawn and split again
// (splitIntoChunks(roundSurfaceBatch(...))): after random moves, removals and additions of
// brushes in a room, compiled incrementally, every chunk cell holds the same triangles,
// byte for byte, each in the same leaf, while most chunks keep their geometry and only the
// corners whose leaf is gone are looked up again.
#include "../core/random_world.h"
#include "edit/brush_operations.h"
#include "incremental/incremental_compiler.h"
#include "round_surface_batch.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

using namespace shallot;
using namespace shallot::render;
using namespace shallot::test;

namespace {

// Per chunk cell, its triangles as (leaf, their three vertices' bytes), sorted: a chunk's
// content, whatever the order of its triangles.
using Content = std::vector<std::pair<uint64_t, std::vector<std::pair<int32_t, std::string>>>>;

Content contentOf(const std::vector<MeshChunk>& chunks) {
    Content out;
    for (const MeshChunk& chunk : chunks) {
        std::vector<std::pair<int32_t, std::string>> triangles;
        const std::vector<Vertex>& v = chunk.geometry->vertices;
        size_t run = 0;
        for (size_t i = 0; i + 2 < v.size(); i += 3) {
            while (run + 1 < chunk.leafRuns.size() && chunk.leafRuns[run + 1].first <= i) ++run;
            const int32_t leaf = chunk.leafRuns.empty() ? -1 : chunk.leafRuns[run].leaf;
            triangles.emplace_back(leaf, std::string(reinterpret_cast<const char*>(&v[i]), 3 * sizeof(Vertex)));
        }
        std::sort(triangles.begin(), triangles.end());
        out.emplace_back(chunk.cell, std::move(triangles));
    }
    return out;
}

// Random brushes in a closed room, the point and a box pose (the tree the 3D view culls
// with; the round pose is drawn over it).
World randomRoom(Rng& rng) {
    World w = randomWorld(rng, 60, 900, 1);
    addClosingWalls(w, 1000);
    return w;
}

} // namespace

class RoundSurfaceChunksTest : public QObject {
    Q_OBJECT
private slots:
    void keptChunksAreTheWholeSurfaceSplitAgain() {
        Rng rng(42);
        World w = randomRoom(rng);
        const Pose cap = Pose::round("cap", PoseShape::capsule(16, 56));
        IncrementalCompiler compiler(true);
        RoundExpandedWorld surface;
        RoundSurfaceChunker chunker;
        std::shared_ptr<const CompileResult> r = compiler.compile(w);
        surface.update(w, cap);
        std::vector<MeshChunk> chunks = chunker.update(surface.pieces(), r->onion, nullptr);
        QVERIFY(contentOf(chunks) == contentOf(splitIntoChunks(roundSurfaceBatch(surface.pieces(), r->onion))));
        size_t corners = 0;
        for (const RoundSurfacePiece& p : surface.pieces()) corners += p ? p->size() : 0;
        QCOMPARE(chunker.lookedUp(), corners);
        int incremental = 0, keptMost = 0;
        for (int edit = 0; edit < 10; ++edit) {
            const size_t i = size_t(rng() % (w.brushes.size() - 6)); // not a wall
            if (edit % 4 == 3) w.brushes.erase(w.brushes.begin() + std::ptrdiff_t(i));
            else if (edit % 4 == 2) w.brushes.insert(w.brushes.begin() + std::ptrdiff_t(i), Brush::box(Vec3(-40, -40, -40), Vec3(40, 40, 40)));
            else w.brushes[i] = translated(w.brushes[i], Vec3(uniform(rng, -40, 40), uniform(rng, -40, 40), uniform(rng, -16, 16)));
            const std::vector<MeshChunk> before = chunks;
            r = compiler.compile(w);
            surface.update(w, cap);
            const std::vector<int32_t>& leafOf = compiler.onionLeafOfPrevious();
            chunks = chunker.update(surface.pieces(), r->onion, r->stats.incremental ? &leafOf : nullptr);
            const std::vector<MeshChunk> whole = splitIntoChunks(roundSurfaceBatch(surface.pieces(), r->onion));
            QVERIFY2(contentOf(chunks) == contentOf(whole), qPrintable(QString("edit %1").arg(edit)));
            if (!r->stats.incremental) continue;
            ++incremental;
            // Kept chunks share the geometry they had.
            size_t shared = 0;
            for (const MeshChunk& c : chunks)
                shared += std::any_of(before.begin(), before.end(), [&](const MeshChunk& b) { return b.geometry == c.geometry; });
            QCOMPARE(shared, chunker.keptChunks());
            keptMost += 2 * chunker.keptChunks() > chunks.size() && 10 * chunker.lookedUp() < corners;
        }
        QVERIFY(incremental >= 8);
        QVERIFY2(keptMost >= incremental - 1, qPrintable(QString("%1 of %2 edits kept most chunks").arg(keptMost).arg(incremental)));
        // The same tree again (another setting drawn): every chunk kept.
        std::vector<int32_t> same(r->onion.leafCount());
        std::iota(same.begin(), same.end(), 0);
        const std::vector<MeshChunk> again = chunker.update(surface.pieces(), r->onion, &same);
        QCOMPARE(chunker.keptChunks(), again.size());
        QCOMPARE(chunker.lookedUp(), size_t(0));
        QVERIFY(contentOf(again) == contentOf(chunks));
    }

    // A plane that misses a piece's box cuts nothing of it: the sections with the boxes are
    // the sections without.
    void sectionsSkipOnlyPiecesThePlaneMisses() {
        Rng rng(7);
        const World w = randomRoom(rng);
        RoundExpandedWorld surface;
        surface.update(w, Pose::round("cap", PoseShape::ellipsoid(16, 28)));
        const std::vector<Aabb> bounds = surface.bounds();
        for (int k = 0; k < 30; ++k) {
            const int axis = k % 3;
            const double at = k % 5 == 0 ? std::round(uniform(rng, -900, 900) / 16) * 16 : uniform(rng, -900, 900);
            MeshBatch all, skipped;
            addRoundSurfaceSection(all, surface.pieces(), axis, at);
            addRoundSurfaceSection(skipped, surface.pieces(), axis, at, &bounds);
            QCOMPARE(skipped.vertices.size(), all.vertices.size());
            QVERIFY(std::memcmp(all.vertices.data(), skipped.vertices.data(), all.vertices.size() * sizeof(Vertex)) == 0);
        }
    }
};

QTEST_GUILESS_MAIN(RoundSurfaceChunksTest)
#include "mesh_round_surface_chunks_test.moc"

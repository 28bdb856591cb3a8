// A round pose's cells drawn again only near an edit (roundCellChunks, from its two-box
// tree's incremental compile and render/overlay_update.h) against the cells of the same
// edited tree drawn whole: after random moves and removals of brushes in a room,
// the same chunks, byte for byte, while most edits draw only a part again.
#include "../core/random_world.h"
#include "edit/brush_operations.h"
#include "services/round_pose_drawing.h"

#include <QtTest>
#include <cstring>

using namespace shallot;
using namespace shallot::test;

namespace {

bool sameChunks(const std::vector<render::MeshChunk>& a, const std::vector<render::MeshChunk>& b, QString& why) {
    if (a.size() != b.size()) return why = QString("%1 chunks against %2").arg(a.size()).arg(b.size()), false;
    for (size_t i = 0; i < a.size(); ++i) {
        const render::MeshBatch &x = *a[i].geometry, &y = *b[i].geometry;
        why = QString("chunk %1: ").arg(i);
        if (a[i].cell != b[i].cell) return why += "other cell", false;
        if (a[i].leafRuns != b[i].leafRuns) return why += "leaf runs", false;
        if (x.vertices.size() != y.vertices.size() ||
            std::memcmp(x.vertices.data(), y.vertices.data(), x.vertices.size() * sizeof(render::Vertex)) != 0)
            return why += "vertices", false;
    }
    return true;
}

} // namespace

class RoundCellChunksTest : public QObject {
    Q_OBJECT
private slots:
    void cellsDrawnNearTheEditAreTheWhole() {
        Rng rng(23);
        World w = randomWorld(rng, 50, 700, 0);
        addClosingWalls(w, 800);
        w.poses.push_back(Pose::round("cap", PoseShape::capsule(16, 56)));
        const int cap = int(w.poses.size()) - 1;
        for (const render::CellFilter filter : {render::CellFilter::All, render::CellFilter::Empty}) {
            render::CellOverlayOptions options;
            options.roundShape = true;
            options.filter = filter;
            RoundPoseMakers kept;
            CompiledWorld compiled;
            compiled.world = w;
            compiled.serial = 1;
            roundCellChunks(*buildRoundPoseCells(compiled, cap, kept, nullptr), options, kept, 4096, 0.5);
            int inPart = 0;
            for (int edit = 0; edit < 8; ++edit) {
                const size_t i = size_t(rng() % (compiled.world.brushes.size() - 6)); // not a wall
                if (edit % 4 == 3) compiled.world.brushes.erase(compiled.world.brushes.begin() + std::ptrdiff_t(i));
                else compiled.world.brushes[i] = translated(compiled.world.brushes[i], Vec3(uniform(rng, -40, 40), uniform(rng, -40, 40), 0));
                ++compiled.serial;
                bool part = false;
                const auto cells = buildRoundPoseCells(compiled, cap, kept, nullptr);
                const std::vector<render::MeshChunk> updated = roundCellChunks(*cells, options, kept, 4096, 0.5, &part);
                inPart += part;
                RoundPoseMakers other; // has drawn nothing: draws the same tree whole
                const std::vector<render::MeshChunk> whole = roundCellChunks(*cells, options, other, 4096, 0.5);
                QString why;
                QVERIFY2(sameChunks(updated, whole, why), qPrintable(QString("edit %1: %2").arg(edit).arg(why)));
                QVERIFY(!whole.empty());
                // The same tree again: the same chunks, shared.
                const std::vector<render::MeshChunk> again = roundCellChunks(*cells, options, kept, 4096, 0.5);
                QCOMPARE(again.size(), updated.size());
                for (size_t k = 0; k < again.size(); ++k) QVERIFY(again[k].geometry == updated[k].geometry);
            }
            QVERIFY2(inPart >= 5, qPrintable(QString("only %1 of 8 edits drawn in part").arg(inPart)));
        }
    }
};

QTEST_MAIN(RoundCellChunksTest)
#include "round_cell_chunks_gui_test.moc"

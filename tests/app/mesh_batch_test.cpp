// The outline coordinates MeshBatch gives polygon vertices (mesh_batch.h): for every fan
// triangle, a coordinate can reach 0 (and so draw an outline in scene.frag) exactly on the
// edges that are edges of the polygon, never on the fan's inner diagonals. And the leaf
// runs of a batch split into chunks, and how two splits differ (mesh_chunks.h); a layer set
// to the drawing it holds keeps its version (render_scene.h).
#include "batch_pieces.h"
#include "mesh_batch.h"
#include "mesh_chunks.h"
#include "render_scene.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <random>

#include <QtTest>
#include <cmath>

using namespace shallot;
using namespace shallot::render;

namespace {

Polygon regularPolygon(int n, bool clockwise) {
    Polygon p;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * M_PI * (clockwise ? -i : i) / n;
        p.vertices.emplace_back(100.0 * std::cos(a), 100.0 * std::sin(a), 8.0);
    }
    return p;
}

Vec3 position(const Vertex& v) { return Vec3(v.position[0], v.position[1], v.position[2]); }

// Index of the polygon vertex at this position.
int cornerOf(const Polygon& p, const Vertex& v) {
    for (size_t i = 0; i < p.vertices.size(); ++i)
        if ((p.vertices[i] - position(v)).norm() < 1e-4) return int(i);
    return -1;
}

} // namespace

class MeshBatchTest : public QObject {
    Q_OBJECT
private slots:
    // A layer remembers its last changes as a chain of versions; a change from an unknown
    // version (a list that is not the layer's) forgets them.
    void layersRememberTheirLastChanges() {
        RenderScene scene;
        auto quad = [](double x) {
            MeshBatch b;
            b.addPolygon(std::vector<Vec3>{Vec3(x, 0, 0), Vec3(x + 10, 0, 0), Vec3(x + 10, 10, 0), Vec3(x, 10, 0)}, Vec3::UnitZ(), Qt::red);
            return b;
        };
        for (int i = 0; i < 12; ++i) scene.set(Layer::Portals, quad(600.0 * i));
        const SceneLayer& layer = scene.layer(Layer::Portals);
        QCOMPARE(layer.recent.size(), kRememberedChanges);
        QCOMPARE(layer.recent.back().to, layer.version);
        for (size_t k = 0; k + 1 < layer.recent.size(); ++k) QCOMPARE(layer.recent[k].to, layer.recent[k + 1].from);
        QCOMPARE(layer.recent.back().boxes.size(), size_t(2)); // the quad gone and the quad come
        const std::vector<MeshChunk> unknown = splitIntoChunks(quad(5.0));
        scene.setChunks(Layer::Portals, std::make_shared<const std::vector<MeshChunk>>(unknown), nullptr, &unknown, {});
        QVERIFY(scene.layer(Layer::Portals).recent.empty());
    }

    // A layer set to the drawing it holds keeps its version (no view uploads it or redraws a
    // picture), empty or not; any other drawing, even a colour away, is a new version.
    void theSameDrawingKeepsItsVersion() {
        RenderScene scene;
        auto quad = [](double x, QColor colour) {
            MeshBatch b;
            b.addPolygon(std::vector<Vec3>{Vec3(x, 0, 0), Vec3(x + 10, 0, 0), Vec3(x + 10, 10, 0), Vec3(x, 10, 0)}, Vec3::UnitZ(), colour);
            b.addPolygon(std::vector<Vec3>{Vec3(x + 900, 0, 0), Vec3(x + 910, 0, 0), Vec3(x + 910, 10, 0)}, Vec3::UnitZ(), colour);
            return b;
        };
        const uint64_t empty = scene.layer(Layer::ProblemPaths).version;
        scene.set(Layer::ProblemPaths, MeshBatch{});
        QCOMPARE(scene.layer(Layer::ProblemPaths).version, empty);
        scene.set(Layer::ProblemPaths, quad(0, Qt::red));
        const uint64_t drawn = scene.layer(Layer::ProblemPaths).version;
        QVERIFY(drawn != empty);
        scene.set(Layer::ProblemPaths, quad(0, Qt::red));
        QCOMPARE(scene.layer(Layer::ProblemPaths).version, drawn);
        scene.set(Layer::ProblemPaths, quad(0, QColor(255, 0, 1)));
        QVERIFY(scene.layer(Layer::ProblemPaths).version != drawn);
        const uint64_t recoloured = scene.layer(Layer::ProblemPaths).version;
        scene.set(Layer::ProblemPaths, quad(1, QColor(255, 0, 1)));
        QVERIFY(scene.layer(Layer::ProblemPaths).version != recoloured);
        scene.set(Layer::ProblemPaths, MeshBatch{});
        QVERIFY(scene.layer(Layer::ProblemPaths).chunkList().empty());
    }

    void outlineCoordinatesMarkExactlyThePolygonEdges() {
        for (int n = 3; n <= 9; ++n) {
            for (bool clockwise : {false, true}) {
                const Polygon polygon = regularPolygon(n, clockwise);
                MeshBatch batch;
                batch.addPolygon(polygon.vertices, Vec3::UnitZ(), QColor(10, 20, 30));
                QCOMPARE(int(batch.vertices.size()), 3 * (n - 2));
                int outlineEdges = 0;
                for (size_t t = 0; t < batch.vertices.size(); t += 3) {
                    const Vertex* tri = &batch.vertices[t];
                    // Counter-clockwise seen from the normal (+z), whatever the input order.
                    const Vec3 area = (position(tri[1]) - position(tri[0])).cross(position(tri[2]) - position(tri[0]));
                    QVERIFY(area.z() > 0.0);
                    for (int j = 0; j < 3; ++j) {
                        const int a = cornerOf(polygon, tri[(j + 1) % 3]), b = cornerOf(polygon, tri[(j + 2) % 3]);
                        QVERIFY(a >= 0 && b >= 0);
                        const bool polygonEdge = (a + 1) % n == b || (b + 1) % n == a;
                        const bool barycentric = tri[j].edge[j] == 255 && tri[(j + 1) % 3].edge[j] == 0 && tri[(j + 2) % 3].edge[j] == 0;
                        const bool heldAtOne = tri[0].edge[j] == 255 && tri[1].edge[j] == 255 && tri[2].edge[j] == 255;
                        QVERIFY2(barycentric != heldAtOne, qPrintable(QString("n %1 triangle %2 coordinate %3").arg(n).arg(t / 3).arg(j)));
                        QVERIFY2(barycentric == polygonEdge, qPrintable(QString("n %1 triangle %2 edge %3-%4").arg(n).arg(t / 3).arg(a).arg(b)));
                        outlineEdges += barycentric;
                    }
                }
                QCOMPARE(outlineEdges, n); // every polygon edge once
            }
        }
    }

    void linesCarryNoOutline() {
        MeshBatch batch;
        batch.addLine(Vec3::Zero(), Vec3::UnitX(), Qt::red);
        for (const Vertex& v : batch.vertices)
            for (int j = 0; j < 3; ++j) QCOMPARE(int(v.edge[j]), 255);
    }

    // Splitting a batch whose polygons belong to leaves keeps every triangle with its leaf,
    // and gives each chunk one run per leaf.
    void chunksKeepEachTriangleWithItsLeaf() {
        std::mt19937 rng(4);
        std::uniform_real_distribution<double> coordinate(-2000, 2000);
        MeshBatch batch;
        std::map<std::vector<float>, int32_t> leafOfTriangle; // first three positions -> leaf
        for (int i = 0; i < 600; ++i) {
            const int32_t leaf = int32_t(rng() % 40) - 1; // -1: no leaf
            batch.setLeaf(leaf);
            const Vec3 c(coordinate(rng), coordinate(rng), coordinate(rng));
            batch.addPolygon(std::vector<Vec3>{c, c + Vec3(10, 0, 0), c + Vec3(10, 10, 0), c + Vec3(0, 10, 0)}, Vec3::UnitZ(), Qt::red);
        }
        auto key = [](const Vertex* t) {
            std::vector<float> k;
            for (int v = 0; v < 3; ++v) k.insert(k.end(), t[v].position, t[v].position + 3);
            return k;
        };
        for (size_t r = 0; r < batch.leafRuns.size(); ++r) {
            const size_t end = r + 1 < batch.leafRuns.size() ? batch.leafRuns[r + 1].first : batch.vertices.size();
            for (size_t t = batch.leafRuns[r].first; t < end; t += 3) leafOfTriangle[key(&batch.vertices[t])] = batch.leafRuns[r].leaf;
        }
        const size_t triangles = batch.vertices.size() / 3;
        QCOMPARE(leafOfTriangle.size(), triangles);
        size_t seen = 0;
        for (const MeshChunk& chunk : splitIntoChunks(batch)) {
            const auto& runs = chunk.leafRuns;
            QVERIFY(chunk.geometry->leafRuns.empty());
            QVERIFY(!runs.empty() && runs.front().first == 0);
            std::set<int32_t> leaves;
            for (size_t r = 0; r < runs.size(); ++r) {
                QVERIFY(leaves.insert(runs[r].leaf).second); // one run per leaf
                const size_t end = r + 1 < runs.size() ? runs[r + 1].first : chunk.geometry->vertices.size();
                QVERIFY(end > runs[r].first && (end - runs[r].first) % 3 == 0);
                for (size_t t = runs[r].first; t < end; t += 3, ++seen)
                    QCOMPARE(leafOfTriangle.at(key(&chunk.geometry->vertices[t])), runs[r].leaf);
            }
        }
        QCOMPARE(seen, triangles);
    }

    // chunkChanges against brute force: random batches, then some polygons moved, recoloured,
    // added or removed and some leaves renumbered. Every chunk of the new split that is
    // byte for byte a chunk of the old one in the same cell is named as kept (with the right
    // runs flag); every other chunk, old or new, has its box among the changed boxes; kept
    // chunks add no box.
    // The pieces of a batch a small box reaches (batch_pieces.h), against brute force: every
    // primitive whose bounds reach the box is drawn, and every vertex drawn belongs to a run
    // of kPrimitivesPerPiece primitives whose bounds reach it; ranges come in order, apart,
    // and never empty.
    void piecesInsideABoxAreThoseThatReachIt() {
        std::mt19937 rng(5);
        std::uniform_real_distribution<double> coordinate(-2000.0, 2000.0), offset(-40.0, 40.0);
        for (Primitive kind : {Primitive::Triangles, Primitive::Lines}) {
            MeshBatch batch;
            batch.primitive = kind;
            for (int i = 0; i < 5000; ++i) {
                const Vec3 at(coordinate(rng), coordinate(rng), coordinate(rng));
                const Vec3 a = at + Vec3(offset(rng), offset(rng), offset(rng)), b = at + Vec3(offset(rng), offset(rng), offset(rng));
                if (kind == Primitive::Lines) batch.addLine(a, b, Qt::blue);
                else batch.addPolygon(std::vector<Vec3>{at, a, b}, (a - at).cross(b - at).normalized(), Qt::blue);
            }
            const BatchPieces pieces(batch);
            const size_t stride = kind == Primitive::Lines ? 2 : 3, perPiece = BatchPieces::kPrimitivesPerPiece * stride;
            QCOMPARE(pieces.size(), (batch.vertices.size() + perPiece - 1) / perPiece);
            for (int trial = 0; trial < 50; ++trial) {
                Aabb box;
                box.add(Vec3(coordinate(rng), coordinate(rng), -2000.0));
                box.add(box.mins + Vec3(400.0, 300.0, 4000.0)); // a 2D view's rectangle, every depth
                auto outside = [&](const Aabb& b) { return (b.maxs.array() < box.mins.array()).any() || (b.mins.array() > box.maxs.array()).any(); };
                auto reaches = [&](size_t first, size_t count) {
                    Aabb bounds;
                    for (size_t v = first; v < first + count; ++v) bounds.add(position(batch.vertices[v]));
                    return !outside(bounds);
                };
                const VertexRanges ranges = pieces.inside(outside);
                std::vector<bool> drawn(batch.vertices.size(), false);
                for (size_t r = 0; r < ranges.firsts.size(); ++r) {
                    QVERIFY(ranges.counts[r] > 0);
                    if (r > 0) QVERIFY(ranges.firsts[r] > ranges.firsts[r - 1] + ranges.counts[r - 1]);
                    for (int v = ranges.firsts[r]; v < ranges.firsts[r] + ranges.counts[r]; ++v) drawn[size_t(v)] = true;
                }
                size_t expected = 0;
                for (size_t first = 0; first < batch.vertices.size(); first += perPiece) {
                    const size_t count = std::min(perPiece, batch.vertices.size() - first);
                    const bool reached = reaches(first, count);
                    expected += reached ? count : 0;
                    for (size_t p = first; p < first + count; p += stride)
                        if (reaches(p, stride)) QVERIFY2(drawn[p], "a primitive reaching the box left out");
                    QCOMPARE(bool(drawn[first]), reached);
                }
                QCOMPARE(size_t(std::count(drawn.begin(), drawn.end(), true)), expected);
            }
        }
    }

    void chunkChangesMatchBruteForce() {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> coordinate(-3000, 3000);
        for (int round = 0; round < 20; ++round) {
            struct Quad {
                Vec3 corner;
                int32_t leaf;
                QColor colour;
            };
            std::vector<Quad> quads;
            for (int i = 0; i < 300; ++i)
                quads.push_back({Vec3(coordinate(rng), coordinate(rng), coordinate(rng)), int32_t(rng() % 50), Qt::red});
            auto build = [](const std::vector<Quad>& qs) {
                MeshBatch batch;
                for (const Quad& q : qs) {
                    batch.setLeaf(q.leaf);
                    const Vec3 c = q.corner;
                    batch.addPolygon(std::vector<Vec3>{c, c + Vec3(10, 0, 0), c + Vec3(10, 10, 0), c + Vec3(0, 10, 0)}, Vec3::UnitZ(), q.colour);
                }
                return splitIntoChunks(std::move(batch));
            };
            const std::vector<MeshChunk> before = build(quads);
            for (int e = 0; e < 1 + round % 5; ++e) {
                Quad& q = quads[rng() % quads.size()];
                switch (rng() % 4) {
                case 0: q.corner += Vec3(3, 0, 0); break;
                case 1: q.colour = Qt::green; break;
                case 2: quads.push_back({Vec3(coordinate(rng), coordinate(rng), coordinate(rng)), 7, Qt::blue}); break;
                case 3: q = quads.back(), quads.pop_back(); break;
                }
            }
            if (round % 3 == 0)
                for (Quad& q : quads) q.leaf += q.leaf > 25 ? 1 : 0; // leaves renumbered past an edit
            const std::vector<MeshChunk> after = build(quads);
            const ChunkChanges changes = chunkChanges(before, after);
            QCOMPARE(changes.keptFrom.size(), after.size());
            auto sameBytes = [](const MeshChunk& a, const MeshChunk& b) {
                const std::vector<Vertex> &x = a.geometry->vertices, &y = b.geometry->vertices;
                return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Vertex)) == 0;
            };
            auto listed = [&](const Aabb& box) {
                return std::any_of(changes.boxes.begin(), changes.boxes.end(),
                                   [&](const Aabb& b) { return b.mins == box.mins && b.maxs == box.maxs; });
            };
            std::vector<bool> beforeKept(before.size(), false);
            for (size_t j = 0; j < after.size(); ++j) {
                int32_t match = -1;
                for (size_t i = 0; i < before.size(); ++i)
                    if (before[i].cell == after[j].cell && sameBytes(before[i], after[j])) match = int32_t(i);
                QCOMPARE(changes.keptFrom[j], match);
                if (match < 0) {
                    QVERIFY(listed(after[j].bounds));
                    continue;
                }
                beforeKept[size_t(match)] = true;
                QCOMPARE(bool(changes.sameRuns[j]), before[size_t(match)].leafRuns == after[j].leafRuns);
            }
            size_t changedChunks = 0;
            for (size_t i = 0; i < before.size(); ++i)
                if (!beforeKept[i]) {
                    QVERIFY(listed(before[i].bounds));
                    ++changedChunks;
                }
            for (int32_t k : changes.keptFrom) changedChunks += k < 0;
            QCOMPARE(changes.boxes.size(), changedChunks);
            // Told which cells may differ (those of the changed chunks), it says the same
            // without comparing the others.
            std::vector<uint64_t> differing;
            for (size_t j = 0; j < after.size(); ++j)
                if (changes.keptFrom[j] < 0) differing.push_back(after[j].cell);
            for (size_t i = 0; i < before.size(); ++i)
                if (!beforeKept[i]) differing.push_back(before[i].cell);
            std::sort(differing.begin(), differing.end());
            const ChunkChanges told = chunkChanges(before, after, &differing);
            QCOMPARE(told.keptFrom, changes.keptFrom);
            QCOMPARE(told.sameRuns, changes.sameRuns);
            QCOMPARE(told.boxes.size(), changes.boxes.size());
        }
    }
};

QTEST_APPLESS_MAIN(MeshBatchTest)
#include "mesh_batch_test.moc"

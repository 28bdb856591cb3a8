// batchForAxisView (axis_view_batch.h) against a direct reading of its rules on random
// batches full of repeats: lines kept in order, each dropped one a point or covered by a
// later identical one; triangles dropped exactly when edge-on; blended batches untouched.
#include "axis_view_batch.h"

#include <QtTest>
#include <cstring>
#include <random>

using namespace shallot;
using namespace shallot::render;

namespace {

Vertex vertexAt(const Vec3& p, const QColor& c) {
    Vertex v{};
    for (int i = 0; i < 3; ++i) v.position[i] = float(p[i]);
    v.colour[0] = uint8_t(c.red());
    v.colour[1] = uint8_t(c.green());
    v.colour[2] = uint8_t(c.blue());
    v.colour[3] = 255;
    return v;
}

// Coordinates on a coarse grid, so that random lines repeat and project onto each other.
Vec3 gridPoint(std::mt19937& rng) {
    std::uniform_int_distribution<int> d(0, 3);
    return Vec3(16 * d(rng), 16 * d(rng), 16 * d(rng));
}

bool sameSeen(const Vertex* a, const Vertex* b, int axis) {
    for (int k = 0; k < 2; ++k)
        for (int c = 0; c < 3; ++c)
            if (c != axis && a[k].position[c] != b[k].position[c]) return false;
    return std::memcmp(a[0].colour, b[0].colour, 4) == 0 && std::memcmp(a[1].colour, b[1].colour, 4) == 0;
}

bool isPoint(const Vertex* l, int axis) {
    for (int c = 0; c < 3; ++c)
        if (c != axis && l[0].position[c] != l[1].position[c]) return false;
    return true;
}

bool sameVertex(const Vertex& a, const Vertex& b) { return std::memcmp(&a, &b, sizeof(Vertex)) == 0; }

} // namespace

class AxisViewBatchTest : public QObject {
    Q_OBJECT
private slots:
    void linesKeptAreTheLastOfEachSeenSegment() {
        std::mt19937 rng(7);
        const QColor colours[] = {QColor(90, 170, 255), QColor(255, 200, 60)};
        for (int round = 0; round < 50; ++round) {
            MeshBatch batch;
            batch.primitive = Primitive::Lines;
            for (int i = 0; i < 200; ++i) {
                const QColor& c = colours[rng() % 2];
                batch.vertices.push_back(vertexAt(gridPoint(rng), c));
                batch.vertices.push_back(vertexAt(gridPoint(rng), c));
            }
            for (int axis = 0; axis < 3; ++axis) {
                const MeshBatch out = batchForAxisView(batch, axis, true);
                QCOMPARE(out.primitive, Primitive::Lines);
                // Kept lines in order: walk the input, matching the output as a subsequence.
                size_t next = 0;
                const size_t lines = batch.vertices.size() / 2;
                for (size_t k = 0; k < lines; ++k) {
                    const Vertex* line = &batch.vertices[2 * k];
                    bool coveredLater = false;
                    for (size_t j = k + 1; j < lines && !coveredLater; ++j) coveredLater = sameSeen(line, &batch.vertices[2 * j], axis);
                    const bool dropped = isPoint(line, axis) || coveredLater;
                    if (dropped) continue;
                    QVERIFY(next + 2 <= out.vertices.size());
                    QVERIFY(sameVertex(out.vertices[next], line[0]) && sameVertex(out.vertices[next + 1], line[1]));
                    next += 2;
                }
                QCOMPARE(next, out.vertices.size());
            }
            // Blended lines add up where they repeat: left as they are.
            const MeshBatch blended = batchForAxisView(batch, 2, false);
            QCOMPARE(blended.vertices.size(), batch.vertices.size());
        }
    }

    void trianglesSeenEdgeOnAreLeftOut() {
        std::mt19937 rng(11);
        MeshBatch batch;
        batch.leafRuns.push_back({3, 0});
        int edgeOnAlongZ = 0;
        for (int i = 0; i < 300; ++i) {
            Vec3 a = gridPoint(rng), b = gridPoint(rng), c = gridPoint(rng);
            if (i % 3 == 0) b.z() = c.z() = a.z() + 16; // some faces flat, some vertical below
            const Vec3 n = (b - a).cross(c - a);
            if (n.squaredNorm() == 0.0) continue;
            edgeOnAlongZ += n.z() == 0.0;
            for (const Vec3& p : {a, b, c}) batch.vertices.push_back(vertexAt(p, QColor(10, 200, 10)));
        }
        QVERIFY(edgeOnAlongZ > 0);
        for (int axis = 0; axis < 3; ++axis) {
            const MeshBatch out = batchForAxisView(batch, axis, true);
            QVERIFY(out.leafRuns.empty()); // 2D views draw every leaf
            size_t next = 0;
            for (size_t t = 0; t < batch.vertices.size(); t += 3) {
                const Vertex* tri = &batch.vertices[t];
                auto at = [&](int k) { return Vec3(tri[k].position[0], tri[k].position[1], tri[k].position[2]); };
                // Grid coordinates make the normal exact: edge-on means a zero component.
                if ((at(1) - at(0)).cross(at(2) - at(0))[axis] == 0.0) continue;
                QVERIFY(next + 3 <= out.vertices.size());
                for (int k = 0; k < 3; ++k) QVERIFY(sameVertex(out.vertices[next + size_t(k)], tri[k]));
                next += 3;
            }
            QCOMPARE(next, out.vertices.size());
        }
    }
};

QTEST_GUILESS_MAIN(AxisViewBatchTest)
#include "mesh_axis_view_test.moc"

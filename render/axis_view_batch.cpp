#include "axis_view_batch.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace shallot::render {

namespace {

// A triangle counts as edge-on when the component along the view axis of its unit normal
// is below this. Exactly 0 would keep the faces of vertical walls whose float vertices are
// off their plane by a rounding; at 1e-6 the most a left-out triangle spans across the view
// is a millionth of its size (0.004 units for a 4096-unit face), far below a pixel at any
// zoom that shows the face.
constexpr float kEdgeOnNormalComponent = 1e-6f;

Eigen::Vector3f position(const Vertex& v) { return {v.position[0], v.position[1], v.position[2]}; }

bool edgeOn(const Vertex* t, int axis) {
    const Eigen::Vector3f n = (position(t[1]) - position(t[0])).cross(position(t[2]) - position(t[0]));
    return std::abs(n[axis]) <= kEdgeOnNormalComponent * n.norm();
}

// A line as the view sees it: its endpoints across the axis, in order, and their colours.
struct ProjectedLine {
    float u0, v0, u1, v1;
    uint8_t colour0[4], colour1[4];
    bool operator==(const ProjectedLine& o) const { return std::memcmp(this, &o, sizeof(*this)) == 0; }
};
static_assert(sizeof(ProjectedLine) == 24, "compared and hashed as bytes");

uint64_t hashOf(const ProjectedLine& l) {
    uint32_t words[6];
    std::memcpy(words, &l, sizeof(words));
    uint64_t h = 1469598103934665603ull; // FNV-1a over 32-bit words
    for (uint32_t w : words) h = (h ^ w) * 1099511628211ull;
    return h ^ (h >> 29);
}

void addTriangles(const MeshBatch& batch, int axis, MeshBatch& out) {
    out.vertices.reserve(batch.vertices.size());
    for (size_t i = 0; i + 2 < batch.vertices.size(); i += 3)
        if (!edgeOn(&batch.vertices[i], axis))
            out.vertices.insert(out.vertices.end(), batch.vertices.begin() + long(i), batch.vertices.begin() + long(i + 3));
}

void addLines(const MeshBatch& batch, int axis, bool opaque, MeshBatch& out) {
    if (!opaque) {
        out.vertices = batch.vertices;
        return;
    }
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const size_t lineCount = batch.vertices.size() / 2;
    std::vector<ProjectedLine> lines(lineCount);
    for (size_t k = 0; k < lineCount; ++k) {
        const Vertex& a = batch.vertices[2 * k];
        const Vertex& b = batch.vertices[2 * k + 1];
        lines[k] = {a.position[u], a.position[v], b.position[u], b.position[v], {}, {}};
        std::memcpy(lines[k].colour0, a.colour, 4);
        std::memcpy(lines[k].colour1, b.colour, 4);
    }
    // Lines seen so far, last first, in an open-addressing table of line numbers. This runs
    // on the UI thread as the views upload: with std::unordered_set (a node per entry) the
    // 2D views' uploads of librequake_e3m4 took 30% longer.
    size_t capacity = 16;
    while (capacity < 2 * lineCount) capacity *= 2;
    constexpr uint32_t kEmpty = ~uint32_t(0);
    std::vector<uint32_t> table(capacity, kEmpty);
    std::vector<size_t> kept; // lines kept, last first
    for (size_t k = lineCount; k-- > 0;) {
        const ProjectedLine& l = lines[k];
        if (l.u0 == l.u1 && l.v0 == l.v1) continue; // a point: no pixel
        size_t slot = size_t(hashOf(l)) & (capacity - 1);
        while (table[slot] != kEmpty && !(lines[table[slot]] == l)) slot = (slot + 1) & (capacity - 1);
        if (table[slot] != kEmpty) continue; // a later line draws the same pixels over it
        table[slot] = uint32_t(k);
        kept.push_back(2 * k);
    }
    out.vertices.reserve(2 * kept.size());
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
        out.vertices.push_back(batch.vertices[*it]);
        out.vertices.push_back(batch.vertices[*it + 1]);
    }
}

} // namespace

MeshBatch batchForAxisView(const MeshBatch& batch, int axis, bool opaque) {
    MeshBatch out;
    out.primitive = batch.primitive;
    out.lit = batch.lit;
    out.outline = batch.outline;
    if (batch.primitive == Primitive::Triangles) addTriangles(batch, axis, out);
    else addLines(batch, axis, opaque, out);
    return out;
}

} // namespace shallot::render

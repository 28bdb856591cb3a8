#include "mesh_batch.h"

namespace shallot::render {

namespace {

using Rgba = VertexColour;

// Once per polygon or line, not per vertex: QColor's channel getters convert from the
// colour's own spec (HSV for brush colours) on every call.
Rgba rgba(const QColor& colour) {
    const QColor c = colour.toRgb();
    return {uint8_t(c.red()), uint8_t(c.green()), uint8_t(c.blue()), uint8_t(c.alpha())};
}

// Lines and other vertices that no outline is drawn from.
constexpr std::array<uint8_t, 4> kNoEdge{255, 255, 255, 255};

Vertex vertex(const Vec3& p, const Vec3& n, const Rgba& c, const std::array<uint8_t, 4>& edge = kNoEdge) {
    return {{float(p.x()), float(p.y()), float(p.z())}, {float(n.x()), float(n.y()), float(n.z())}, {c[0], c[1], c[2], c[3]},
            {edge[0], edge[1], edge[2], edge[3]}};
}

// Corner k of a triangle whose edge opposite corner j is on the polygon's outline when
// outline[j]: coordinate j is the barycentric one (255 at corner j, 0 at the others) for
// outline edges and 255 everywhere for inner ones.
std::array<uint8_t, 4> edgeCoordinates(int k, const std::array<bool, 3>& outline) {
    std::array<uint8_t, 4> e{0, 0, 0, 255};
    for (int j = 0; j < 3; ++j) e[size_t(j)] = (j == k || !outline[size_t(j)]) ? 255 : 0;
    return e;
}

} // namespace

namespace {

// A convex polygon as a triangle fan facing `normal`, vertex k coloured colourOf(k).
template <class ColourOf>
void addFan(std::vector<Vertex>& out, std::span<const Vec3> v, const Vec3& normal, const ColourOf& colourOf) {
    if (v.size() < 3) return;
    // Wound counter-clockwise seen from the normal's side (OpenGL's front face), whatever
    // the polygon's own order: the 3D view culls brush faces seen from behind.
    Vec3 area = Vec3::Zero();
    for (size_t i = 1; i + 1 < v.size(); ++i) area += (v[i] - v[0]).cross(v[i + 1] - v[0]);
    const bool reversed = area.dot(normal) < 0.0;
    const size_t last = v.size() - 1;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
        // Fan triangle (v0, va, vb): (va, vb) is on the outline; (v0, vk) only for the
        // polygon's first and last vertex.
        const size_t a = reversed ? i + 1 : i, b = reversed ? i : i + 1;
        const std::array<bool, 3> onOutline{true, b == 1 || b == last, a == 1 || a == last};
        out.push_back(vertex(v[0], normal, colourOf(0), edgeCoordinates(0, onOutline)));
        out.push_back(vertex(v[a], normal, colourOf(a), edgeCoordinates(1, onOutline)));
        out.push_back(vertex(v[b], normal, colourOf(b), edgeCoordinates(2, onOutline)));
    }
}

} // namespace

void MeshBatch::addPolygon(std::span<const Vec3> v, const Vec3& normal, const QColor& colour) {
    const Rgba c = rgba(colour);
    addFan(vertices, v, normal, [&c](size_t) { return c; });
}

void MeshBatch::addShadedPolygon(std::span<const Vec3> v, const Vec3& normal, std::span<const VertexColour> colours) {
    if (colours.size() != v.size()) return;
    addFan(vertices, v, normal, [&colours](size_t k) { return colours[k]; });
}

void MeshBatch::addSmoothTriangle(const std::array<Vec3, 3>& corners, const std::array<Vec3, 3>& normals,
                                  const QColor& colour) {
    const Rgba c = rgba(colour);
    for (size_t k = 0; k < 3; ++k) vertices.push_back(vertex(corners[k], normals[k], c));
}

void MeshBatch::addOutline(std::span<const Vec3> v, const QColor& colour) {
    const Rgba c = rgba(colour);
    for (size_t i = 0; i < v.size(); ++i) {
        vertices.push_back(vertex(v[i], Vec3::UnitZ(), c));
        vertices.push_back(vertex(v[(i + 1) % v.size()], Vec3::UnitZ(), c));
    }
}

void MeshBatch::addLine(const Vec3& a, const Vec3& b, const QColor& colour) {
    const Rgba c = rgba(colour);
    vertices.push_back(vertex(a, Vec3::UnitZ(), c));
    vertices.push_back(vertex(b, Vec3::UnitZ(), c));
}

void MeshBatch::addBoxEdges(const Vec3& mins, const Vec3& maxs, const QColor& colour) {
    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3, w = (axis + 2) % 3;
        for (int corner = 0; corner < 4; ++corner) {
            Vec3 a = mins, b;
            a[u] = (corner & 1) ? maxs[u] : mins[u];
            a[w] = (corner & 2) ? maxs[w] : mins[w];
            b = a;
            b[axis] = maxs[axis];
            addLine(a, b, colour);
        }
    }
}

void MeshBatch::addBoxFaces(const Aabb& box, const QColor& colour) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            std::array<Vec3, 4> quad;
            for (int k = 0; k < 4; ++k) {
                Vec3 p;
                p[axis] = side ? box.maxs[axis] : box.mins[axis];
                p[u] = (k == 1 || k == 2) ? box.maxs[u] : box.mins[u];
                p[v] = (k >= 2) ? box.maxs[v] : box.mins[v];
                quad[size_t(k)] = p;
            }
            addPolygon(quad, (side ? 1.0 : -1.0) * Vec3::Unit(axis), colour);
        }
}

} // namespace shallot::render

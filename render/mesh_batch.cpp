#include "mesh_batch.h"

namespace shallot::render {

namespace {

Vertex vertex(const Vec3& p, const Vec3& n, const QColor& c) {
    return {{float(p.x()), float(p.y()), float(p.z())},
            {float(n.x()), float(n.y()), float(n.z())},
            {uint8_t(c.red()), uint8_t(c.green()), uint8_t(c.blue()), uint8_t(c.alpha())}};
}

} // namespace

void MeshBatch::addPolygon(const Polygon& polygon, const Vec3& normal, const QColor& colour) {
    const auto& v = polygon.vertices;
    if (v.size() < 3) return;
    // Wound counter-clockwise seen from the normal's side (OpenGL's front face), whatever
    // the polygon's own order: the 3D view culls brush faces seen from behind.
    Vec3 area = Vec3::Zero();
    for (size_t i = 1; i + 1 < v.size(); ++i) area += (v[i] - v[0]).cross(v[i + 1] - v[0]);
    const bool reversed = area.dot(normal) < 0.0;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
        vertices.push_back(vertex(v[0], normal, colour));
        vertices.push_back(vertex(v[reversed ? i + 1 : i], normal, colour));
        vertices.push_back(vertex(v[reversed ? i : i + 1], normal, colour));
    }
}

void MeshBatch::addOutline(const Polygon& polygon, const QColor& colour) {
    const auto& v = polygon.vertices;
    for (size_t i = 0; i < v.size(); ++i) addLine(v[i], v[(i + 1) % v.size()], colour);
}

void MeshBatch::addLine(const Vec3& a, const Vec3& b, const QColor& colour) {
    vertices.push_back(vertex(a, Vec3::UnitZ(), colour));
    vertices.push_back(vertex(b, Vec3::UnitZ(), colour));
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

} // namespace shallot::render

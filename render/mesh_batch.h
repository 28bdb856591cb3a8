#pragma once
// CPU-side geometry for one draw call: coloured triangles or lines. Built by the scene
// builders from core data, uploaded by GpuBatch.
#include "geometry/aabb.h"
#include "geometry/polygon.h"

#include <QColor>
#include <array>
#include <cstdint>
#include <vector>

namespace shallot::render {

using VertexColour = std::array<uint8_t, 4>; // RGBA

struct Vertex {
    float position[3];
    float normal[3];
    uint8_t colour[4];
    // For polygons: the vertex's barycentric coordinates in its triangle (255 = 1), with the
    // coordinate that measures the distance to an inner edge of the triangle fan held at 1
    // on all three corners. Its minimum over the triangle is 0 exactly on the polygon's
    // outline, which an outlined batch draws from it (scene.frag) instead of with lines.
    uint8_t edge[4];
};

enum class Primitive { Triangles, Lines };

// The vertices from `first` up to the next run's first belong to `leaf` of the compiled
// tree (-1: to none, always drawn). Tree overlays tag their primitives so, so the 3D view
// can leave out those of leaves it cannot see (portal/leaf_visibility.h). Brush faces tag
// theirs with the brush number instead (render_scene.h: brush sight).
struct LeafRun {
    int32_t leaf;
    uint32_t first;
    bool operator==(const LeafRun&) const = default;
};

struct MeshBatch {
    Primitive primitive = Primitive::Triangles;
    bool lit = true;
    // Triangles draw their polygon's outline in this colour (invalid: no outline).
    QColor outline;
    std::vector<Vertex> vertices;
    std::vector<LeafRun> leafRuns; // empty: the batch belongs to no leaf

    void clear() {
        vertices.clear();
        leafRuns.clear();
    }
    // What is added from now on belongs to `leaf` (-1: to none).
    void setLeaf(int32_t leaf) {
        if (leafRuns.empty() || leafRuns.back().leaf != leaf) leafRuns.push_back({leaf, uint32_t(vertices.size())});
    }
    bool empty() const { return vertices.empty(); }
    // A convex polygon as a triangle fan, facing `normal` (counter-clockwise seen from it).
    void addPolygon(std::span<const Vec3> polygon, const Vec3& normal, const QColor& colour);
    // The same with an RGBA colour per vertex (`colours` as many as `polygon`), blended across.
    void addShadedPolygon(std::span<const Vec3> polygon, const Vec3& normal, std::span<const VertexColour> colours);
    // One triangle with a normal per corner (a curved surface shaded smoothly), no outline.
    void addSmoothTriangle(const std::array<Vec3, 3>& corners, const std::array<Vec3, 3>& normals, const QColor& colour);
    // The polygon's outline as line segments.
    void addOutline(std::span<const Vec3> polygon, const QColor& colour);
    void addLine(const Vec3& a, const Vec3& b, const QColor& colour);
    // The 12 edges of an axis-aligned box.
    void addBoxEdges(const Vec3& mins, const Vec3& maxs, const QColor& colour);
    // The six faces of an axis-aligned box, facing out.
    void addBoxFaces(const Aabb& box, const QColor& colour);
};

} // namespace shallot::render

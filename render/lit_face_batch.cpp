#include "lit_face_batch.h"

#include "brush_scene_builder.h"
#include "light/light_lookup.h"

#include <algorithm>
#include <cmath>

namespace shallot::render {

namespace {

// Clipping a face at its luxel lines counts a vertex this close (world units) to a line as
// on it: the cells share their edges, none is lost between two.
constexpr double kCellClipEpsilon = 1e-6;

// The part of `polygon` where texture coordinate `axis` lies in [low, high].
Polygon between(const Polygon& polygon, const TextureProjection& projection, int axis, double low, double high) {
    const Vec3& a = projection.axis[size_t(axis)];
    const double length = a.norm();
    if (length <= 0.0) return {};
    const Vec3 unit = a / length;
    // coordinate(p) = a.p + offset, so coordinate >= low is -unit.p <= (offset - low) / length.
    const double offset = projection.offset[size_t(axis)];
    Polygon out = clip(polygon, Plane{-unit, (offset - low) / length}, kCellClipEpsilon);
    return clip(out, Plane{unit, (high - offset) / length}, kCellClipEpsilon);
}

uint8_t channel(double value) { return uint8_t(std::clamp(std::lround(value), 0L, 255L)); }

VertexColour shade(const LightReading& reading, const QColor& tint, LightShading shading) {
    if (shading == LightShading::LightmapOnly)
        return {channel(reading.color.x()), channel(reading.color.y()), channel(reading.color.z()), 255};
    return {channel(tint.redF() * reading.color.x()), channel(tint.greenF() * reading.color.y()),
            channel(tint.blueF() * reading.color.z()), 255};
}

void addUnlitFace(MeshBatch& out, const LitFace& face, const QColor& tint, LightShading shading) {
    const QColor colour = shading == LightShading::LightmapOnly ? QColor(255, 255, 255) : tint;
    out.addPolygon(face.polygon.vertices, face.plane.normal, colour);
}

} // namespace

void forEachLuxelCell(const LitFace& face, const LuxelGrid& grid, const std::function<void(const Polygon&)>& visit) {
    if (grid.width() < 2 || grid.height() < 2) {
        visit(face.polygon);
        return;
    }
    for (int i = 0; i + 1 < grid.width(); ++i) {
        const Polygon column = between(face.polygon, face.projection, 0, grid.luxelS(i), grid.luxelS(i + 1));
        if (column.empty()) continue;
        for (int j = 0; j + 1 < grid.height(); ++j) {
            const Polygon cell = between(column, face.projection, 1, grid.luxelT(j), grid.luxelT(j + 1));
            if (!cell.empty()) visit(cell);
        }
    }
}

MeshBatch buildLitFaceBatch(const LevelLighting& lighting, LightShading shading) {
    MeshBatch out;
    out.lit = false;
    std::vector<VertexColour> colours;
    for (size_t f = 0; f < lighting.faces.size(); ++f) {
        const LitFace& face = lighting.faces[f];
        const QColor tint = textureTint(face.texture).toRgb();
        const FaceLightmap* map = f < lighting.lightmaps.size() ? &lighting.lightmaps[f] : nullptr;
        if (!face.lightmapped || !map || map->styles.empty()) {
            addUnlitFace(out, face, tint, shading);
            continue;
        }
        forEachLuxelCell(face, map->grid, [&](const Polygon& cell) {
            colours.clear();
            for (const Vec3& v : cell.vertices)
                colours.push_back(shade(bilinearLight(*map, face.projection.coordinate(0, v), face.projection.coordinate(1, v)),
                                        tint, shading));
            out.addShadedPolygon(cell.vertices, face.plane.normal, colours);
        });
    }
    return out;
}

} // namespace shallot::render

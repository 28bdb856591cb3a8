#include "movers/brush_bounds.h"

#include "io/game_contents.h"
#include "world/brush_geometry.h"
#include "world/map_points.h"
#include "world/world.h"

namespace shallot {

namespace {

// Quake 2's CONTENTS_ORIGIN (qfiles.h).
constexpr uint32_t kQuake2Origin = 0x1000000;

bool isOriginTexture(const std::string& texture) {
    const size_t slash = texture.find_last_of('/');
    std::string name = texture.substr(slash == std::string::npos ? 0 : slash + 1);
    for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return name == "origin";
}

Aabb boxOf(const Brush& brush) {
    const BrushGeometryResult built = buildBrushGeometry(brush, defaultWorldBounds());
    return built.geometry ? built.geometry->bounds : Aabb{};
}

} // namespace

bool isOriginBrush(const Brush& brush) {
    if (brush.sides.empty()) return false;
    if (brush.sides.front().surface && (brush.sides.front().surface->contents & kQuake2Origin) != 0) return true;
    for (const BrushSide& side : brush.sides)
        if (!isOriginTexture(side.texture)) return false;
    return true;
}

std::optional<Vec3> originBrushCentre(const std::vector<Brush>& brushes) {
    for (const Brush& brush : brushes)
        if (isOriginBrush(brush))
            if (const Aabb box = boxOf(brush); !box.empty()) return Vec3((box.mins + box.maxs) * 0.5);
    return std::nullopt;
}

Aabb brushesBounds(const std::vector<Brush>& brushes) {
    Aabb bounds;
    for (const Brush& brush : brushes)
        if (!isOriginBrush(brush)) bounds.add(boxOf(brush));
    if (!bounds.empty()) bounds = {withoutIntegerNoise(bounds.mins), withoutIntegerNoise(bounds.maxs)};
    return bounds;
}

} // namespace shallot

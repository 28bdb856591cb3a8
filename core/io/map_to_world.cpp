#include "io/map_to_world.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace shallot {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return s;
}

// "x y z" with finite numbers and nothing else.
std::optional<Vec3> parseVec3(std::string_view text) {
    Vec3 v;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 3; ++i) {
        while (p < end && (*p == ' ' || *p == '\t')) ++p;
        if (p + 1 < end && *p == '+' && p[1] != '-') ++p; // from_chars does not take '+'
        const auto [next, ec] = std::from_chars(p, end, v[i]);
        if (ec != std::errc() || !std::isfinite(v[i])) return std::nullopt;
        p = next;
    }
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p != end) return std::nullopt;
    return v;
}

} // namespace

World worldFromMap(const MapFile& map, const MapWorldOptions& options) {
    World world;
    world.poses = quakePoses();
    for (const MapEntity& entity : map.entities) {
        if (entity.brushes.empty()) continue;
        const std::string cls = lower(entity.classname());
        const bool detail = cls.starts_with("func_detail");
        const bool structural = cls == "worldspawn" || cls == "func_group";
        if (detail ? !options.includeDetail : !structural && !options.includeOtherEntities) continue;
        // Illusionary detail is drawn but never collides, whatever its textures say.
        const bool illusionary = cls == "func_detail_illusionary";
        for (const Brush& brush : entity.brushes) {
            world.brushes.push_back(brush);
            if (illusionary) world.brushes.back().contents = BrushContents::NonSolid;
        }
    }
    return world;
}

std::vector<PointEntity> pointEntities(const MapFile& map) {
    std::vector<PointEntity> points;
    for (const MapEntity& entity : map.entities) {
        if (!entity.brushes.empty()) continue;
        const std::string* origin = entity.value("origin");
        if (!origin) continue;
        if (const auto v = parseVec3(*origin)) points.push_back({entity.classname(), *v, entity.line});
    }
    return points;
}

} // namespace shallot

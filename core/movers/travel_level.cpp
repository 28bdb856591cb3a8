#include "movers/brush_bounds.h"
#include "movers/build_movers.h"
#include "movers/travel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace shallot {

namespace {

bool isClass(const std::string& classname, const std::string& lowerName) {
    return std::equal(classname.begin(), classname.end(), lowerName.begin(), lowerName.end(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

// Grown past a brush's own box, so that the shape of a brush lying on it is kept.
constexpr double kLadderBoundsMargin = 1.0;

void addShapes(std::vector<BrushGeometry>& out, const std::vector<Brush>& brushes, const Aabb& bounds) {
    for (const Brush& b : brushes)
        if (BrushGeometryResult g = buildBrushGeometry(b, bounds); g.geometry) out.push_back(std::move(*g.geometry));
}

} // namespace

TravelLevel travelLevelOf(const MapFile& map) {
    TravelLevel level{buildMovers(map), buildEntityGraph(map), {}, std::vector<char>(map.entities.size(), 0), {}, {}};
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& e = map.entities[i];
        if (const std::string* health = e.value("health")) {
            const double h = std::strtod(health->c_str(), nullptr);
            level.shootable[i] = std::isfinite(h) && h > 0.0;
        }
        if (isClass(e.classname(), "func_ladder") && !e.brushes.empty()) { // Half-Life
            const Aabb box = brushesBounds(e.brushes);
            if (!box.empty()) addShapes(level.ladders, e.brushes, {box.mins - Vec3::Constant(kLadderBoundsMargin), box.maxs + Vec3::Constant(kLadderBoundsMargin)});
        }
        if (!isClass(e.classname(), "trigger_push") || e.brushes.empty()) continue;
        const Vec3 velocity = quakePushVelocity(e.value("angle"), e.value("angles"), e.value("speed"));
        const Aabb bounds = brushesBounds(e.brushes);
        if (!bounds.empty() && velocity.allFinite() && velocity != Vec3::Zero()) level.pushes.push_back({bounds, velocity});
    }
    return level;
}

namespace {

// The water, slime and ladder brushes of `brushes` (inside `bounds`).
void addTravelledBrushes(TravelLevel& level, const std::vector<Brush>& brushes, const Aabb& bounds) {
    for (BrushGeometry& g : brushShapes(brushes, kSwumContents, bounds)) level.water.push_back(std::move(g));
    for (BrushGeometry& g : brushShapes(brushes, BrushContents::Ladder, bounds)) level.ladders.push_back(std::move(g));
}

} // namespace

std::vector<BrushGeometry> brushShapes(const std::vector<Brush>& brushes, BrushContents contents, const Aabb& bounds) {
    std::vector<BrushGeometry> out;
    for (const Brush& b : brushes)
        if (intersects(b.contents, contents))
            if (BrushGeometryResult g = buildBrushGeometry(b, bounds); g.geometry) out.push_back(std::move(*g.geometry));
    return out;
}

void addLiquidsAndLadders(TravelLevel& level, const World& world) { addTravelledBrushes(level, world.brushes, world.bounds); }

TravelLevel storedTravelLevel(const MapFile& stored) {
    TravelLevel level = travelLevelOf(stored);
    if (stored.entities.empty() || !isClass(stored.entities[0].classname(), "worldspawn")) return level;
    const std::vector<Brush>& brushes = stored.entities[0].brushes;
    const Aabb box = brushesBounds(brushes);
    if (box.empty()) return level;
    const Vec3 margin = Vec3::Constant(kLadderBoundsMargin);
    addTravelledBrushes(level, brushes, {box.mins - margin, box.maxs + margin});
    return level;
}

} // namespace shallot

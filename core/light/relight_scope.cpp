#include "light/relight_scope.h"

#include "world/brush_geometry.h"

#include <algorithm>

namespace shallot {

namespace {

bool sameBrush(const Brush& a, const Brush& b) { return samePlanes(a, b) && a.contents == b.contents; }

bool sameEntity(const MapEntity& a, const MapEntity& b) {
    if (a.keys != b.keys || a.brushes.size() != b.brushes.size()) return false;
    for (size_t i = 0; i < a.brushes.size(); ++i)
        if (!sameBrush(a.brushes[i], b.brushes[i])) return false;
    return true;
}

bool lightOrWorld(const MapEntity& e) {
    const std::string c = e.classname();
    return c == "worldspawn" || c.rfind("light", 0) == 0;
}

// The entities of `from` that are neither lights nor worldspawn.
std::vector<const MapEntity*> others(const std::vector<MapEntity>& from) {
    std::vector<const MapEntity*> out;
    for (const MapEntity& e : from)
        if (!lightOrWorld(e)) out.push_back(&e);
    return out;
}

} // namespace

bool onlyLightsDiffer(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after) {
    const std::vector<const MapEntity*> a = others(before), b = others(after);
    if (a.size() != b.size()) return false;
    // In order first (an edit keeps the others where they are), else matched one to one.
    if (std::equal(a.begin(), a.end(), b.begin(), [](const MapEntity* x, const MapEntity* y) { return sameEntity(*x, *y); }))
        return true;
    std::vector<bool> used(b.size(), false);
    for (const MapEntity* x : a) {
        bool found = false;
        for (size_t i = 0; i < b.size() && !found; ++i)
            if (!used[i] && sameEntity(*x, *b[i])) found = used[i] = true;
        if (!found) return false;
    }
    return true;
}

bool sameEntities(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after) {
    return std::equal(before.begin(), before.end(), after.begin(), after.end(), sameEntity);
}

std::optional<Aabb> changedBrushRegion(const std::vector<Brush>& before, const std::vector<Brush>& after, const Aabb& bounds) {
    size_t prefix = 0, suffix = 0;
    const size_t common = std::min(before.size(), after.size());
    std::vector<const Brush*> changed;
    if (before.size() == after.size()) {
        for (size_t i = 0; i < before.size(); ++i)
            if (!sameBrush(before[i], after[i])) changed.insert(changed.end(), {&before[i], &after[i]});
    } else {
        while (prefix < common && sameBrush(before[prefix], after[prefix])) ++prefix;
        while (suffix < common - prefix && sameBrush(before[before.size() - 1 - suffix], after[after.size() - 1 - suffix])) ++suffix;
        for (size_t i = prefix; i + suffix < before.size(); ++i) changed.push_back(&before[i]);
        for (size_t i = prefix; i + suffix < after.size(); ++i) changed.push_back(&after[i]);
    }
    Aabb region;
    for (const Brush* b : changed) {
        const BrushGeometryResult g = buildBrushGeometry(*b, bounds);
        if (!g.geometry) return std::nullopt;
        region.add(g.geometry->bounds);
    }
    return region;
}

} // namespace shallot

#include "light/light_relight.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "light/light_formula.h"

#include <algorithm>
#include <atomic>

namespace shallot {

namespace {

bool isLight(const MapEntity& e) { return e.classname().rfind("light", 0) == 0; }

bool sameEntity(const MapEntity& a, const MapEntity& b) {
    if (a.keys != b.keys || a.brushes.size() != b.brushes.size()) return false;
    for (size_t i = 0; i < a.brushes.size(); ++i)
        if (!samePlanes(a.brushes[i], b.brushes[i]) || a.brushes[i].contents != b.brushes[i].contents) return false;
    return true;
}

// Lights whose aim or style depends on other entities.
bool linked(const MapEntity& e) { return e.value("target") || e.value("targetname"); }

// The entities of `from` with no equal one in `other` (counted: duplicates pair up once).
std::vector<const MapEntity*> unmatched(const std::vector<MapEntity>& from, const std::vector<MapEntity>& other) {
    std::vector<bool> used(other.size(), false);
    std::vector<const MapEntity*> out;
    for (const MapEntity& e : from) {
        bool found = false;
        for (size_t i = 0; i < other.size() && !found; ++i)
            if (!used[i] && sameEntity(e, other[i])) found = used[i] = true;
        if (!found) out.push_back(&e);
    }
    return out;
}

bool mayReach(const PointLight& light, const LitFace& face, double scaledist) {
    if (light.formula == LightFormula::LocalMinimum) return true;
    if (face.plane.signedDistance(light.origin) <= -kRelightSphereMargin) return false;
    Vec3 centre = Vec3::Zero();
    for (const Vec3& v : face.polygon.vertices) centre += v;
    centre /= double(std::max<size_t>(face.polygon.vertices.size(), 1));
    double radius = 0.0;
    for (const Vec3& v : face.polygon.vertices) radius = std::max(radius, (v - centre).norm());
    return (light.origin - centre).norm() - radius - kRelightSphereMargin < lightReach(light, scaledist);
}

} // namespace

RelightPlan planRelight(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after, const std::string& file) {
    RelightPlan plan;
    if (before.empty() || after.empty() || !sameEntity(before.front(), after.front())) return plan; // worldspawn
    const std::vector<const MapEntity*> gone = unmatched(before, after), added = unmatched(after, before);
    std::vector<MapEntity> changed{before.front()};
    for (const auto* list : {&gone, &added})
        for (const MapEntity* e : *list) {
            if (!isLight(*e) || linked(*e)) return plan;
            changed.push_back(*e);
        }
    plan.changed = readLightEntities(changed, file).lights;
    plan.full = false;
    return plan;
}

LevelLighting relightChangedLights(const LevelLighting& previous, const RelightPlan& plan,
                                   const std::vector<MapEntity>& after, const std::string& file,
                                   const LightOccluder& occluder, int threads, size_t* relit) {
    Stopwatch clock;
    LevelLighting out = previous;
    LightEntities entities = readLightEntities(after, file);
    out.settings = entities.settings;
    out.stats.lights = entities.lights.size();
    out.stats.rays = out.stats.sampleTests = 0;
    out.stats.msEntities = clock.lapMs();
    out.stats.msFaces = 0;
    std::vector<size_t> faces;
    for (size_t f = 0; f < out.faces.size(); ++f) {
        const LitFace& face = out.faces[f];
        if (out.lightmaps[f].styles.empty()) continue; // unlit before: unlit now (same faces, same grids)
        if (std::any_of(plan.changed.begin(), plan.changed.end(),
                        [&](const PointLight& l) { return mayReach(l, face, out.settings.scaledist); }))
            faces.push_back(f);
    }
    std::atomic<size_t> rays{0}, sampleTests{0};
    parallelFor(faces.size(), threads, [&](size_t k) {
        const size_t f = faces[k];
        FaceLightCounts counts;
        out.lightmaps[f] = lightFace(out.faces[f], out.lightmaps[f].grid, entities.lights, out.settings, occluder, counts);
        rays += counts.rays;
        sampleTests += counts.sampleTests;
    });
    out.stats.rays = rays;
    out.stats.sampleTests = sampleTests;
    out.stats.msLight = clock.lapMs();
    if (relit) *relit = faces.size();
    return out;
}

} // namespace shallot

#include "light/relight.h"

#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "light/light_nudge.h"

#include <atomic>

namespace shallot {

namespace {

bool sameSun(const SunLight& a, const SunLight& b) {
    return a.towardSun == b.towardSun && a.light == b.light && a.color == b.color && a.anglescale == b.anglescale &&
           a.dirt == b.dirt && a.style == b.style;
}

} // namespace

bool sameLight(const PointLight& a, const PointLight& b) {
    return a.origin == b.origin && a.light == b.light && a.wait == b.wait && a.formula == b.formula &&
           a.falloff == b.falloff && a.color == b.color && a.anglescale == b.anglescale && a.style == b.style &&
           a.spotlight == b.spotlight && a.spotDirection == b.spotDirection && a.spotOuterCos == b.spotOuterCos &&
           a.spotInnerCos == b.spotInnerCos && a.dirt == b.dirt && a.dirtScale == b.dirtScale && a.dirtGain == b.dirtGain;
}

bool sameLightSettings(const LightSettings& a, const LightSettings& b) {
    const DirtSettings &da = a.dirt, &db = b.dirt;
    return a.minlight == b.minlight && a.minlightColor == b.minlightColor && a.scaledist == b.scaledist &&
           a.rangescale == b.rangescale && a.anglescale == b.anglescale && a.dirtInUse == b.dirtInUse &&
           da.all == db.all && da.minlight == db.minlight && da.depth == db.depth && da.scale == db.scale &&
           da.gain == db.gain && da.angle == db.angle &&
           std::equal(a.suns.begin(), a.suns.end(), b.suns.begin(), b.suns.end(), sameSun);
}

void unmatchedLights(const std::vector<PointLight>& from, const std::vector<PointLight>& in, std::vector<PointLight>& out) {
    std::vector<bool> used(in.size(), false);
    for (size_t i = 0; i < from.size(); ++i) {
        // The same index first: an edit keeps the others in place.
        if (i < in.size() && !used[i] && sameLight(from[i], in[i])) {
            used[i] = true;
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < in.size() && !found; ++k)
            if (!used[k] && sameLight(from[i], in[k])) used[k] = found = true;
        if (!found) out.push_back(from[i]);
    }
}

RelightStats relightChangedLights(LevelLighting& lit, const LightEntities& edited, const LightOccluder& occluder,
                                  int threads, const LightPass& pass) {
    Stopwatch clock;
    RelightStats stats;
    LightEntities now = edited;
    std::vector<std::string> ignored; // the full light reported them
    nudgeLightsOutOfSolid(now.lights, occluder, {}, ignored);
    stats.everyFace = !sameLightSettings(lit.settings, now.settings);
    std::vector<PointLight> changed;
    unmatchedLights(lit.lights, now.lights, changed);
    unmatchedLights(now.lights, lit.lights, changed);
    stats.changedLights = changed.size();
    lit.settings = now.settings;
    lit.lights = now.lights;
    lit.stats.lights = lit.lights.size();
    std::atomic<size_t> faces{0}, rays{0};
    parallelFor(lit.faces.size(), threads, [&](size_t f) {
        FaceLightmap& map = lit.lightmaps[f];
        if (map.styles.empty() || pass.cancelled()) return; // unlit: not lightmapped, outside, or no grid
        bool affected = stats.everyFace;
        const SampleSphere sphere = sampleSphere(map.samples);
        for (size_t k = 0; k < changed.size() && !affected; ++k)
            affected = lightMayReach(changed[k], lit.faces[f], sphere, lit.settings.scaledist);
        if (!affected) return;
        FaceLightCounts counts;
        map = lightFace(lit.faces[f], map.grid, lit.lights, lit.settings, occluder, counts, pass.stride);
        ++faces;
        rays += counts.rays;
    });
    throwIfCancelled(pass.cancel);
    stats.faces = faces;
    stats.rays = rays;
    stats.ms = clock.lapMs();
    return stats;
}

} // namespace shallot

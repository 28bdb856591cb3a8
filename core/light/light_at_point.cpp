#include "light/light_at_point.h"

#include "light/light_formula.h"
#include "light/luxel_grid.h"

#include <algorithm>
#include <cmath>

namespace shallot {

std::optional<LightReading> lightAtSurface(const LevelLighting& lighting, const Vec3& p) {
    std::vector<std::pair<double, size_t>> near;
    for (size_t f = 0; f < lighting.faces.size(); ++f) {
        const double off = std::abs(lighting.faces[f].plane.signedDistance(p));
        if (off <= kLookupDistance) near.emplace_back(off, f);
    }
    std::sort(near.begin(), near.end());
    for (const auto& [off, f] : near) {
        std::string error;
        if (std::optional<LightReading> r = readLight(lighting, p, lighting.faces[f].plane.normal, error)) return r;
    }
    return std::nullopt;
}

std::vector<LightSourceAt> lightsReaching(const std::vector<PointLight>& lights, const LightSettings& settings,
                                          const Vec3& p, const Vec3& normal, const LightOccluder& occluder) {
    const Vec3 sample = p + kSampleOffPlane * normal;
    const auto brightness = [](const Vec3& c) { return (c[0] + c[1] + c[2]) / 3.0; };
    std::vector<LightSourceAt> out;
    for (size_t i = 0; i < lights.size(); ++i) {
        const PointLight& l = lights[i];
        const Vec3 toLight = l.origin - sample;
        const double dist = std::max(toLight.norm(), kMinLightDistance);
        const Vec3 direction = toLight.norm() < kMinLightDistance ? Vec3::UnitZ() : Vec3(toLight / toLight.norm());
        const double value = lightContribution(l, normal, direction, dist, settings.scaledist) * brightness(l.color) / 255.0;
        if (std::abs(value) <= kLightGate || occluder.blocked(sample, l.origin)) continue;
        out.push_back({int(i), -1, value * settings.rangescale});
    }
    for (size_t s = 0; s < settings.suns.size(); ++s) {
        const SunLight& sun = settings.suns[s];
        const double cosine = sun.towardSun.dot(normal);
        if (cosine <= 0.0 || !occluder.reachesSky(sample, sun.towardSun)) continue;
        const double angle = (1.0 - sun.anglescale) + sun.anglescale * cosine;
        out.push_back({-1, int(s), angle * sun.light * brightness(sun.color) / 255.0 * settings.rangescale});
    }
    std::sort(out.begin(), out.end(), [](const LightSourceAt& a, const LightSourceAt& b) { return std::abs(a.value) > std::abs(b.value); });
    return out;
}

} // namespace shallot

#include "light/face_light.h"

#include "light/light_formula.h"
#include "light/sample_points.h"

#include <cmath>

namespace shallot {

namespace {

// ericw-tools' LIGHT_ANGLE_EPSILON: a face turned from the sun by less than this (in the
// cosine) is still tested against it.
constexpr double kSunAngleEpsilon = 0.01;

double brightness(const Vec3& c) { return (c[0] + c[1] + c[2]) / 3.0; }

// The unscaled colour sums of a face per style.
struct Accumulator {
    size_t luxels;
    std::vector<std::pair<int, std::vector<Vec3>>> styles;
    std::vector<Vec3>& of(int style) {
        for (auto& [s, v] : styles)
            if (s == style) return v;
        styles.emplace_back(style, std::vector<Vec3>(luxels, Vec3::Zero()));
        return styles.back().second;
    }
};

void addPointLight(const PointLight& l, const Plane& plane, const std::vector<Vec3>& samples, double scaledist,
                   const LightOccluder& occluder, Accumulator& acc, FaceLightCounts& counts) {
    std::vector<Vec3>* out = nullptr;
    for (size_t i = 0; i < samples.size(); ++i) {
        const Vec3& p = samples[i];
        Vec3 toLight = l.origin - p;
        double dist = toLight.norm();
        if (dist < kMinLightDistance) {
            dist = kMinLightDistance;
            toLight = Vec3::UnitZ();
        } else {
            toLight /= dist;
        }
        const Vec3 color = l.color * (lightContribution(l, plane.normal, toLight, dist, scaledist) / 255.0);
        if (std::abs(brightness(color)) <= kLightGate) continue;
        ++counts.rays;
        if (occluder.blocked(p, l.origin)) continue;
        if (!out) out = &acc.of(l.style);
        (*out)[i] += color;
    }
}

void addSun(const SunLight& sun, bool negative, const Plane& plane, const std::vector<Vec3>& samples,
            const LightOccluder& occluder, Accumulator& acc, FaceLightCounts& counts) {
    if ((sun.light < 0) != negative || sun.light == 0) return;
    const double cosine = sun.towardSun.dot(plane.normal);
    if (cosine < -kSunAngleEpsilon) return;
    const double angle = (1.0 - sun.anglescale) + sun.anglescale * std::max(0.0, cosine);
    const Vec3 color = sun.color * (angle * sun.light / 255.0);
    if (std::abs(brightness(color)) <= kLightGate) return;
    std::vector<Vec3>& out = acc.of(0);
    for (size_t i = 0; i < samples.size(); ++i) {
        ++counts.rays;
        if (occluder.reachesSky(samples[i], sun.towardSun)) out[i] += color;
    }
}

// ericw-tools' Light_ClampMin: raise each channel to light * colour / 255.
void clampMin(Vec3& sample, double light, const Vec3& color) { sample = sample.cwiseMax(color * (light / 255.0)); }

void addLocalMinimum(const PointLight& l, const std::vector<Vec3>& samples, const LightOccluder& occluder,
                     Accumulator& acc, FaceLightCounts& counts) {
    std::vector<Vec3>& out = acc.of(l.style);
    for (size_t i = 0; i < samples.size(); ++i) {
        if (!(brightness(out[i]) < l.light)) continue;
        ++counts.rays;
        if (!occluder.blocked(samples[i], l.origin)) clampMin(out[i], l.light, l.color);
    }
}

StyleLightmap scaled(int style, const std::vector<Vec3>& sums, double rangescale) {
    StyleLightmap m;
    m.style = style;
    m.light.resize(sums.size());
    m.rgb.resize(sums.size() * 3);
    for (size_t i = 0; i < sums.size(); ++i) {
        Vec3 c = sums[i].cwiseMax(0.0) * rangescale;
        const double top = c.maxCoeff();
        if (top > 255.0) c *= 255.0 / top;
        for (int k = 0; k < 3; ++k) m.rgb[i * 3 + size_t(k)] = uint8_t(std::clamp(c[k], 0.0, 255.0));
        m.light[i] = uint8_t(std::clamp(c.maxCoeff(), 0.0, 255.0));
    }
    return m;
}

} // namespace

bool lightMayReach(const PointLight& light, const LitFace& face, const Vec3& centre, double radius, double scaledist) {
    if (face.plane.signedDistance(light.origin) < 0) return false;
    const double dist = (light.origin - centre).norm() - radius;
    return dist < 0 || dist < lightReach(light, scaledist);
}

FaceLightmap lightFace(const LitFace& face, const LuxelGrid& grid, const std::vector<const PointLight*>& lights,
                       const LightSettings& settings, const LightOccluder& occluder, FaceLightCounts& counts) {
    FaceLightmap result;
    result.grid = grid;
    result.samples = samplePoints(grid, occluder, &counts.sampleTests);
    Accumulator acc{result.samples.size(), {}};
    acc.of(0);
    const auto pointLights = [&](bool negative) {
        for (const PointLight* l : lights)
            if (l->formula != LightFormula::LocalMinimum && (l->light < 0) == negative && l->light != 0)
                addPointLight(*l, face.plane, result.samples, settings.scaledist, occluder, acc, counts);
        for (const SunLight& sun : settings.suns) addSun(sun, negative, face.plane, result.samples, occluder, acc, counts);
    };
    pointLights(false);
    for (const PointLight* l : lights)
        if (l->formula == LightFormula::LocalMinimum && l->light > 0) addLocalMinimum(*l, result.samples, occluder, acc, counts);
    if (settings.minlight > 0)
        for (Vec3& s : acc.of(0)) clampMin(s, settings.minlight, settings.minlightColor);
    pointLights(true);
    for (const auto& [style, sums] : acc.styles) result.styles.push_back(scaled(style, sums, settings.rangescale));
    return result;
}

} // namespace shallot

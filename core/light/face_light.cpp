#include "light/face_light.h"

#include "light/coarse_lattice.h"
#include "light/coarse_suns.h"
#include "light/dirt.h"
#include "light/light_formula.h"
#include "light/sample_points.h"

#include "geometry/aabb.h"

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

// The dirt factor of each sample for a light (all 1 when it uses no dirt).
struct DirtOf {
    const std::vector<double>& occlusion; // empty when no light uses dirt
    const DirtSettings& settings;
    double at(size_t i, bool uses, double gain = 0, double scale = 0) const {
        if (!uses || occlusion.empty()) return 1.0;
        return dirtFactor(occlusion[i], gain > 0 ? gain : settings.gain, scale > 0 ? scale : settings.scale);
    }
};

void addPointLight(const PointLight& l, const Plane& plane, const std::vector<Vec3>& samples, double scaledist,
                   const DirtOf& dirt, const LightOccluder& occluder, Accumulator& acc, FaceLightCounts& counts) {
    std::vector<Vec3>* out = nullptr;
    const bool dirty = usesDirt(l, dirt.settings);
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
        const Vec3 color = l.color * (lightContribution(l, plane.normal, toLight, dist, scaledist) / 255.0) *
                           dirt.at(i, dirty, l.dirtGain, l.dirtScale);
        if (std::abs(brightness(color)) <= kLightGate) continue;
        ++counts.rays;
        if (occluder.blocked(p, l.origin)) continue;
        if (!out) out = &acc.of(l.style);
        (*out)[i] += color;
    }
}

void addSun(const SunLight& sun, bool negative, const Plane& plane, const std::vector<Vec3>& samples, const DirtOf& dirt,
            const LightOccluder& occluder, Accumulator& acc, FaceLightCounts& counts) {
    if ((sun.light < 0) != negative || sun.light == 0) return;
    const double cosine = sun.towardSun.dot(plane.normal);
    if (cosine < -kSunAngleEpsilon) return;
    const double angle = (1.0 - sun.anglescale) + sun.anglescale * std::max(0.0, cosine);
    const Vec3 full = sun.color * (angle * sun.light / 255.0);
    std::vector<Vec3>& out = acc.of(sun.style);
    for (size_t i = 0; i < samples.size(); ++i) {
        const Vec3 color = full * dirt.at(i, sun.dirt);
        if (std::abs(brightness(color)) <= kLightGate) continue;
        ++counts.rays;
        if (occluder.reachesSky(samples[i], sun.towardSun)) out[i] += color;
    }
}

// ericw-tools' Light_ClampMin: raise each channel to light * colour / 255.
void clampMin(Vec3& sample, double light, const Vec3& color) { sample = sample.cwiseMax(color * (light / 255.0)); }

void addLocalMinimum(const PointLight& l, const std::vector<Vec3>& samples, const DirtOf& dirt,
                     const LightOccluder& occluder, Accumulator& acc, FaceLightCounts& counts) {
    std::vector<Vec3>& out = acc.of(l.style);
    const bool dirty = usesDirt(l, dirt.settings);
    for (size_t i = 0; i < samples.size(); ++i) {
        if (!(brightness(out[i]) < l.light)) continue;
        ++counts.rays;
        if (!occluder.blocked(samples[i], l.origin))
            clampMin(out[i], l.light * dirt.at(i, dirty, l.dirtGain, l.dirtScale), l.color);
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
        if (top > 255.0) // scaled down, its largest channel exactly 255 (no rounding to 254)
            for (int k = 0; k < 3; ++k) c[k] = c[k] == top ? 255.0 : c[k] * (255.0 / top);
        for (int k = 0; k < 3; ++k) m.rgb[i * 3 + size_t(k)] = uint8_t(std::clamp(c[k], 0.0, 255.0));
        m.light[i] = uint8_t(std::clamp(c.maxCoeff(), 0.0, 255.0));
    }
    return m;
}

} // namespace

SampleSphere sampleSphere(const std::vector<Vec3>& samples) {
    Aabb box;
    for (const Vec3& p : samples) box.add(p);
    return SampleSphere{(box.mins + box.maxs) / 2, (box.maxs - box.mins).norm() / 2};
}

bool lightMayReach(const PointLight& l, const LitFace& face, const SampleSphere& sphere, double scaledist) {
    // Local-minimum lights have no angle: ericw-tools culls them by distance only.
    if (l.formula != LightFormula::LocalMinimum && face.plane.signedDistance(l.origin) < 0) return false;
    const double dist = (l.origin - sphere.centre).norm() - sphere.radius;
    return dist < 0 || dist < lightReach(l, scaledist);
}

FaceLightmap lightFace(const LitFace& face, const LuxelGrid& grid, const std::vector<PointLight>& allLights,
                       const LightSettings& settings, const LightOccluder& occluder, FaceLightCounts& counts, int stride) {
    FaceLightmap result;
    result.grid = grid;
    result.stride = std::max(1, stride);
    const std::vector<int> columns = latticeLines(grid.width(), result.stride), rows = latticeLines(grid.height(), result.stride);
    // The lattice's samples (every luxel's at stride 1), lit below.
    const std::vector<Vec3> samples = samplePointsAt(grid, columns, rows, occluder, &counts.sampleTests);
    std::vector<const PointLight*> lights;
    const SampleSphere sphere = sampleSphere(samples);
    for (const PointLight& l : allLights)
        if (lightMayReach(l, face, sphere, settings.scaledist)) lights.push_back(&l);
    Accumulator acc{samples.size(), {}};
    acc.of(0);
    // A coarse pass: fewer dirt rays and a dome's suns merged (coarse_suns.h).
    const bool coarse = result.stride > 1;
    const std::vector<SunLight> suns = coarse ? coarseSuns(settings.suns) : std::vector<SunLight>{};
    const std::vector<double> occlusion =
        settings.dirtInUse ? sampleOcclusion(samples, face.plane.normal, settings.dirt, occluder, counts.rays,
                                             coarse ? kCoarseDirtAngleSteps : kDirtAngleSteps)
                           : std::vector<double>{};
    const DirtOf dirt{occlusion, settings.dirt};
    const auto pointLights = [&](bool negative) {
        for (const PointLight* l : lights)
            if (l->formula != LightFormula::LocalMinimum && (l->light < 0) == negative && l->light != 0)
                addPointLight(*l, face.plane, samples, settings.scaledist, dirt, occluder, acc, counts);
        for (const SunLight& sun : coarse ? suns : settings.suns)
            addSun(sun, negative, face.plane, samples, dirt, occluder, acc, counts);
    };
    pointLights(false);
    for (const PointLight* l : lights)
        if (l->formula == LightFormula::LocalMinimum && l->light > 0)
            addLocalMinimum(*l, samples, dirt, occluder, acc, counts);
    if (settings.minlight > 0) {
        std::vector<Vec3>& base = acc.of(0);
        for (size_t i = 0; i < base.size(); ++i)
            clampMin(base[i], settings.minlight * dirt.at(i, settings.dirt.minlight), settings.minlightColor);
    }
    pointLights(true);
    const auto expanded = [&](const std::vector<Vec3>& v) { return expandLattice(v, columns, rows, grid.width(), grid.height()); };
    for (const auto& [style, sums] : acc.styles)
        result.styles.push_back(scaled(style, coarse ? expanded(sums) : sums, settings.rangescale));
    result.samples = coarse ? expanded(samples) : samples;
    return result;
}

} // namespace shallot

#pragma once
// The direct light of one face, as ericw-tools' light computes it with its default
// settings (DirectLightFace then PostProcessLightFace, then the scaling and clamping of
// the write): positive point lights and suns, local-minimum lights (delay 4), the global
// minlight, then negative lights and suns; the sum times rangescale, a colour brighter than
// 255 scaled down to 255 in its largest channel, and the grey byte the largest channel.
#include "light/light_entities.h"
#include "light/light_occluder.h"
#include "light/luxel_grid.h"

#include <cstdint>
#include <vector>

namespace shallot {

// One light style's lightmap of a face: luxels row by row (LuxelGrid order).
struct StyleLightmap {
    int style = 0;
    std::vector<uint8_t> light; // the .bsp lightmap byte: the largest of r, g, b
    std::vector<uint8_t> rgb;   // r, g, b per luxel (the .lit colours)
};

struct FaceLightmap {
    LuxelGrid grid;
    std::vector<Vec3> samples;        // where each luxel was sampled (sample_points.h)
    std::vector<StyleLightmap> styles; // style 0 first (always there once lit)
    // 1: every luxel lit; more: a coarse lightmap, lit at the lattice of this stride and
    // bilinear between (coarse_lattice.h; its samples between the lattice too).
    int stride = 1;
};

struct FaceLightCounts {
    size_t rays = 0;          // shadow and sun rays traced
    size_t sampleTests = 0;   // segment tests placing the sample points
};

// Lights `face` (lightmapped, with a valid grid) with `lights`, the settings' suns and
// minlight; lights that lightMayReach says do not reach it are skipped. `stride` > 1: a
// coarse lightmap (coarse_lattice.h).
FaceLightmap lightFace(const LitFace& face, const LuxelGrid& grid, const std::vector<PointLight>& lights,
                       const LightSettings& settings, const LightOccluder& occluder, FaceLightCounts& counts, int stride = 1);

// The sphere around a face's sample points (the middle and half the diagonal of their box).
struct SampleSphere {
    Vec3 centre = Vec3::Zero();
    double radius = 0;
};
SampleSphere sampleSphere(const std::vector<Vec3>& samples);

// Can `light` add anything to the face with these sample points? Not when it is behind the
// face's plane (local-minimum lights aside) or farther from the sphere around the samples
// than it reaches (lightReach): id's light's and ericw-tools' culls.
bool lightMayReach(const PointLight& light, const LitFace& face, const SampleSphere& sphere, double scaledist);

} // namespace shallot

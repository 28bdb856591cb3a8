#pragma once
// The seeds' radiosity (the thesis's last chapter) on Quake's lightmaps, as an option:
// diffuse light bounced between faces. Each lit face is cut into patches of
// kBouncePatchLuxels x kBouncePatchLuxels luxels; a patch reflects kBounceReflectivity of
// the direct light falling on it, and every patch in front of it receives
//   B A cos(e) cos(r) / (pi max(d^2, A))
// from it (B its reflected light, A its area, e and r the angles to the patch normals, d
// the distance between the patch centres) when the segment between them is clear. Each
// further bounce reflects what the last one received. The light each patch received is
// added to its face's luxels, interpolated bilinearly between patch centres. With a PVS
// (bounce_pvs.h) the pairs it says cannot see each other are left out: the same light, less
// work.
#include "compile/cancel_token.h"
#include "light/bounce_pvs.h"
#include "light/level_light.h"
#include "light/light_occluder.h"

namespace shallot {

inline constexpr int kBouncePatchLuxels = 8;       // 128 units a side: few patch pairs on a whole level
inline constexpr double kBounceReflectivity = 0.5; // no textures to average: a mid grey
// A transfer below this (on the unscaled 0-510 range) is not traced.
inline constexpr double kBounceGate = 0.05;

struct BounceStats {
    size_t patches = 0;
    size_t rays = 0;              // segment tests done
    // Patch pairs (receiver, sender) the PVS left out, summed over the bounces: not looked
    // at, let alone tested (most are too far apart or face away, and would not have been).
    size_t pairsSkippedByPvs = 0;
    double ms = 0;
};

// Adds `bounces` bounces (0: nothing) to lighting's style-0 lightmaps, and its figures to
// lighting.stats (bounces, bouncePatches, bounceRays, msBounce). `pvs` (optional) is
// for the tree and pose `occluder` traces. `cancel` (optional) is checked before each
// receiver and before the luxels are written: once set, CompileCancelled is thrown and
// `lighting` is left as it was (its luxels are written last).
BounceStats addBounce(LevelLighting& lighting, const LightOccluder& occluder, int bounces, int threads,
                      const BouncePvs* pvs = nullptr, const CancelToken* cancel = nullptr);

} // namespace shallot

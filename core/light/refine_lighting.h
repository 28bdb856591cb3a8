#pragma once
// Coarse first, then full resolution (issue 41, "Live"): a lighting pass run at a coarse
// stride (LightPass, coarse_lattice.h) is shown at once; this then lights in full every
// face it lit coarse, with the lighting's own lights, settings and faces. The result is
// the lighting the same pass gives at stride 1: the coarse pass chose the faces, nudged the
// lights and read the settings as the full pass does, and a face's full lightmap depends
// only on those and the occluder.
#include "light/level_light.h"

namespace shallot {

struct RefineStats {
    size_t faces = 0; // faces lit again in full
    size_t rays = 0, sampleTests = 0;
    double ms = 0;
};

// `occluder`: the one the coarse pass used. Cancelled by `cancel` as a LightPass (then
// `lighting` is left part refined: drop it). lighting.stats stay the coarse pass's.
RefineStats refineCoarseFaces(LevelLighting& lighting, const LightOccluder& occluder, int threads,
                              const CancelToken* cancel = nullptr);

// What of a lighting is coarse: its faces (0: the lighting is full), their luxels, and of
// those the lattice luxels the coarse pass lit (the rest were interpolated).
struct CoarseShare {
    size_t faces = 0, luxels = 0, latticeLuxels = 0;
};
CoarseShare coarseShare(const LevelLighting& lighting);

} // namespace shallot

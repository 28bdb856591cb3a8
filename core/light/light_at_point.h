#pragma once
// What lights a point of a face, for the editor's Inspect tool (issue 41): the reading the
// engine would make there on whichever face holds it, and each light (and sun) that reaches
// it unblocked with what it gives there.
#include "light/light_lookup.h"
#include "light/light_occluder.h"

#include <optional>
#include <vector>

namespace shallot {

// The reading at `p` on the face that holds it, whatever way that face looks (readLight
// with each nearby face's normal, the nearest face first); nothing when p is on no lit face.
std::optional<LightReading> lightAtSurface(const LevelLighting& lighting, const Vec3& p);

struct LightSourceAt {
    int light = -1;     // index in the lights given; -1 for a sun
    int sun = -1;       // index in settings.suns for a sun, else -1
    double value = 0.0; // what it adds to the lightmap byte there (0-255 scale, signed)
};

// The lights and suns that reach the sample point of `p` on a face facing `normal` (as the
// lighting places it: kSampleOffPlane in front), strongest first; those a brush blocks or
// that give no more than the lighting's gate are left out.
std::vector<LightSourceAt> lightsReaching(const std::vector<PointLight>& lights, const LightSettings& settings,
                                          const Vec3& p, const Vec3& normal, const LightOccluder& occluder);

} // namespace shallot

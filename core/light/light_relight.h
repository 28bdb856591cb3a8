#pragma once
// Relighting after light entities changed (issue 41, "Live"): when only lights were added,
// removed, moved or edited (the world, the other entities and worldspawn's keys the same),
// only the faces one of those lights may reach (before or after the change) are lit again,
// with every light; every other face keeps its lightmap, which a full lighting would
// compute the same (its lights and occluders are unchanged).
#include "light/level_light.h"

#include <vector>

namespace shallot {

struct RelightPlan {
    bool full = true;                // something else changed: light everything
    std::vector<PointLight> changed; // the lights as they were and as they are, of those that differ
};

// What changed from `before` to `after` (entity lists as LightInput takes them, worldspawn
// first). A light that names a target or is named (spotlights aim at other entities, named
// lights switch styles) makes the plan full, as does any change that is not a light's.
RelightPlan planRelight(const std::vector<MapEntity>& before, const std::vector<MapEntity>& after, const std::string& file);

// Faces reached by a light are those in front of its plane (any face for a local-minimum
// light) whose polygon's bounding sphere, grown by this, it reaches (lightReach): the
// sample points lie up to kSampleOffPlane in front of the face and are nudged within it.
inline constexpr double kRelightSphereMargin = 2.0;

// `previous`: the lighting of `before` in the same world with no bounce; `plan` not full.
// Relights the faces a changed light may reach with the lights of `after`; the count of
// those faces goes to `relit` when given.
LevelLighting relightChangedLights(const LevelLighting& previous, const RelightPlan& plan,
                                   const std::vector<MapEntity>& after, const std::string& file,
                                   const LightOccluder& occluder, int threads, size_t* relit = nullptr);

} // namespace shallot

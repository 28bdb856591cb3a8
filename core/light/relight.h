#pragma once
// Relighting after the lights change (one moved, added, removed or edited) while the
// brushes stay: only the faces that an old or a new version of a changed light may reach
// (lightMayReach: the culls of the full light) are lit again, with all the new lights. The
// other faces keep their lightmaps, which a full light would give them unchanged: no
// changed light passes their culls. A change of worldspawn's keys (minlight, suns, dirt,
// scales) relights every face. The bounce is not redone.
#include "light/level_light.h"
#include "light/light_occluder.h"

namespace shallot {

struct RelightStats {
    size_t changedLights = 0; // old and new versions that differ
    size_t faces = 0;         // faces lit again
    size_t rays = 0;
    bool everyFace = false;   // worldspawn's keys changed
    double ms = 0;
};

// The same light, the same settings (every field equal).
bool sameLight(const PointLight& a, const PointLight& b);
bool sameLightSettings(const LightSettings& a, const LightSettings& b);
// The lights of `from` that `in` lacks (each of `in` matching at most one), appended to `out`.
void unmatchedLights(const std::vector<PointLight>& from, const std::vector<PointLight>& in, std::vector<PointLight>& out);

// `now`: the lights read from the edited entities (readLightEntities); `occluder`: the
// unchanged brushes' (the tree the level was lit with); `pass`: the faces relit at its
// stride, cancelled by its token (then `lighting` is left part relit: drop it).
RelightStats relightChangedLights(LevelLighting& lighting, const LightEntities& now, const LightOccluder& occluder,
                                  int threads, const LightPass& pass = {});

} // namespace shallot

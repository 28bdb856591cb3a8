#include "light/light_nudge.h"

namespace shallot {

void nudgeLightsOutOfSolid(std::vector<PointLight>& lights, const LightOccluder& occluder, const std::string& file,
                           std::vector<std::string>& warnings) {
    for (PointLight& l : lights) {
        if (l.light == 0 || !occluder.nearSolid(l.origin, kLightSolidMargin)) continue;
        bool moved = false;
        for (int i = 0; i < 6 && !moved; ++i) {
            Vec3 p = l.origin;
            p[i / 2] += (i % 2) ? kLightNudge : -kLightNudge;
            if (!occluder.nearSolid(p, kLightSolidMargin)) {
                l.origin = p;
                moved = true;
            }
        }
        if (!moved)
            warnings.push_back(file + ":" + std::to_string(l.line) + ": light: in solid and no nudge of " +
                               std::to_string(kLightNudge) + " units gets it out (it stays)");
    }
}

} // namespace shallot

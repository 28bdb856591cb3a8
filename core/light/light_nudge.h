#pragma once
// ericw-tools' FixLightsOnFaces: a light inside a brush or within kLightSolidMargin of one
// (a light placed on a floor or in a wall's face) is moved kLightNudge along -x, +x, -y,
// +y, -z, +z, the first place that is clear; one that finds none stays, with a warning.
// Sample points lie 1 unit off their faces; 2 units puts the light beyond them.
#include "light/light_entities.h"
#include "light/light_occluder.h"

#include <string>
#include <vector>

namespace shallot {

inline constexpr double kLightSolidMargin = 0.1; // ericw-tools' Light_PointInSolid margin
inline constexpr double kLightNudge = 2.0;

// Moves the lights of `lights` that need it; `file` names the level in warnings.
void nudgeLightsOutOfSolid(std::vector<PointLight>& lights, const LightOccluder& occluder, const std::string& file,
                           std::vector<std::string>& warnings);

} // namespace shallot

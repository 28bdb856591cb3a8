#pragma once
// How much of a point light reaches a sample point: ericw-tools' GetLightValue and
// GetLightValueWithAngle (id's light is the linear case with its cone test), on the
// unscaled range (the lightmap byte is rangescale times the sum, light_map.h).
#include "light/light_entities.h"

namespace shallot {

// ericw-tools' LF_SCALE: the distance at which the 1/x and 1/x^2 formulas give the light
// value itself (nearer, they exceed it).
inline constexpr double kInverseFalloffScale = 128.0;

// ericw-tools' "gate": a light whose contribution at a sample is at most this brightness
// is not traced (and lights that give no more than this to a whole face are culled).
inline constexpr double kLightGate = 0.001;

// ericw-tools catches a sample closer than this to the light (division by zero).
inline constexpr double kMinLightDistance = 0.1;

// The light's value at `dist` with no regard for the angle, signed as the light.
double lightAtDistance(const PointLight& light, double dist, double scaledist);

// The distance past which |lightAtDistance| <= kLightGate (infinity when it never is).
double lightReach(const PointLight& light, double scaledist);

// The contribution at a sample with unit `normal` whose unit direction to the light is
// `toLight` at distance `dist` (>= kMinLightDistance): zero when the light is behind the
// sample or outside its spotlight cone; the angle factor (1 - anglescale) + anglescale
// cos; the cone's soft edge linear in the cosine between the cone's two angles.
double lightContribution(const PointLight& light, const Vec3& normal, const Vec3& toLight, double dist, double scaledist);

} // namespace shallot

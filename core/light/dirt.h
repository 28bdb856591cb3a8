#pragma once
// ericw-tools' dirtmapping (ambient occlusion, from q3map2): each sample casts rays over a
// cone around the face normal (16 directions in each of 3 rings up to "_dirtangle");
// the occlusion is 1 minus the rays' mean open length over "_dirtdepth"; a light that
// uses dirt is scaled by 1 - min(1, min(1, occlusion^gain) * scale).
#include "light/light_entities.h"
#include "light/light_occluder.h"

#include <vector>

namespace shallot {

inline constexpr int kDirtAngleSteps = 16;
inline constexpr int kDirtElevationSteps = 3;

// Occlusion 0 (open) to 1 (closed) of each sample of a face with unit `normal`; `rays`
// counts the rays cast; `angleSteps` rays around each ring (fewer in a coarse pass).
std::vector<double> sampleOcclusion(const std::vector<Vec3>& samples, const Vec3& normal, const DirtSettings& dirt,
                                    const LightOccluder& occluder, size_t& rays, int angleSteps = kDirtAngleSteps);

// The factor a light using dirt is scaled by at a sample of this occlusion.
double dirtFactor(double occlusion, double gain, double scale);

// Does the point light use dirt (its "_dirt", else worldspawn's)?
inline bool usesDirt(const PointLight& light, const DirtSettings& dirt) {
    return light.dirt == 1 || (light.dirt == 0 && dirt.all);
}

} // namespace shallot

#pragma once
// The suns a coarse pass (coarse_lattice.h) lights with: a sky dome's 65 suns (ericw-tools'
// "_sunlight2", "_sunlight3") cost 65 rays a luxel, most of a lighting's time where a level
// has one. The coarse pass merges each run of kCoarseSunGroup alike suns (one after the
// other in the list: a dome's are neighbours along a ring of elevation) into one, its
// direction their light-weighted mean, its light their sum: the same light in total, the
// sky's shadows softened. The full lighting traces every sun.
#include "light/light_entities.h"

#include <vector>

namespace shallot {

// Suns merged into one in a coarse pass: a dome's 65 become 9 (half rings of 8, and the
// zenith): with half the dirt rays, librequake_e3m4's coarse pass traces 3.7 M rays, not 9.4 M.
inline constexpr size_t kCoarseSunGroup = 8;

// Dirt rays around the cone in a coarse pass (kDirtAngleSteps, 16, in the full lighting).
inline constexpr int kCoarseDirtAngleSteps = 8;

// Suns alike: the same light, colour, style, anglescale and dirt (a dome's suns share its
// light equally; a "_sunlight" sun stays apart).
std::vector<SunLight> coarseSuns(const std::vector<SunLight>& suns);

} // namespace shallot

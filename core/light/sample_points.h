#pragma once
// Where each luxel of a face is sampled, as id's light places it (ltface.c, CalcPoints):
// at the luxel's point kSampleOffPlane in front of the face, unless that point cannot see
// the middle of the face's texture extents (it lies in or behind a wall: the lightmap
// covers more than the face); then it is moved towards the middle, 8 texels at a time
// along t and s in turn, up to kSampleMoves times, and after the last failed try 8 units
// straight towards the middle.
#include "light/light_occluder.h"
#include "light/luxel_grid.h"

#include <vector>

namespace shallot {

inline constexpr int kSampleMoves = 6;     // id's light's tries per luxel
inline constexpr double kSampleStep = 8.0; // texels (and, the last time, units) per move

// One point per luxel, row by row (t outer, s inner): width() * height() points. `tests`
// (if given) counts the segment tests made.
std::vector<Vec3> samplePoints(const LuxelGrid& grid, const LightOccluder& occluder, size_t* tests = nullptr);

// The points of the luxels in `columns` x `rows` only (row by row), each where
// samplePoints places it: the coarse lighting's lattice (coarse_lattice.h).
std::vector<Vec3> samplePointsAt(const LuxelGrid& grid, const std::vector<int>& columns, const std::vector<int>& rows,
                                 const LightOccluder& occluder, size_t* tests = nullptr);

} // namespace shallot

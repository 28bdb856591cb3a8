#pragma once
// The coarse lighting shown first after an edit (issue 41, "coarse first, then full
// resolution"): a face is lit at the luxels of a lattice, every `stride`-th column and row
// and the last of each, and the luxels between get the light sums of the lattice
// luxels around them, bilinearly. The lattice luxels are sampled and lit exactly as in the
// full lighting; only the luxels between are guessed.
#include "geometry/plane.h"

#include <vector>

namespace shallot {

// The stride of the editor's coarse pass: every 4th luxel each way (64 units) traces about
// a fifth of id_e1m1's rays (faces are small: most have 2 to 8 luxels a side, and the
// lattice keeps their corners); stride 2 traced twice as many, 8 hardly fewer than 4
// (docs/lighting.md, "Coarse first, then full").
inline constexpr int kCoarseLuxelStride = 4;

// The lattice lines of `count` luxel lines (count >= 1): 0, stride, 2 stride... and
// count - 1. All of them when stride is 1.
std::vector<int> latticeLines(int count, int stride);

// The values of every luxel of a width x height grid (row by row) from those at the lattice
// `columns` x `rows` (row by row: `values`), bilinear between the lattice lines around it.
std::vector<Vec3> expandLattice(const std::vector<Vec3>& values, const std::vector<int>& columns, const std::vector<int>& rows,
                                int width, int height);

} // namespace shallot

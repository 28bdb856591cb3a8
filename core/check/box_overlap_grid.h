#pragma once
// Broad phase for many axis-aligned boxes of similar size (entities' hull boxes): which
// pairs overlap, without testing every pair.
#include "geometry/aabb.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace shallot {

// Every pair (i, j), i < j, of boxes whose interiors share more than `depth` (>= 0) on
// every axis, ascending. Boxes must be finite and not empty. A uniform grid whose cells
// are as large as the largest box on each axis: a box is filed under the cell of its
// min corner, so two overlapping boxes sit in the same or neighbouring cells and each box
// is compared with the boxes of its 27 cells only. Expected O(n + pairs) when the boxes
// are about the same size (entity hulls are at most 64 x 64 x 88); a few boxes far larger
// than the rest would make every cell large.
std::vector<std::pair<int, int>> overlappingBoxPairs(const std::vector<Aabb>& boxes, double depth);

// Do the interiors of a and b share more than `depth` on every axis?
inline bool boxesOverlap(const Aabb& a, const Aabb& b, double depth) {
    for (int k = 0; k < 3; ++k)
        if (std::min(a.maxs[k], b.maxs[k]) - std::max(a.mins[k], b.mins[k]) <= depth) return false;
    return true;
}

} // namespace shallot

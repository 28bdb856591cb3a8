#pragma once
#include "geometry/aabb.h"
#include "world/brush.h"

#include <vector>

namespace shallot {

// The box of brushes' vertices (what the games take as a brush model's mins and maxs);
// coordinates within kIntegerSnapDistance of an integer are that integer, so a door drawn
// on the grid moves by whole units. Brushes that make no solid add nothing; empty when
// none does.
Aabb brushesBounds(const std::vector<Brush>& brushes);

} // namespace shallot

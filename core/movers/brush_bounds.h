#pragma once
#include "geometry/aabb.h"
#include "world/brush.h"

#include <optional>
#include <vector>

namespace shallot {

// The box of brushes' vertices (what the games take as a brush model's mins and maxs);
// coordinates within kIntegerSnapDistance of an integer are that integer, so a door drawn
// on the grid moves by whole units. Origin brushes and brushes that make no solid add
// nothing; empty when none is left.
Aabb brushesBounds(const std::vector<Brush>& brushes);

// An origin brush: every side textured "origin" (any case, any folder: Half-Life's ORIGIN,
// Quake 3's common/origin, ericw-tools' for Quake), or Quake 2's CONTENTS_ORIGIN on its
// first side. The compilers make the entity's origin of its centre and drop it.
bool isOriginBrush(const Brush& brush);
// The centre of the first origin brush's box, or nothing.
std::optional<Vec3> originBrushCentre(const std::vector<Brush>& brushes);

} // namespace shallot

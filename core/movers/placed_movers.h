#pragma once
// The movers' brushes where they stand: each mover's brushes translated by its offset,
// tagged with its entity, as brushes of the world (their own contents: a func_illusionary
// stays non-solid). The editor compiles them with the world (the Movers dock's states) and
// `query`'s reach floods the world with them placed at the states it names.
#include "movers/mover.h"
#include "world/world.h"

#include <vector>

namespace shallot {

// One offset per mover (movers[i] at offsets[i]); movers beyond offsets are left out.
std::vector<Brush> placedMoverBrushes(const std::vector<Mover>& movers, const std::vector<Vec3>& offsets);

// `world` with placedMoverBrushes appended after its own (its brush indices stay).
World worldWithMovers(World world, const std::vector<Mover>& movers, const std::vector<Vec3>& offsets);

} // namespace shallot

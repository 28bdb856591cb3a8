#pragma once
// Where teleporters put the player (a `stuck` problem of the spawn checks' form): a
// trigger_teleport (Quake 2: misc_teleporter) whose destination puts the player's box in
// solid, where the game sets it down (its origin raised by Teleport::arrivalLift). Quake
// then leaves the player stuck in the wall or floor; a destination an inch too low in the
// floor is a classic. Rules: docs/movers.md "Teleport arrivals".
#include "check/spawn_checks.h"
#include "compile/bsp_tree.h"
#include "io/map_file.h"
#include "movers/entity_graph.h"
#include "world/entity_class.h"

#include <vector>

namespace shallot {

// One `stuck` problem per destination entity that some teleporter of `graph` sets the
// player down in solid at, naming the teleporters (`entities`). The player is the pose of
// info_player_start's hull in `classes` (Quake's without them); nothing is checked when
// `tree` has no such pose. `map` gives the entities' classnames and lines.
std::vector<SpawnProblem> checkTeleportArrivals(const BspTree& tree, const MapFile& map, const EntityGraph& graph,
                                                const EntityClassTable* classes = nullptr);

} // namespace shallot

#pragma once
// The movers of a shallot-cli input as collision objects (core/objects/level_objects.h).
#include "movers/firing_rules.h"
#include "movers/travel.h"
#include "objects/level_objects.h"
#include "objects/obsp_movers.h"
#include "tree_source.h"

#include <memory>
#include <optional>
#include <string>

namespace shallot::cli {

// For a .map: its movers (core/movers), each compiled for the input's tree poses on up to
// `threads` threads. For a .obsp: the movers it stores (shallot-cli compile of a .map
// stores them), or nothing. A .shallot keeps no brush entities here: nothing. An
// unreadable map gives nothing too (the tree's loader has reported it).
std::shared_ptr<const LevelObjects> loadLevelObjects(const std::string& path, const TreeAndWorld& input, int threads);

// The level's movers, entities and trigger_pushes for typed travel: a .map's or
// .shallot's entities (with its world's liquids and ladders), or those a .obsp stores
// (with the liquids and ladders it keeps); nothing when there are none.
std::shared_ptr<const TravelLevel> loadTravelLevel(const TreeAndWorld& input);

// What fires `movers` (loadLevelObjects of the same input) when the level runs: from the
// .map's entities or those a .obsp stores (simulate --fired).
FiringRules loadFiringRules(const TreeAndWorld& input, const LevelMovers& movers);

// What `shallot-cli compile -o` (and `light -o`) store of a .map's movers for a tree of
// `treePoses` compiled in `bounds`: its entities and each mover's tree; nothing for a
// .shallot (its document keeps no brush entities' brushes apart from the world).
std::optional<ObspMovers> moversToStore(const std::string& input, const std::vector<MapEntity>& entities, Game game,
                                        const std::vector<Pose>& treePoses, const Aabb& bounds, int threads);

// "3 doors, 1 plat, 2 static" (kinds in MoverKind order; "none" when empty).
std::string describeMovers(const LevelMovers& movers);

} // namespace shallot::cli

#pragma once
// The motion rules of each kind of mover (one per file), used by buildMovers. Each reads
// the entity's keys with the game's defaults and fills the mover's motion, timing and
// spawn state; `mover.bounds` must be set. Rules and defaults: docs/movers.md.
#include "io/map_file.h"
#include "movers/mover.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace shallot {

// Targetname -> entity indices in file order (the games' find() takes the first).
using TargetnameIndex = std::unordered_map<std::string, std::vector<int>>;
TargetnameIndex indexTargetnames(const MapFile& map);

// func_door and func_button: along their angle by their size along it less `lip`
// (door_motion.cpp).
void setDoorMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes);
void setButtonMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes);
// func_door_secret: aside (or down), then back (secret_door_motion.cpp).
void setSecretDoorMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes);
// func_plat: from the top (the file position) down by `height` (plat_motion.cpp).
void setPlatMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes);
// func_train: its path_corner chain (train_path.cpp).
void setTrainMotion(Mover& mover, const MapFile& map, const TargetnameIndex& names, std::vector<MoverNote>& notes);
// Linked doors' `master` (door_links.cpp): Quake's touching func_doors, Quake 2's and
// Quake 3's `team`; every other mover is its own master.
void linkDoors(LevelMovers& level, const MapFile& map);
// Every mover's touchBounds (touch_fields.cpp), once the doors are linked.
void setTouchBounds(LevelMovers& level, const MapFile& map);

} // namespace shallot

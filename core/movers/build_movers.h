#pragma once
// The movers of a parsed .map (the model in movers/mover.h): which brush entities move and
// how, by the rules of the map's game. Rules and defaults: docs/movers.md.
#include "io/map_file.h"
#include "movers/mover.h"

#include <optional>
#include <string_view>

namespace shallot {

// The kind of brush entity `classname` (any case) is in `game`: a mover or a static object;
// nothing for the world's own (worldspawn, func_group, func_detail*) and for triggers.
std::optional<MoverKind> moverKindOf(Game game, std::string_view classname);

// Every brush entity of `map` that moveKindOf names, in file order, for map.game: its
// brushes, motion, timing, spawn state, keys and links. Never throws on odd keys: a value
// that is not a finite number gets the game's default and a note. Linear in the entities
// (door links through a grid, train chains followed once each).
LevelMovers buildMovers(const MapFile& map);

} // namespace shallot

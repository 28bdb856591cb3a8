#pragma once
// The movers an .obsp stores (its MOVR section, io/obsp_format.h): the level's entities,
// which the mover model (movers/build_movers.h) and travel (movers/travel.h) read, and each
// mover's compiled tree (objects/level_objects.h), so that a query on the .obsp answers as
// on the .map it came from.
#include "io/map_file.h"
#include "objects/level_objects.h"

#include <optional>
#include <string>
#include <string_view>

namespace shallot {

struct ObspMovers {
    // Every entity of the level in file order (entity indices are kept), worldspawn
    // without its brushes (they are the compiled world), no patches; `game` is the one the
    // movers were built for.
    MapFile entities;
    LevelObjects level; // buildMovers(entities), each mover compiled for the tree's poses
};

// The movers of `map` for a tree of `poses` compiled inside `worldBounds` (as
// buildLevelObjects), with the entities to store.
ObspMovers obspMoversOf(const MapFile& map, const std::vector<Pose>& poses, const Aabb& worldBounds, int threads);

// The MOVR payload: the game's name (u32 length, bytes), the entities as .map text (u64
// length, bytes: writeMap), the mover count u32, then per mover its bounds (mins, maxs),
// bounding sphere centre and radius (10 x f64) and its tree as a whole .obsp image without
// optional sections (u64 length, bytes).
std::string obspMoversPayload(const ObspMovers& movers);

// Reads a MOVR payload for `tree` (the file's world tree): the entities must read as a
// .map, build exactly as many movers as there are trees, and every tree must read and
// have the world tree's poses. Nothing, with `error` set and `at` the payload offset,
// otherwise.
std::optional<ObspMovers> readObspMoversPayload(std::string_view payload, const BspTree& tree, std::string& error,
                                                size_t& at);

} // namespace shallot

#pragma once
// The checks movers make possible (issue 40): doors, plats and trains that never open or
// start, targets that name nothing, entities in a mover's way, and mover keys the games
// would misread. Problems in the spawn checks' form (check/spawn_checks.h), so that
// `shallot-cli check` and the Problems dock list them beside the others. Rules:
// docs/movers.md.
#include "check/spawn_checks.h"
#include "io/map_file.h"
#include "movers/entity_graph.h"
#include "movers/mover.h"
#include "world/entity_class.h"

#include <vector>

namespace shallot {

struct MoverCheckInput {
    const MapFile* map = nullptr;          // entities as in the file (required)
    const LevelMovers* movers = nullptr;   // buildMovers(*map) (required)
    const EntityGraph* graph = nullptr;    // buildEntityGraph(*map) (required)
    const EntityClassTable* classes = nullptr; // null: Quake's
};

// Every problem, ordered by entity index then kind (as checkSpawns orders its own):
//  - never_opens: a door group, secret door, plat or train that nothing can open or start
//    (its targetname named by no firing target of another entity, and no touch, shot or
//    key opens it), or a key door whose key the level never gives;
//  - missing_target: a target key naming no entity (one per entity and key);
//  - blocked: a monster, item or player start whose box is in a mover's swept volume (a
//    rider on top of a plat or train that goes up is carried, not blocked);
//  - bad_mover: what buildMovers noted (a key that is not a number, a train with no path).
// A mover's problem has its bounds' centre at the file position as "origin" and its box;
// a blocked entity its own origin and box, with the mover in `entities`.
std::vector<SpawnProblem> checkMovers(const MoverCheckInput& input);

// Convenience: builds the movers and the graph of `map` and checks them.
std::vector<SpawnProblem> checkMovers(const MapFile& map, const EntityClassTable* classes = nullptr);

// A MapFile of a document's entities (DocumentData::entities: entities[i] is entity i + 1),
// with worldspawn as entity 0 so that indices match the file's: its keys `worldKeys`
// (DocumentData::worldKeys: minlight, sunlight...), "classname" "worldspawn" added when
// they lack it; no brushes.
MapFile mapOfDocumentEntities(const std::vector<MapEntity>& entities, Game game,
                              const std::vector<std::pair<std::string, std::string>>& worldKeys = {});

// Appends `more` to `problems` and orders them all by entity index then kind.
void mergeProblems(std::vector<SpawnProblem>& problems, std::vector<SpawnProblem> more);

} // namespace shallot

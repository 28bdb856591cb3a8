#pragma once
#include "io/map_file.h"
#include "world/world.h"

#include <string>
#include <vector>

namespace shallot {

struct MapWorldOptions {
    bool includeDetail = true;         // func_detail* brushes
    bool includeOtherEntities = false; // doors, lifts, triggers, func_wall... (movable models)
};

// The static world of a map: brushes of worldspawn, func_group and (optionally) func_detail*,
// with Quake's three poses. func_detail_illusionary brushes are non-solid.
World worldFromMap(const MapFile& map, const MapWorldOptions& options = {});

// An entity placed at a point (info_player_start, lights, monsters...).
struct PointEntity {
    std::string classname;
    Vec3 origin = Vec3::Zero();
    int line = 0; // of the entity's opening brace
};

// Entities with no brushes and a valid "origin" ("x y z"); others are skipped.
std::vector<PointEntity> pointEntities(const MapFile& map);

} // namespace shallot

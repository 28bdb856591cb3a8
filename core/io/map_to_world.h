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

// The static world of a map: brushes of worldspawn, func_group and (optionally) func_detail*.
// Brushes of illusionaryEntity classes are non-solid. Poses: the map's game's (gamePoses
// of MapFile::game), unless worldspawn has keys "_shallot_pose1", "_shallot_pose2"... =
// "NAME MINX MINY MINZ MAXX MAXY MAXZ [BLOCKING]" where BLOCKING is a contents set
// ("solid+monsterclip", parseContents; without it, defaultBlocking). Quake tools ignore
// keys starting with '_'. A malformed pose key is skipped with a message in `warnings`
// ("file:line: ...").
World worldFromMap(const MapFile& map, const MapWorldOptions& options = {},
                   std::vector<std::string>* warnings = nullptr);

// Per brush of `world`, whether it is detail: of a func_detail* entity or with Quake 2's
// detail contents. A brush's source.entity numbers the map file's entities (worldspawn 0);
// `entities` holds them from number `firstNumber` on (a map file's from 0; a document's,
// without worldspawn, from 1). The PVS leaves detail out of its clusters (sight_pvs.h).
std::vector<bool> detailBrushes(const World& world, const std::vector<MapEntity>& entities, int firstNumber);

// The worldspawn key naming the n-th pose (1-based).
std::string poseKey(int n);

// An entity placed at a point (info_player_start, lights, monsters...).
struct PointEntity {
    std::string classname;
    Vec3 origin = Vec3::Zero();
    int line = 0; // of the entity's opening brace
};

// Entities with no brushes and a valid "origin" ("x y z"); others are skipped.
std::vector<PointEntity> pointEntities(const MapFile& map);

} // namespace shallot

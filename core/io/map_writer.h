#pragma once
// Quake .map export, the inverse of map_reader.h and map_to_world.h.
#include "io/map_file.h"
#include "world/world.h"

#include <string>
#include <utility>
#include <vector>

namespace shallot {

// Written for a side without a texture (drawn in the editor, imported from a mesh):
// TrenchBroom's name for "no texture".
inline constexpr const char* kDefaultMapTexture = "__TB_empty";
// Written for a side without texture parameters: no offset or rotation, scale 1.
inline constexpr const char* kDefaultStandardTextureParams = "0 0 0 1 1";
inline constexpr const char* kDefaultValveTextureParams = "[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1";

// The .map text of `map`, headed by its game and format (TrenchBroom's comment lines):
// entities and their keys in order, then their brushes (brushDef when map.quake3Brushes)
// and patches, one face
// line per side. A side with its three points (hasPoints) writes them when they give its
// plane (kMapPointPlaneMatch); else facePoints (world/map_points.h): three vertices of its
// face rounded to integers when that keeps the plane, else integral points of its plane
// near the face, else the face's vertices without integer noise. Coordinates are written as
// integers when integral, else as the shortest decimals that read back to the same double,
// never with an exponent (world/number_text.h). The editor's edits keep every side's plane
// the one its points give (settleSideOnPoints), so what they make reads back bit for bit. textureParams are written verbatim, or the default of the map's format
// (map.valve220) when empty. A '"' in a key, value or texture name becomes '\'' and a line
// break a space: the format cannot hold them.
std::string writeMap(const MapFile& map);

using MapKeyValues = std::vector<std::pair<std::string, std::string>>;

// A level as a MapFile for writeMap, the inverse of worldFromMap:
//  - Entity 0 is worldspawn with `worldKeys` (a "classname" "worldspawn" is put first
//    when missing); then `entities` in order.
//  - Each brush of world.brushes goes to the entity numbered Brush::source.entity, where
//    worldspawn is 0 and entities[i] is i + 1; any other number (-1 for brushes made in
//    the editor) means worldspawn. Entities' own brushes (doors, triggers: not part of the
//    static world) follow. So brushes that worldFromMap copies into the world (func_group,
//    func_detail) must not also be kept in their entity, or they are written twice.
//  - Poses go to worldspawn keys "_shallot_poseN" unless they are the game's own (boxes,
//    blocking sets and navigation settings, the last as "step=24 ..." fields). Existing
//    pose keys are kept as they are when they still describe world.poses; otherwise
//    they are replaced at the place of the first one. Pose colours are not written.
//  - The result is Valve 220 when worldspawn has "mapversion" "220" or a side's texture
//    parameters are in Valve form.
//  - `game` heads the file ("// Game: Quake 2") and decides which poses need no keys (its
//    own, gamePoses); `quake3Brushes` writes brushes as Quake 3 brushDef. Entities'
//    patches are written back verbatim after their brushes.
//  - A world brush whose contents its sides do not say in `game` gets sides that do
//    (setSidesToContents, io/game_contents.h): texture names in Quake, Half-Life and Quake 3,
//    CONTENTS FLAGS VALUE in Quake 2 (set on every side, added after the texture parameters
//    when absent). A set the game cannot hold is written as the nearest it can
//    (writableContents). Brushes whose sides already say their contents, and those of
//    illusionary entities, are written as they are.
// Not written, since .map cannot hold them: world.bounds, excludedPoses, and contents the
// game cannot hold (above).
MapFile mapFromWorld(const World& world, const MapKeyValues& worldKeys, const std::vector<MapEntity>& entities,
                     Game game = Game::Quake, bool quake3Brushes = false);

} // namespace shallot

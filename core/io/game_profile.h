#pragma once
// The games whose .map files Shallot reads, each with its default poses and what blocks
// them (docs/games.md). The contents rules are in io/game_contents.h.
#include "world/pose.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shallot {

struct MapFile;

enum class Game { Quake, Quake2, HalfLife, Quake3 };

// "quake", "quake2", "halflife", "quake3".
const char* gameName(Game game);
// The inverse of gameName, or nothing.
std::optional<Game> parseGame(std::string_view name);
// The name TrenchBroom writes in its "// Game: NAME" header line ("Quake 2").
const char* gameTitle(Game game);

// The game a parsed .map was made for, from its text alone:
//  - TrenchBroom's "// Game: Quake" / "Quake 2" / "Half-Life" / "Quake 3" header line;
//  - else any brushDef or patchDef2: Quake 3;
//  - else any face ending in three integers CONTENTS FLAGS VALUE: Quake 2;
//  - else Valve 220 faces and a worldspawn "wad" key: Half-Life;
//  - else Quake.
Game detectGame(const MapFile& map);

// The game's default poses, each with its blocking set (Quake's and Half-Life's leave it
// unset: their `clip` rule is the default one, defaultBlocking).
std::vector<Pose> gamePoses(Game game);

// The blocking set a pose without one gets in `game` (a `--pose` given only a box): the
// game's point pose's set for a point, else its player's.
BrushContents gameDefaultBlocking(Game game, bool isPoint);
// Gives a pose without a blocking set gameDefaultBlocking when that is not the default
// rule already (Quake 2, Quake 3).
void applyGameBlocking(Game game, Pose& pose);

} // namespace shallot

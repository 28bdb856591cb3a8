#pragma once
#include "io/game_profile.h"
#include "world/brush.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shallot {

// A problem the reader worked around (the map still loaded), e.g. a dropped degenerate face.
struct MapWarning {
    int line = 0;   // 1-based
    int column = 0; // 1-based, in bytes
    std::string message; // starts with "file:line:column: "
};

// One entity of a .map: its key/value pairs in file order and its brushes.
struct MapEntity {
    std::vector<std::pair<std::string, std::string>> keys;
    std::vector<Brush> brushes;
    int line = 0; // 1-based line of the entity's opening brace
    // Quake 3 patchDef2 (and other non-brush primitives) verbatim, "{\npatchDef2\n...}":
    // kept to be written back, left out of collision.
    std::vector<std::string> patches = {};

    // The value of "classname", or "" when absent.
    std::string classname() const;
    // The value of `key` (the last one when repeated, as Quake's entity parser does), or null.
    const std::string* value(std::string_view key) const;
    // "origin" as three finite numbers (parseEntityVector), or nothing.
    std::optional<Vec3> origin() const;
};

// A parsed Quake .map file: plain data, as close to the text as is useful.
struct MapFile {
    std::string file;                  // the name it was read under, for messages
    std::vector<MapEntity> entities;   // entity 0 is normally worldspawn
    bool valve220 = false;             // worldspawn "mapversion" "220" or any Valve 220 face
    bool quake3Brushes = false;        // brushes written as Quake 3 "brushDef { ... }"
    std::string headerGame;            // NAME of a leading "// Game: NAME" line (TrenchBroom's)
    Game game = Game::Quake;           // the game its contents were read for (detectGame or given)
    std::vector<MapWarning> warnings;
};

} // namespace shallot

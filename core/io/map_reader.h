#pragma once
#include "io/map_file.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace shallot {

// Limits that keep hostile input from exhausting memory.
inline constexpr std::size_t kMaxMapTokenBytes = std::size_t(1) << 20;    // one string, name or number
inline constexpr std::size_t kMaxMapFileBytes = std::size_t(512) << 20;   // readMapFile only
inline constexpr std::size_t kMaxBrushSides = 1024;

// Why a .map could not be read. line/column are 1-based (column in bytes); 0 when unknown.
struct MapError {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;

    // "file:line:column: message" (or "file: message" without a position).
    std::string format() const;
};

// Either a parsed map or the first error.
struct MapReadResult {
    std::optional<MapFile> map; // set on success
    MapError error;             // meaningful only when !map

    bool ok() const { return map.has_value(); }
};

// Parses .map text: Quake standard or Valve 220 faces, with Quake 2's CONTENTS FLAGS VALUE,
// and Quake 3's brushDef brushes (patchDef2 patches are kept verbatim in their entity,
// with one warning for the file). Brush contents follow `game`'s rules, or those of the
// game detectGame finds when none is given (MapFile::game says which). `fileName` is used
// in messages and brush source locations only.
MapReadResult readMap(std::string_view text, const std::string& fileName, std::optional<Game> game = std::nullopt);
// Reads and parses the file at `path`.
MapReadResult readMapFile(const std::string& path, std::optional<Game> game = std::nullopt);

} // namespace shallot

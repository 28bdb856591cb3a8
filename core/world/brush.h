#pragma once
#include "geometry/plane.h"
#include "world/contents.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shallot {

// Where a brush came from, for messages: "e1m1.map:120: brush 7 of entity 0 ...".
struct SourceLocation {
    std::string file;
    int line = 0;   // 1-based line of the brush's opening brace; 0 when not from a file
    int entity = -1;
    int brush = -1; // index within its entity
};

// One bounding plane of a brush, with what a .map needs to write it back.
struct BrushSide {
    Plane plane;                       // outward normal: the solid is behind it
    std::array<Vec3, 3> points{};      // the three points it was defined by (when from a .map)
    bool hasPoints = false;
    std::string texture;
    std::string textureParams;         // the rest of the .map face line, verbatim
    int line = 0;
    // Quake 2 and Quake 3 faces end with "CONTENTS FLAGS VALUE" (also kept verbatim in
    // textureParams); the brush's contents are derived from them (io/game_contents.h).
    struct SurfaceFlags {
        uint32_t contents = 0;
        uint32_t flags = 0;
        int32_t value = 0;
        bool operator==(const SurfaceFlags&) const = default;
    };
    std::optional<SurfaceFlags> surface = {};
    // Quake 3 brushDef: the texture matrix "( ( a b c ) ( d e f ) )", written before the
    // texture name; empty for other dialects.
    std::string textureMatrix = {};
};

// A convex brush: the intersection of the half-spaces behind its sides.
struct Brush {
    std::vector<BrushSide> sides;
    BrushContents contents = BrushContents::Solid; // a set: blocks() in world/world.h
    // Poses this brush does not block, by name, on top of what `contents` says (a brush
    // that only stops large monsters excludes the smaller poses).
    std::vector<std::string> excludedPoses;
    SourceLocation source;

    // A convenience for code and tests that build brushes from planes.
    static Brush fromPlanes(const std::vector<Plane>& planes);
    // The axis-aligned box [mins, maxs] as a brush.
    static Brush box(const Vec3& mins, const Vec3& maxs);
    // Describes the brush for messages: "file:line: brush B of entity E" or "brush N".
    std::string describe(int indexInWorld) const;
};

// The same planes, bit for bit, side by side: what a compile sees of a brush (its textures,
// points and contents aside). Tools use it to tell whether a drag changed anything.
bool samePlanes(const Brush& a, const Brush& b);

} // namespace shallot

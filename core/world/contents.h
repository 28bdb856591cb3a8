#pragma once
// What a brush is made of, as a set: Shallot's own bits (each game's numbers and texture
// names are mapped onto them when a .map is read, io/game_contents.h). A pose is blocked
// by a brush when the pose's blocking set and the brush's contents share a bit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shallot {

enum class BrushContents : uint32_t {
    NonSolid = 0,             // the empty set: blocks nothing (kept for display and export)
    Solid = 1u << 0,
    Clip = 1u << 1,           // Quake's and Half-Life's `clip`: the hulls, not the point
    Window = 1u << 2,
    PlayerClip = 1u << 3,
    MonsterClip = 1u << 4,
    BotClip = 1u << 5,
    Lava = 1u << 6,
    Slime = 1u << 7,
    Water = 1u << 8,
    Mist = 1u << 9,
    Ladder = 1u << 10,
    Detail = 1u << 11,
    Trigger = 1u << 12,
};

constexpr BrushContents operator|(BrushContents a, BrushContents b) {
    return BrushContents(uint32_t(a) | uint32_t(b));
}
constexpr BrushContents operator&(BrushContents a, BrushContents b) {
    return BrushContents(uint32_t(a) & uint32_t(b));
}
constexpr BrushContents withoutContents(BrushContents a, BrushContents b) {
    return BrushContents(uint32_t(a) & ~uint32_t(b));
}
constexpr bool intersects(BrushContents a, BrushContents b) { return (a & b) != BrushContents::NonSolid; }

// What blocks a pose (or a box) that names no blocking set: solid and window, and Quake's
// `clip` too unless the box is a point (Quake's hulls and point hull, as before sets).
constexpr BrushContents defaultBlocking(bool isPoint) {
    const BrushContents solid = BrushContents::Solid | BrushContents::Window;
    return isPoint ? solid : solid | BrushContents::Clip;
}

// Lower-case names joined by '+' in bit order ("solid+detail"); "nonsolid" for none.
std::string contentsName(BrushContents contents);
// The inverse of contentsName; any order, case-sensitive. Nothing for an unknown name,
// an empty part, or "nonsolid" joined with others.
std::optional<BrushContents> parseContents(std::string_view text);
// Every name parseContents takes, for messages: "solid, clip, window, ...".
std::string contentsNameList();

} // namespace shallot

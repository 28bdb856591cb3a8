#pragma once
// What each game's brushes are made of, from the .map alone (no texture files or shader
// scripts are read): texture names for Quake and Half-Life, the face's CONTENTS FLAGS
// VALUE for Quake 2, shader names for Quake 3 (docs/games.md has the tables).
#include "io/game_profile.h"
#include "world/brush.h"

#include <string_view>

namespace shallot {

// Quake 2's numbers (qfiles.h), which Quake 2 faces carry.
namespace quake2 {
inline constexpr uint32_t kSolid = 0x1, kWindow = 0x2, kAux = 0x4, kLava = 0x8, kSlime = 0x10, kWater = 0x20,
                          kMist = 0x40, kPlayerClip = 0x10000, kMonsterClip = 0x20000, kDetail = 0x8000000,
                          kLadder = 0x20000000;
inline constexpr uint32_t kSurfTrans33 = 0x10, kSurfTrans66 = 0x20, kSurfHint = 0x100, kSurfSkip = 0x200;
} // namespace quake2

// The contents of a brush of `game` from its sides.
//  - Quake: any side's texture starting with '*' (liquids): non-solid; any `clip` side:
//    Clip; every side `skip`, or a `hint` side with the rest `skip`: non-solid; else Solid.
//  - Half-Life: as Quake, with '!' liquids too, `CLIP`, `NULL` solid, `SKIP`/`HINT` as Quake.
//  - Quake 2: the first side's CONTENTS, as Quake 2's qbsp reads them (see the .cpp).
//  - Quake 3: the union of its sides' shader contents (common/clip...).
BrushContents brushContents(Game game, const Brush& brush);

// The contents nearest `contents` that the sides of a brush of `game` with `sides` sides
// can say, which setSidesToContents writes (docs/games.md, "Contents written"):
//  - Quake, Half-Life: one of solid, clip, lava, slime, water, nonsolid. Solid when the
//    set holds solid, window, detail or ladder; else clip when it holds any clip; else
//    lava, slime or water (in that order); else nonsolid (mist, trigger, none).
//  - Quake 2: every set of its ten bits; clip becomes playerclip+monsterclip, botclip
//    monsterclip, trigger nothing.
//  - Quake 3: clip becomes playerclip, monsterclip botclip, and window, detail and ladder
//    solid; then the first `sides` of its eight contents in bit order (a shader per side).
// Every set brushContents gives is its own nearest.
BrushContents writableContents(Game game, BrushContents contents, size_t sides);

// Changes `brush`'s sides as little as needed for brushContents(game, brush) to give
// writableContents(game, brush.contents, ...); false, and nothing changed, when it already
// does. Texture names for Quake, Half-Life and Quake 3; for Quake 2 `surface` (set on every
// side), and the caller writes the fields into textureParams. See docs/games.md.
bool setSidesToContents(Game game, Brush& brush);

// A Quake 2 face's CONTENTS FLAGS VALUE: its own, or its texture's defaults without them.
BrushSide::SurfaceFlags quake2Fields(const BrushSide& side);

// A Quake 3 shader's contents by its name (NonSolid for hint, skip...).
BrushContents quake3ShaderContents(std::string_view texture);

// Brush entities whose brushes never block in `game`, whatever their textures say
// (func_detail_illusionary; Half-Life's func_illusionary and func_water).
bool illusionaryEntity(Game game, std::string_view classname);

} // namespace shallot

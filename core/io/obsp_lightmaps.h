#pragma once
// The LITE section of a .obsp (obsp_format.h): a level's lit faces and their lightmaps
// (light/level_light.h), enough to answer the light query op without the .map.
//
// Payload (little-endian): face count u32, then per face:
//   plane: normal 3 x f64, dist f64; texture: length u32 (at most kObspMaxTextureName),
//   bytes; flags u8 (1 lightmapped, 2 outside); projection: s axis 3 x f64, s offset f64,
//   t axis 3 x f64, t offset f64; vertex count u32 (3 to kObspMaxFaceVertices), vertices
//   3 x f64 each; style count u8; when it is not 0: grid mins s, t i32, grid size s, t u32
//   (width = size + 1), then per style: style u8 (0-254, each once), width * height
//   light bytes, width * height * 3 colour bytes (r, g, b).
#include "light/level_light.h"

#include <optional>
#include <string>
#include <string_view>

namespace shallot {

inline constexpr uint32_t kObspMaxTextureName = 1024;
inline constexpr uint32_t kObspMaxFaceVertices = 65536;

// The payload of `lighting`'s faces and lightmaps.
std::string lightmapPayload(const LevelLighting& lighting);

// Reads a payload; nothing, with `error` set ("face N: ..." and the payload offset in
// `errorAt`), when it is malformed. Every count is checked against the payload before
// anything is allocated.
std::optional<LevelLighting> readLightmapPayload(std::string_view payload, std::string& error, size_t& errorAt);

} // namespace shallot

#pragma once
// The light the engine reads at a point of a face: bilinear over the four luxels around it
// on the face's luxel grid (GLQuake's filtered lightmap texture), style 0.
#include "light/level_light.h"

#include <optional>
#include <string>

namespace shallot {

// A point is on a face when within this distance of its plane and of its polygon (the
// lighting helpers' contract: the .bsp's faces and ours are cut differently).
inline constexpr double kLookupDistance = 0.5;
// ... and when the query's normal is within this angle of the face's (cosine of 1 degree).
inline constexpr double kLookupNormalCos = 0.99984769515639127;

struct LightReading {
    double light = 0;             // 0-255
    Vec3 color = Vec3::Zero();    // 0-255 per channel
    int face = -1;
};

// The reading at `p` on a face facing `normal` (unit), or nothing with `error` set (on no
// face, or on one without a lightmap: sky, liquid, or left unlit).
std::optional<LightReading> readLight(const LevelLighting& lighting, const Vec3& p, const Vec3& normal, std::string& error);

// The bilinear value of style 0 at texture coordinates (s, t) of a lit face's lightmap.
LightReading bilinearLight(const FaceLightmap& map, double s, double t);

} // namespace shallot

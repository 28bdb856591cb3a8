#pragma once
// The lightmaps of a compiled Quake level (.bsp), read as the engine reads them (issue #41:
// Shallot's light against id's and ericw-tools' `light`; docs/lighting_vs_quake.md).
// Written from the file format: BSP29, BSP2 and 2PSB; a .lit beside the .bsp (QLIT 1)
// gives the colour; the world's leaves (io/quake_bsp_reader) tell which faces are liquid
// surfaces.
//
// Each face's lightmap is a grid of luxels 16 texels apart in its texture space, placed as
// the engine's CalcSurfaceExtents places it: s = dot(v, s_axis) + s_offset over the face's
// vertices (summed in double, kept as a float), texturemins = floor(min s / 16) * 16,
// extents = ceil(max s / 16) * 16 - texturemins, (extents >> 4) + 1 luxels across, luxel
// (i, j) at s = texturemins_s + 16 i, t = texturemins_t + 16 j. The engine's filtered
// lightmap texture reads the bilinear blend of the four luxels around a point.
#include "geometry/plane.h"
#include "io/quake_bsp_reader.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shallot {

// texinfo flag: a surface without a lightmap (sky, liquids; bspfile.h TEX_SPECIAL).
inline constexpr uint32_t kQuakeTexSpecial = 1;
// A face's light style slot that is unused (bspfile.h: styles[i] == 255 ends the list).
inline constexpr uint8_t kQuakeNoStyle = 255;
inline constexpr int kQuakeMaxLightmaps = 4;
// Luxel spacing in texels (the engine's lightmap scale).
inline constexpr int kQuakeLuxelTexels = 16;
// Largest texture coordinate a face's vertex may have (hostile input: luxel counts stay
// far inside int; engines refuse faces of more than a few hundred texels of extent, but
// the reader need not: a face's lightmap is checked against the lighting lump instead).
inline constexpr double kQuakeMaxTextureCoordinate = double(1 << 24);

// Largest file the reader accepts (hostile input: never read a huge file whole).
inline constexpr std::size_t kMaxQuakeLightmapBspBytes = std::size_t(512) << 20;

// A point's distance from a face's plane, the angle between normals and a point's distance
// outside the polygon that still count as "on the face" (the light op's contract,
// docs/lighting_vs_quake.md).
inline constexpr double kQuakeFacePlaneTolerance = 0.5;
inline constexpr double kQuakeFaceNormalMinCos = 0.99985; // cos(1 degree)
inline constexpr double kQuakeFaceEdgeTolerance = 0.5;
// How far in front of and behind a face its sides' leaves are looked up: less than the
// thinnest brush a compiler keeps, more than float rounding.
inline constexpr double kQuakeFaceSideProbe = 0.25;

struct QuakeTexinfo {
    Vec3 sAxis = Vec3::Zero(), tAxis = Vec3::Zero();
    double sOffset = 0.0, tOffset = 0.0;
    int32_t miptex = -1;
    uint32_t flags = 0;
};

struct QuakeLightmapFace {
    Vec3 normal = Vec3::Zero(); // the face's front (the plane's normal, flipped when side != 0)
    double dist = 0.0;          // normal . p == dist on the face
    std::vector<Vec3> polygon;  // its vertices in the file's order
    // The polygon without the vertices where it runs straight on or turns back on itself
    // (qbsp's T-junction fixes leave both): the convex outline the point tests and the
    // random points use.
    std::vector<Vec3> outline;
    int32_t texinfo = 0;
    std::array<uint8_t, kQuakeMaxLightmaps> styles{kQuakeNoStyle, kQuakeNoStyle, kQuakeNoStyle, kQuakeNoStyle};
    int32_t lightofs = -1;      // byte offset of its first lightmap in the lighting lump; -1: none
    std::array<int, 2> textureMins{0, 0}; // texturemins (s, t), multiples of 16
    std::array<int, 2> extents{0, 0};     // in texels, multiples of 16
    int luxelsWide = 0, luxelsHigh = 0;   // (extents >> 4) + 1
    bool worldModel = false;              // one of the world model's faces (model 0)
    // The contents of the world's leaves just in front of and behind the face (at its
    // polygon's centre, kQuakeFaceSideProbe away), kQuakeContentsSolid for other models' faces.
    int32_t frontContents = kQuakeContentsSolid, backContents = kQuakeContentsSolid;

    // Where this face's style-`slot` lightmap starts in the lighting lump, -1 if none.
    int64_t lightmapOffset(int slot) const;
    // The slot holding style 0 (the steady light), -1 if the face has none.
    int styleZeroSlot() const;
};

// What the engine reads on a face at a point: the bilinear blend of the four luxels around
// it, on Quake's 0-255 lightmap scale (style 0; 0 where the face has no lightmap).
struct QuakeLightSample {
    int32_t face = -1;
    double light = 0.0;               // the lighting lump's byte (the grey lightmap)
    std::array<double, 3> color{0, 0, 0}; // the .lit's bytes; the grey value thrice without one
};

// A random point on a lit face, for the comparisons.
struct QuakeSurfacePoint {
    Vec3 position = Vec3::Zero();
    Vec3 normal = Vec3::Zero();
    int32_t face = -1;
};

class QuakeBspLightmaps {
public:
    std::string format;                 // "BSP29", "BSP2" or "2PSB"
    std::vector<QuakeTexinfo> texinfos;
    std::vector<std::string> textureNames; // per miptex; "" where the .bsp stores none
    std::vector<QuakeLightmapFace> faces;
    std::vector<uint8_t> lighting;      // the lighting lump, one byte per luxel
    std::vector<uint8_t> litColors;     // the .lit's RGB per lighting byte; empty without one

    bool hasColor() const { return !litColors.empty(); }
    // The face's texture name, "" when the .bsp stores none.
    const std::string& textureName(const QuakeLightmapFace& face) const;
    // Sky or liquid: the texinfo's special flag, a name the engine treats so ("sky...",
    // "*..."), or a face between a sky leaf and another, or between a liquid leaf and one that
    // is not solid (a liquid's surface seen from either side; compilers that found no
    // texture write neither flags nor names, and may light liquids).
    bool isSkyOrLiquid(const QuakeLightmapFace& face) const;
    // A world face the comparison samples: not sky or liquid, with a style-0 lightmap.
    bool isLitWorldFace(const QuakeLightmapFace& face) const;

    // The world face whose plane holds p within kQuakeFacePlaneTolerance, whose front is
    // within 1 degree of `normal` (kQuakeFaceNormalMinCos) and whose polygon holds p within
    // kQuakeFaceEdgeTolerance (its outline); where several do (on a shared edge) the one p is
    // deepest in.
    // -1 when none.
    int32_t findWorldFace(const Vec3& p, const Vec3& normal) const;
    // The value the engine reads on face `face` at p (p on its plane).
    QuakeLightSample sample(int32_t face, const Vec3& p) const;
    // Where p falls on the face's luxel grid: luxel (i, j) at (i, j), clamped to the grid.
    std::array<double, 2> luxelCoordinates(int32_t face, const Vec3& p) const;
    // The style-0 byte of luxel (i, j) of the face (clamped to its grid); 0 without one.
    int luxel(int32_t face, int i, int j) const;
    // How deep p lies inside the face's outline: the least distance inside any of its
    // edges, negative outside (p taken on the face's plane).
    double depthInFace(int32_t face, const Vec3& p) const;
    // findWorldFace, then sample; nullopt when p is on no world face.
    std::optional<QuakeLightSample> sampleAt(const Vec3& p, const Vec3& normal) const;

    // `count` points spread uniformly by area over the lit world faces (isLitWorldFace),
    // the same for the same seed on every platform.
    std::vector<QuakeSurfacePoint> randomLitPoints(size_t count, uint64_t seed) const;
};

struct QuakeBspLightmapReadResult {
    std::optional<QuakeBspLightmaps> level;
    std::string error;
};

// `lit` is the .lit file's bytes, empty for none. Checks every count, offset and index
// against the buffers before use: a short or corrupt file gives an error, never a read
// out of bounds.
QuakeBspLightmapReadResult readQuakeBspLightmaps(std::span<const uint8_t> bsp, std::span<const uint8_t> lit = {});
// Reads `path` and, when it exists, the .lit beside it (same name, extension .lit).
QuakeBspLightmapReadResult readQuakeBspLightmapsFile(const std::string& path);

} // namespace shallot

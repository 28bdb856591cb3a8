#pragma once
// Quake 3 curved surfaces (patchDef2): the control grid read from a patch's .map text, and
// its triangles. Patches are drawn, never collided with (docs/games.md).
//
//   { patchDef2 { SHADER ( W H 0 0 0 ) ( ( (x y z u v) ... H points ... ) ... W rows ... ) } }
//
// A patch is a W x H grid (both odd, at least 3) of control points: (W-1)/2 x (H-1)/2
// biquadratic Bézier sub-patches of 3 x 3 points, neighbours sharing their edge points,
// as q3map2 reads it (W groups of H points in the text). patchDef3 (Doom 3 and Quake 4:
// seven numbers in the size group) is read the same way.
#include "geometry/aabb.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shallot {

// The largest control grid side read (q3map2 takes 31; a bound keeps a hostile file small).
inline constexpr int kMaxPatchSide = 65;

struct PatchDef {
    std::string shader;
    int width = 0;  // groups in the text
    int height = 0; // points in each group
    // Control points, points[w * height + h]: point h of group w.
    std::vector<Vec3> points;
    const Vec3& at(int w, int h) const { return points[size_t(w) * size_t(height) + size_t(h)]; }
};

// Where a patch's text is malformed, counted from the start of that text (1-based).
struct PatchError {
    int line = 0;
    int column = 0;
    std::string message;
};

struct PatchParseResult {
    std::optional<PatchDef> patch;
    PatchError error; // meaningful only when !patch
    bool ok() const { return patch.has_value(); }
};

// Reads one patch as the .map reader keeps it ("{ patchDef2 { ... } }", the outer braces
// optional). Never throws: a malformed patch gives its first error.
PatchParseResult parsePatchDef(std::string_view text);

// A patch's surface: a grid of `rows` x `columns` vertices (vertices[r * columns + c]),
// two triangles per cell. Columns run along the patch's groups (its width), rows along
// each group's points.
struct PatchMesh {
    int rows = 0;
    int columns = 0;
    std::vector<Vec3> vertices;
    Aabb bounds;
    const Vec3& at(int r, int c) const { return vertices[size_t(r) * size_t(columns) + size_t(c)]; }
    // Cell (r, c)'s two triangles, as vertex indices, (r, c) (r, c+1) (r+1, c+1) and
    // (r, c) (r+1, c+1) (r+1, c).
    std::vector<std::array<int, 3>> triangles() const;
};

// Each 3 x 3 sub-patch evaluated exactly on a `subdivisions` x `subdivisions` grid of
// cells (shared edges evaluated once). `subdivisions` is clamped to 1..64.
PatchMesh tessellatePatch(const PatchDef& patch, int subdivisions = 8);

// The point of sub-patch (sw, sh) at parameters (s along the width, t along the height),
// both in [0, 1]: the biquadratic Bézier of its 3 x 3 control points.
Vec3 patchPoint(const PatchDef& patch, int sw, int sh, double s, double t);

} // namespace shallot

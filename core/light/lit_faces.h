#pragma once
// The faces a Quake level shows, as its compiler (qbsp) leaves them for `light`: the
// outside of the union of the world's visible brushes (worldspawn, func_group,
// func_detail: a face inside another brush is gone), and each brush entity's own union
// (doors, lifts, func_wall...: lit, but they cast no shadow, as in id's light and
// ericw-tools' by default). Liquids, clip brushes and triggers show no lit face.
#include "io/map_file.h"
#include "geometry/aabb.h"
#include "geometry/polygon.h"
#include "light/texture_projection.h"
#include "world/world.h"

#include <string>
#include <vector>

namespace shallot {

struct LitFace {
    Polygon polygon;    // counter-clockwise seen from the front
    Plane plane;        // the front is where the face is seen from
    std::string texture;
    TextureProjection projection;
    int entity = -1;    // the brush entity (index in the entity list), -1 for the world
    int brush = -1;     // its brush: in World::brushes for the world, else in the entity's
    bool lightmapped = true; // false for sky and the tools' unlit names (lightmappedTexture)
    bool outside = false;    // faces the void around a sealed level (no lightmap: outside_faces.h)
};

// Whether the Quake tools give faces with this texture a lightmap: not sky ("sky..."),
// liquids ("*..."), nor clip, skip, hint, trigger or origin faces.
bool lightmappedTexture(const std::string& texture);

struct LitFaceSet {
    std::vector<LitFace> faces;
    std::vector<std::string> warnings; // faces left out (bad texture parameters), invalid brushes
};

// `worldBrushes`: the static world (World::brushes); `entities`: the level's entities,
// whose brushes other than worldspawn's, func_group's and func_detail*'s (already in the
// world) are brush entities. Trigger entities ("trigger_*") show nothing.
LitFaceSet collectLitFaces(const std::vector<Brush>& worldBrushes, const std::vector<MapEntity>& entities,
                           const Aabb& bounds, int threads);

} // namespace shallot

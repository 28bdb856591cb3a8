#pragma once
// The level's lit faces as the 3D view's Lit and Lightmap only shadings draw them (issue
// 41): each face cut at its luxel cells (16 texels of its texture space), every corner
// coloured by the light the engine reads there (bilinear over the luxels, light_lookup.h),
// so what is drawn between luxels is what GLQuake's filtered lightmap shows.
#include "light/level_light.h"
#include "mesh_batch.h"

#include <functional>

namespace shallot::render {

enum class LightShading {
    Flat,         // the head-light shaded brush colours (no lighting computed)
    Lit,          // light times the face's tint (its texture's, textureTint)
    LightmapOnly, // the light alone, in its colour
};

// Calls `visit` with each piece of `face` cut at the luxel lines of `grid` (the whole face
// when it spans less than one cell either way).
void forEachLuxelCell(const LitFace& face, const LuxelGrid& grid, const std::function<void(const Polygon&)>& visit);

// An unshaded batch (MeshBatch::lit false: the light is in the colours), no outlines.
// Faces without a lightmap (sky, liquids) are drawn in their tint at full brightness, as
// the engine draws them.
MeshBatch buildLitFaceBatch(const LevelLighting& lighting, LightShading shading);

} // namespace shallot::render

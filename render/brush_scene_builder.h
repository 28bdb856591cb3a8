#pragma once
// Brush faces and outlines as render batches.
#include "io/patch_mesh.h"
#include "mesh_batch.h"
#include "palette.h"
#include "world/brush.h"
#include "world/brush_geometry.h"

#include <memory>
#include <optional>
#include <vector>

namespace shallot::render {

// Brushes told apart by their contents: solid ones (textured), clip that stops players and
// hulls, clip that stops monsters and bots, and the rest that block no default pose
// (liquids, triggers, mist: non-solid).
enum class BrushKind { Solid, PlayerClip, MonsterClip, NonSolid };
BrushKind brushKind(BrushContents contents);
// Their colours, and Quake 3 patches' (curved surfaces: drawn, never collided with), are
// in palette.h.

// Colour of a brush's faces: a muted tint from its texture name for a solid brush, else its
// kind's colour above.
QColor brushColour(const Brush& brush);
// The muted tint a texture name gives solid brushes (the editor shows no textures).
QColor textureTint(const std::string& texture);

struct BrushBatches {
    MeshBatch faces, edges, selectedFaces, selectedEdges;
};

// `geometry[i]` is brush i's B-rep, or empty for an invalid brush (drawn nowhere).
// `selected` is sorted. The faces' leaf runs name brushes: the 3D view draws those near a
// leaf it sees once a compile of these brushes gives their sight (RenderScene::setBrushSight).
// `patches` (Quake 3 curved surfaces) are added as well: their cells shaded on both sides in
// kPatchColour with the faces (in no brush's run: always drawn) and their grid lines with
// the edges. They are not brushes: no selection, no picking, no collision.
BrushBatches buildBrushBatches(const std::vector<Brush>& brushes, const std::vector<std::shared_ptr<const BrushGeometry>>& geometry,
                               const std::vector<int>& selected, const std::vector<PatchMesh>& patches = {});

} // namespace shallot::render

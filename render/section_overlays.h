#pragma once
// The tree overlays of a 2D view as cross-sections: the level cut by the view's working
// plane (x[axis] = at), so the top view at standing height shows exactly where a standing
// player's reference point may be. Cells and reachability are filled where the plane cuts
// them; the expanded world, the open portals and the leak path are drawn as lines.
#include "tree_overlays.h"
#include "world/brush_geometry.h"

#include <memory>

namespace shallot::render {

// The brushes' cuts by the plane (kBrushCutColour): the walls at the working depth, bright
// over the dimmed outlines of every brush (kDimmedBrushOutlines).
inline constexpr float kDimmedBrushOutlines = 0.45f;

// Alpha of the filled sections: one layer of cells tiles the plane, so the fills do not
// stack up as the projected cells' faces do.
inline constexpr int kSectionAlpha = 80;

struct SectionOptions {
    int axis = 2;
    double at = 0.0;
    CellOverlayOptions cells; // pose, filter, colouring, highlighted leaf, greyed leaves
    bool cellsOn = false, portalsOn = false, unionOn = false;
    // Per leaf: reachable from outside the world box for the pose (drawn in kVoidColour
    // where the cell would be drawn empty); null: no void colour.
    const std::vector<bool>* voidLeaves = nullptr;
    // Per leaf: reached from the reach start (tinted kReachedColour); null: no reach.
    const std::vector<bool>* reached = nullptr;
    const std::vector<Vec3>* leakPath = nullptr;
    // Per leaf: in the PVS of the eye's leaf (tinted kVisibleColour); null: not shown.
    const std::vector<bool>* visible = nullptr;
    // Per leaf: its view weight, filled by viewWeightColour against viewWeightLimit (leaves
    // empty for the sight pose with a weight); null: not shown.
    const std::vector<uint32_t>* viewWeight = nullptr;
    uint32_t viewWeightLimit = 0;
    // The level's brushes (null entries for invalid ones), cut into outlines.
    const std::vector<std::shared_ptr<const BrushGeometry>>* brushes = nullptr;
};

struct SectionBatches {
    MeshBatch fills; // translucent triangles
    MeshBatch lines;
};

// The tree cut by the plane: each leaf's region (portal/leaf_sections.h) filled in its
// colour, and the lines above.
SectionBatches sectionOverlay(const BspTree& tree, const SectionOptions& options);

} // namespace shallot::render

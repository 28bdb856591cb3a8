#pragma once
// Everything the viewports draw, as CPU batches in named layers with version numbers:
// a viewport re-uploads a layer only when its version changed (render only what changed).
#include "mesh_chunks.h"
#include "portal/leaf_brushes.h"
#include "portal/leaf_visibility.h"

#include <array>
#include <cstdint>
#include <memory>

namespace shallot::render {

enum class Layer {
    BrushFaces,     // flat-shaded brush faces (3D)
    LitFaces,       // the level's faces in its light (3D; lit_face_batch.h), in their place
    BrushEdges,     // brush outlines (3D and 2D)
    SectionLinesX,  // the overlays cut by a 2D view's working plane (section_overlays.h):
    SectionLinesY,  // lines over the brush outlines and under the selection's, fills with
    SectionLinesZ,  // the other overlays; one layer per view axis, drawn in its view alone
    SelectedFaces,  // selection highlight
    SelectedEdges,
    LeafCells,      // overlays of the compiled tree (issue 7)
    Portals,
    UnionWire,
    Reach,
    Visible,        // the PVS of the eye's leaf (issue 39)
    ViewWeight,     // leaves by their view weight
    SectionFillsX,
    SectionFillsY,
    SectionFillsZ,
    Walkable,       // the current pose's walkable surfaces and links (nav_overlay.h)
    WalkableLinks,  // step, drop and jump arrows (3D only)
    WalkableTravel, // doors, rides, teleports and pushes (movers/travel.h), 2D and 3D
    TooDark,        // walkable floors lit under the dark limit (too_dark_batch.h)
    Quake3Refusals, // places Quake 3's capsule is refused where it fits (issue 42)
    MoverVolumes,   // where the level's movers go (mover_paths_batch.h): swept volumes
    MoverOutlines,  // and their stops and paths
    MoverSwept,     // each mover brush's swept volume (mover_state_batches.h), ghosted
    Agents,         // the agents walking while the movers play (their pose boxes)
    Rays,
    ToolPreview,    // what the active tool is drawing (box being dragged, clip plane...)
    EntityFaces,    // entity boxes and brush entities (3D)
    EntityEdges,    // their outlines (2D)
    EntitySelection,// the selected entities' boxes, bright (2D and 3D)
    ProblemPaths,   // leak paths of the spawn checks (2D and 3D)
    Count
};
inline constexpr size_t kLayerCount = size_t(Layer::Count);
inline constexpr Layer sectionFills(int axis) { return Layer(int(Layer::SectionFillsX) + axis); }
inline constexpr Layer sectionLines(int axis) { return Layer(int(Layer::SectionLinesX) + axis); }

// The base of a view, which it may keep as a picture while it stands still, and the rest,
// drawn over it every frame. In 3D the base is the opaque layers up to the selection
// outlines, which the tree overlays never change (the overlays are culled from the eye and
// blend over what is in front of them). In 2D, which has no depth, the base is the tree
// overlays: a 2D view of a large map's overlays takes 75-150 ms to draw (librequake_e3m4),
// too much for every move of a dragged ray or box, every selection and every brush edit.
// The brushes, the selection, the test rays and the tool's preview draw over them, so brush
// outlines stay sharp over the translucent cells; so do the sections' lines (a few thousand
// at most), which must show over the dimmed outlines of the brushes they cut.
enum class LayerGroup { Base, Rest };
inline constexpr bool inGroup(Layer l, bool translucent, LayerGroup group, bool view3d) {
    const bool base = view3d ? l <= Layer::SelectedEdges && !translucent : l >= Layer::LeafCells && l <= Layer::SectionFillsZ;
    return base == (group == LayerGroup::Base);
}

// How far from the camera the 3D view draws the tree overlays (world units).
inline constexpr double kOverlayRange3d = 2048.0;

// A layer's chunks, shared between the scene and whoever made them (the overlay worker
// compares its next chunks with these, chunkChanges).
using ChunkList = std::shared_ptr<const std::vector<MeshChunk>>;

// One change of a layer: where version `to` differs from version `from` (changes.boxes).
struct LayerChange {
    uint64_t from = 0, to = 0;
    std::vector<Aabb> boxes;
};
// Changes a layer remembers: a 2D view's picture a few versions behind (its new picture
// was being drawn in parts when the next edit came) is patched with their boxes together.
inline constexpr size_t kRememberedChanges = 8;

struct SceneLayer {
    ChunkList chunks;
    uint64_t version = 0;
    // How version `version` differs from version changedFrom(): its uploaded chunks that
    // changes.keptFrom names can stay (changes.boxes are recent.back().boxes).
    ChunkChanges changes;
    // The last changes, oldest first, each from the version before the next (empty after a
    // change from no known version).
    std::vector<LayerChange> recent;
    bool visible = true;
    bool in3d = true;
    bool in2d = true;
    // Colours are scaled by this in the 2D views (brush outlines dim behind the sections).
    float brightness2d = 1.0f;
    // A 2D layer drawn only in the view looking along this axis (-1: in every 2D view).
    int onlyAxis = -1;
    bool translucent = false; // drawn after opaque layers, blended, without depth writes
    // In the 3D view, chunks farther than this from the camera are not drawn (overlays of
    // a whole level are too much to draw at once; what matters is around the designer).
    double range3d = 0.0;     // 0: unlimited
    // In the 3D view, triangles seen from behind are not drawn. For closed solids (brushes)
    // those are hidden by the front faces anyway; culling them halves the rasterising.
    bool cullBackFaces = false;
    // The tree whose leaves the chunks' leaf runs name: the 3D view draws only the runs of
    // leaves seen from the camera. Null: everything is drawn.
    std::shared_ptr<const LeafVisibility> visibility;
    // Or the runs name brushes (the brush faces layer): the 3D view draws the runs of the
    // brushes near a leaf seen through `visibility`'s portals. Brush numbers change with
    // every edit and the sight only comes with the next compile, so it applies to the
    // chunks of layer version `sightVersion` alone; other versions are drawn whole.
    std::shared_ptr<const LeafBrushes> brushes;
    uint64_t sightVersion = 0;

    // Whether a view draws the layer (visible or not): a 3D view (viewAxis -1) or the 2D
    // view looking along viewAxis.
    bool drawnIn(int viewAxis) const { return viewAxis < 0 ? in3d : in2d && (onlyAxis < 0 || onlyAxis == viewAxis); }
    // The version this one changed from (0: from no known version).
    uint64_t changedFrom() const { return recent.empty() ? 0 : recent.back().from; }
    const std::vector<MeshChunk>& chunkList() const {
        static const std::vector<MeshChunk> none;
        return chunks ? *chunks : none;
    }
};

class RenderScene {
public:
    RenderScene();
    const SceneLayer& layer(Layer l) const { return layers_[size_t(l)]; }
    // Split into chunks here; what changed from the layer's current chunks is kept as for
    // setChunks (the unchanged chunks of an edited brush layer stay uploaded, and pictures
    // are patched where the others lie).
    void set(Layer l, MeshBatch batch);
    // Already split (on a worker); leaf runs in them name leaves of visibility's tree. When
    // `changedFrom` is the layer's current chunk list, `changes` (chunkChanges from it to
    // `chunks`) are kept as what the new version changed (SceneLayer::changes, recent).
    void setChunks(Layer l, ChunkList chunks, std::shared_ptr<const LeafVisibility> visibility = nullptr,
                   const std::vector<MeshChunk>* changedFrom = nullptr, ChunkChanges changes = {});
    // The brush sight (SceneLayer::brushes) of the layer's current chunks, whose runs name
    // the brushes `brushes` numbers. Changes nothing drawn, so no revision.
    void setBrushSight(Layer l, std::shared_ptr<const LeafVisibility> visibility, std::shared_ptr<const LeafBrushes> brushes);
    void setVisible(Layer l, bool visible);
    // Whether the 2D views draw the layer (the projected overlays give way to sections).
    void setIn2d(Layer l, bool in2d);
    void setBrightness2d(Layer l, float brightness);
    // Bumped on every change, so views know to repaint.
    uint64_t revision() const { return revision_; }

private:
    std::array<SceneLayer, kLayerCount> layers_;
    uint64_t revision_ = 0;
};

} // namespace shallot::render

#pragma once
// The heavy overlay layers (cells and reach, portals, expanded world) of one compiled world,
// built on a worker thread: whole, or only near what changed since the layers shown were
// drawn (render/overlay_update.h). OverlayController schedules the builds and shows them.
#include "services/compile_service.h"
#include "services/round_pose_drawing.h"
#include "overlay_update.h"
#include "portal/leaf_brushes.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "render_scene.h"

#include <array>
#include <iterator>
#include <memory>
#include <optional>

namespace shallot {

inline constexpr render::Layer kHeavyLayers[] = {render::Layer::LeafCells, render::Layer::Portals,
                                                 render::Layer::UnionWire, render::Layer::Reach};
inline constexpr size_t kHeavyLayerCount = std::size(kHeavyLayers);
using HeavyChunks = std::array<render::ChunkList, kHeavyLayerCount>; // in the order of kHeavyLayers

// What the heavy layers are drawn with.
struct HeavySettings {
    render::CellOverlayOptions cells; // pose set; `greyed` is filled by the build
    bool cellsOn = false, portalsOn = false, unionOn = false, reachOn = false, grey = false;
    std::optional<Vec3> reachStart;
    // Two builds with the same settings draw the same overlays of their trees; the reach
    // start may differ (the reach is compared leaf by leaf), and the highlighted leaf's
    // number means nothing in another tree.
    bool drawLike(const HeavySettings& o) const {
        const render::CellOverlayOptions &a = cells, &b = o.cells;
        return a.pose == b.pose && a.filter == b.filter && a.colouring == b.colouring &&
               a.includeOutside == b.includeOutside && a.highlightLeaf < 0 && b.highlightLeaf < 0 &&
               cellsOn == o.cellsOn && portalsOn == o.portalsOn && unionOn == o.unionOn && reachOn == o.reachOn &&
               grey == o.grey && reachStart.has_value() == o.reachStart.has_value();
    }
};

// What the heavy layers shown were drawn from.
struct DrawnHeavy {
    uint64_t serial = 0; // CompiledWorld::serial
    HeavySettings settings;
    render::OverlayLeafInputs inputs;
    HeavyChunks chunks;
};

struct HeavyJob {
    std::shared_ptr<const CompiledWorld> compiled;
    HeavySettings settings;
    // The layers shown, when this tree's leaves carry over from theirs (leafOfBase: per
    // leaf of base's tree, its leaf here) and they were drawn alike: drawn again only where
    // the leaves changed.
    std::shared_ptr<const DrawnHeavy> base;
    std::vector<int32_t> leafOfBase;
    HeavyChunks shown; // the scene's layers now, to say where the new ones differ
    // The tree's sight when an earlier build made it; else it is made, with the brushes near
    // each leaf when brushBoxes (the brushes the views show) are given.
    std::shared_ptr<const LeafVisibility> keptVisibility;
    std::shared_ptr<const LeafBrushes> keptBrushes;
    std::vector<Aabb> brushBoxes;
    // A round current pose's cells and expanded world (round_pose_drawing.h), drawn instead
    // of its bounding box's: reused when an earlier build made them for this compile and
    // pose, else made here; `roundCancel` (set by a newer edit) stops that.
    std::shared_ptr<const RoundPoseCells> keptRoundCells;
    std::shared_ptr<const RoundPoseSurface> keptRoundSurface;
    std::shared_ptr<RoundPoseMakers> roundMakers; // never null
    std::shared_ptr<const CancelToken> roundCancel;
};

struct HeavyBatches {
    std::shared_ptr<DrawnHeavy> drawn; // the new layers and what they were drawn from
    // Per layer: the chunks shown when the build started, and where the new ones differ
    // from them (chunkChanges), so that 2D views redraw only there in their pictures.
    HeavyChunks before;
    std::array<render::ChunkChanges, kHeavyLayerCount> changed;
    bool redrawnInPart = false;
    std::shared_ptr<const Flood> flood;
    std::shared_ptr<const LeafVisibility> visibility; // of the tree the layers were built from
    std::shared_ptr<const LeafBrushes> brushes;       // when built from the document's brushes
    std::shared_ptr<const RoundPoseCells> roundCells;     // when drawn for a round pose
    std::shared_ptr<const RoundPoseSurface> roundSurface;
};

// Throws CompileCancelled when job.roundCancel is set while a round pose's part is made.
HeavyBatches buildHeavyOverlays(HeavyJob job);

} // namespace shallot

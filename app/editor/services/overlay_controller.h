#pragma once
// Keeps the overlay layers of the render scene in step with the newest compiled tree, the
// current pose and the overlay settings. Heavy batches (cells, portals, reach) are built
// on a pool thread; a newer request makes older results be dropped. Test rays are traced
// for every pose after each compile (the rays dock shows the table).
#include "services/compile_service.h"
#include "services/heavy_overlays.h"
#include "portal/leaf_brushes.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "query/trace.h"
#include "services/nav_service.h"
#include "services/pvs_service.h"
#include "services/visibility_overlays.h"
#include "services/section_service.h"
#include "tree_overlays.h"

#include <QObject>
#include <optional>
#include <memory>
#include <set>

namespace shallot {

class Editor;

enum class Overlay { Cells, Portals, Union, Reach, Rays, Walkable, Visible, ViewWeight, TooDark, Quake3Capsule };

class OverlayController : public QObject {
    Q_OBJECT
public:
    explicit OverlayController(Editor& editor);

    bool isOn(Overlay o) const { return on_.count(o) > 0; }
    void setOn(Overlay o, bool on);
    render::CellFilter cellFilter() const { return cells_.filter; }
    void setCellFilter(render::CellFilter f);
    void setCellColouring(render::CellColouring c);
    render::CellColouring cellColouring() const { return cells_.colouring; }
    bool greyUnreachable() const { return greyUnreachable_; }
    // Fill outside: grey the cells that cannot be reached from the reach start (or, with
    // no start, the cells reachable from the void around the level).
    void setGreyUnreachable(bool on);
    void setHighlightLeaf(int leaf);
    // Where reachability floods from (and the leak is searched).
    void setReachStart(const Vec3& p);
    std::optional<Vec3> reachStart() const { return reachStart_; }
    // Another level opened: the reach start and the highlighted leaf were places in the
    // old one.
    void forgetPlaces();
    // Per ray, per pose trace results of the newest compile (empty before the first).
    const std::vector<std::vector<TraceResult>>& rayResults() const { return rayResults_; }
    const std::shared_ptr<const CompiledWorld>& compiled() const { return compiled_; }
    // A test ray as the ray layer draws it for the current pose in the newest tree: traced
    // (or, for a walking ray, moved with collide-and-slide), unless `traced` gives its trace.
    // Without a tree, the bare segment.
    render::RayDrawing rayDrawing(const Vec3& from, const Vec3& to, bool walk, const TraceResult* traced = nullptr) const;
    // Where a walking ray's collide-and-slide move from `from` towards `to` ends for `pose`
    // in the newest tree (nothing before the first compile).
    std::optional<Vec3> walkEnd(const Vec3& from, const Vec3& to, int pose) const;
    // The revision of the tree the overlay layers currently show (0: none yet).
    uint64_t shownRevision() const { return shownRevision_; }
    const Flood* lastFlood() const { return flood_.get(); }
    // Heavy rebuilds shown that drew only near what changed (overlay_update.h), for tests
    // and the benchmark.
    quint64 rebuiltInPart() const { return rebuiltInPart_; }
    // What the round current pose's overlays were last drawn from (null: not drawn, or the
    // pose is a box), for tests.
    const std::shared_ptr<const RoundPoseCells>& roundCells() const { return roundCells_; }
    const std::shared_ptr<const RoundPoseSurface>& roundSurface() const { return roundSurface_; }
    // The 2D views' cross-sections (on by default) or projections of the overlays.
    SectionService& sections() { return *sections_; }
    const SectionService& sections() const { return *sections_; }
    // Where each pose can walk, and the test rays' walking paths.
    const NavService& nav() const { return *nav_; }
    // The walking path for `pose` over the newest meshes built (nothing while there are
    // none for the pose yet: see requestNav).
    std::optional<TravelPath> walkingPath(const Vec3& from, const Vec3& to, int pose) const;
    // What the eye sees: the PVS of the newest compiles, and its overlays.
    const PvsService& pvs() const { return *pvs_; }
    // Whether the 3D view culls with the PVS once it is computed (on; off for comparisons:
    // the portal culling alone).
    void setPvsCulling(bool on);
    bool pvsCulling() const { return pvsCulling_; }
    VisibilityOverlays& visibility() { return *visibility_; }
    const VisibilityOverlays& visibility() const { return *visibility_; }
    // Builds the meshes of the newest tree when the Walkable overlay, a ray or the Path
    // tool needs them.
    void requestNav();
    // Gives the scene's brush faces the sight of the newest compile when it was made from
    // the brushes they show (render_scene.h: brush sight); call after rebuilding them.
    void applyBrushSight();
    // The same for the entities' faces, by their boxes: an entity near no leaf the camera
    // sees is not drawn (Quake's renderer culls its entities by their leaves too); call
    // after rebuilding them.
    void applyEntitySight();

signals:
    void raysTraced();
    void overlayToggled(Overlay overlay, bool on);
    // The cell filter, the cells' colouring or the greying of unreachable cells changed.
    void cellOptionsChanged();
    void overlaysUpdated(quint64 revision);

private:
    void onCompiled(std::shared_ptr<const CompiledWorld> result);
    // Cells, portals, union, reach: built on a pool thread, one build at a time. A change of
    // the settings (rebuildHeavy) drops the running build's result; a new compile
    // (requestHeavy) lets it be shown. Either draws the newest next.
    void rebuildHeavy();
    void requestHeavy();
    void startHeavy();
    void showHeavy(HeavyBatches& out, uint64_t revision, std::weak_ptr<const CompiledWorld> world);
    HeavySettings heavySettings() const;
    void requestSections(); // of the newest tree, with the settings and working point now
    // The 3D view's culling of the tree shown narrowed to its PVS, once that is computed.
    void applyPvsCulling();
    void rebuildNavLayers(); // the current pose's walkable surfaces, when shown
    void retraceRays();    // all rays, all poses
    void rebuildRays();    // the ray layer for the current pose

    Editor& editor_;
    SectionService* sections_;
    NavService* nav_;
    PvsService* pvs_;
    VisibilityOverlays* visibility_;
    std::shared_ptr<const CompiledWorld> compiled_;
    std::set<Overlay> on_{Overlay::Rays};
    render::CellOverlayOptions cells_;
    std::optional<Vec3> reachStart_;
    bool greyUnreachable_ = false;
    bool pvsCulling_ = true;
    std::vector<std::vector<TraceResult>> rayResults_;
    // What the Walkable overlay's layers show now (rebuildNavLayers).
    WalkableMeshKey navMeshDrawn_;
    WalkableTravelKey navTravelDrawn_;
    std::shared_ptr<const Flood> flood_;
    // The sight of compiled world sightWorld_ (revision sightRevision_): its leaf visibility,
    // which the overlay layers and the brush faces share, and which brushes the 3D view
    // draws (those near each leaf it sees; null unless compiled from the brushes shown).
    // Built on the overlay worker once per compiled world, kept for the rebuilds after it.
    std::weak_ptr<const CompiledWorld> sightWorld_;
    std::shared_ptr<const LeafVisibility> sightVisibility_;
    std::shared_ptr<const LeafBrushes> sightBrushes_;
    // The entities near each leaf of sightVisibility_'s tree, by the boxes they had then.
    std::shared_ptr<const LeafBrushes> entitySight_;
    std::vector<Aabb> entitySightBoxes_;
    std::shared_ptr<const LeafVisibility> entitySightOf_;
    uint64_t sightRevision_ = 0;
    quint64 settingsGeneration_ = 0;
    bool heavyRunning_ = false, heavyPending_ = false;
    uint64_t shownRevision_ = 0;
    // How the leaves of compile `from` carry over to compile `to` (0: they do not), through
    // the updates in between: per leaf of `from`, its leaf in `to` (empty when to == from).
    struct LeafCarry {
        uint64_t from = 0, to = 0;
        std::vector<int32_t> leaves;
        void follow(const CompiledWorld& next); // `next` compiled: carry on into it
    };
    // What the heavy layers shown were drawn from (overlay_update.h), and how that tree's
    // leaves carry over to compiled_. A rebuild with the same settings draws again only
    // where they changed; none without a carry (a compile from scratch, or updates of a
    // dropped one). buildingCarry_ does the same for the build running, which becomes
    // drawnCarry_ when it is shown.
    std::shared_ptr<const DrawnHeavy> drawn_;
    LeafCarry drawnCarry_, buildingCarry_;
    // A round current pose's cells and expanded world last drawn (round_pose_drawing.h),
    // kept for the next build of the same compile and for the sections; the running
    // build's round part stops when a newer edit starts a compile.
    std::shared_ptr<const RoundPoseCells> roundCells_;
    std::shared_ptr<const RoundPoseSurface> roundSurface_;
    std::shared_ptr<CancelToken> roundCancel_;
    std::shared_ptr<RoundPoseMakers> roundMakers_ = std::make_shared<RoundPoseMakers>();
    quint64 rebuiltInPart_ = 0;
};

} // namespace shallot

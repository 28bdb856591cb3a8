#pragma once
// The editor's shared state: the document, the brush geometry derived from it, the render
// scene every viewport draws, and the active tool. Views and docks talk to this.
#include "services/compile_service.h"
#include "services/nav_mesh_cache.h"
#include "document/editor_document.h"
#include "entity_scene_builder.h"
#include "io/patch_mesh.h"
#include "render_scene.h"
#include "world/brush_geometry.h"
#include "world/entity_class.h"

#include <QElapsedTimer>
#include <QObject>
#include <array>
#include <memory>
#include <unordered_map>
#include <optional>

namespace shallot {

class Tool;
class OverlayController;
class SpawnCheckService;
class LightService;
class TooDarkOverlay;
class Quake3CapsuleOverlay;
class MoverPaths;
class MoverStates;
class MoverPlay;

enum class ToolKind { Select, DrawBox, Clip, Ray, Inspect, Pose, Entity, Path };

class Editor : public QObject {
    Q_OBJECT
public:
    explicit Editor(QObject* parent = nullptr);
    ~Editor() override;

    EditorDocument& document() { return document_; }
    const EditorDocument& document() const { return document_; }
    render::RenderScene& scene() { return scene_; }
    const render::RenderScene& scene() const { return scene_; }
    CompileService& compiler() { return compiler_; }
    OverlayController& overlays() { return *overlays_; }
    const OverlayController& overlays() const { return *overlays_; }
    // Schedules a compile of the world as it is when the event loop next comes round (done
    // on every world change; changes in one pass of the loop share one compile).
    void scheduleCompile();
    // Milliseconds from the edit that made `revision` until now (-1 if unknown).
    double msSinceEdit(uint64_t revision) const;
    // B-rep of brush i, or empty when the brush is invalid.
    const std::vector<std::shared_ptr<const BrushGeometry>>& geometry() const { return geometry_; }
    // Why each invalid brush is invalid: (brush index, message).
    const std::vector<std::pair<int, QString>>& brushProblems() const { return brushProblems_; }
    // The level's Quake 3 patches tessellated (worldspawn's and other entities'; a patch
    // whose text does not parse is left out), drawn with the brushes, never collided with.
    const std::vector<PatchMesh>& patchMeshes() const { return patchMeshes_; }
    // Bounds of every valid brush (empty for an empty level).
    const Aabb& levelBounds() const { return levelBounds_; }
    // Where the 2D views cut a level that has none yet: the player start's eye, else the
    // middle of the level (DocumentData::workingPoint).
    Vec3 defaultWorkingPoint() const;
    // Bounds of the selected brushes (empty box when none is selected): what brush edits
    // (resize, rotate, flip, the box tool's depth) work from.
    Aabb selectionBounds() const;
    // The same with the selected entities' boxes: what the views frame.
    Aabb selectionBoundsWithEntities() const;

    // Entity classes: Quake's, with the document's .fgd merged over them.
    const EntityClassTable& entityClasses() const { return *entityClasses_; }
    bool entityCategoryVisible(EntityCategory c) const { return categoryVisible_[size_t(c)]; }
    // Whether the views draw their colour legends (View > Colour Legends).
    bool legendsShown() const { return legendsShown_; }
    void setLegendsShown(bool shown) {
        legendsShown_ = shown;
        emit drawingChanged();
    }
    void setEntityCategoryVisible(EntityCategory c, bool visible);
    // What the views draw and pick of entity i of the document (nullptr out of range).
    const render::EntityShape* entityShape(int entity) const {
        return entity >= 0 && size_t(entity) < entityShapes_.size() ? &entityShapes_[size_t(entity)] : nullptr;
    }
    // Where entity i of the document is (empty for a bad origin or no valid brush), and its
    // class's category.
    Aabb entityBox(int entity) const;
    EntityCategory entityCategory(int entity) const;
    // Drawn, so picked: a point entity whose category is shown.
    bool entityShown(int entity) const;
    // Problems of the spawn checks, run after every compile and entity edit.
    SpawnCheckService& spawnChecks() { return *spawnChecks_; }
    // The level's light for the 3D view's Lit and Lightmap only shadings.
    LightService& lighting() { return *lighting_; }
    const LightService& lighting() const { return *lighting_; }
    TooDarkOverlay& tooDark() { return *tooDark_; }
    const TooDarkOverlay& tooDark() const { return *tooDark_; }
    Quake3CapsuleOverlay& quake3Capsule() { return *quake3Capsule_; }
    const Quake3CapsuleOverlay& quake3Capsule() const { return *quake3Capsule_; }
    MoverPaths& moverPaths() { return *moverPaths_; }
    const MoverPaths& moverPaths() const { return *moverPaths_; }
    // Where the movers stand (drawn and compiled), and their Play.
    MoverStates& moverStates() { return *moverStates_; }
    const MoverStates& moverStates() const { return *moverStates_; }
    MoverPlay& moverPlay() { return *moverPlay_; }
    const MoverPlay& moverPlay() const { return *moverPlay_; }
    // Entities drawn (and picked) moved by an offset: (position in entities(), offset); the
    // movers at their state (MoverStates). The document is not changed.
    void setEntityOffsets(std::vector<std::pair<int, Vec3>> offsets);
    // The newest tree's navigation meshes, shared by the overlays and the spawn checks.
    const std::shared_ptr<NavMeshCache>& navMeshCache() const { return navMeshCache_; }
    // Positions in the document's entities() of entities with a spawn problem, sorted.
    const std::vector<int>& problemEntities() const { return problemEntities_; }
    // The leak path the Problems dock selected (a spawn problem's path) and its hole: drawn
    // in the selection's colour until brushes or entities are selected or the checks no
    // longer find that path. An empty path selects none.
    void selectProblemPath(std::vector<Vec3> path, const Aabb& hole);
    // The arrow keys' move: the selected brushes and entities by `offset`, one undo step.
    // False when nothing is selected (the key is then the view's).
    bool nudgeSelection(const Vec3& offset);
    const std::vector<Vec3>& selectedProblemPath() const { return selectedProblemPath_; }

    Tool& tool() { return *tools_[size_t(activeTool_)]; }
    Tool* toolOf(ToolKind kind) { return tools_[size_t(kind)].get(); }
    ToolKind activeTool() const { return activeTool_; }
    void setActiveTool(ToolKind kind);
    // Tools call this when their preview changed.
    void setToolPreview(render::MeshBatch batch);
    // What a tool says at a point while it is used (why a path being dragged has none, at
    // the cursor): the 2D views draw the text there, whole, wrapped to fit. Empty: nothing.
    struct ToolNote {
        QString text;
        Vec3 at = Vec3::Zero();
    };
    const ToolNote& toolNote() const { return toolNote_; }
    void setToolNote(ToolNote note) {
        toolNote_ = std::move(note);
        emit drawingChanged();
    }
    // A drag in progress: compiles the document's world with brushes[k] in place of brush
    // indices[k] (an index at the end adds a brush), without an undo step, so that the
    // overlays follow the drag before it is released. Asking for the brushes of the last
    // preview again compiles nothing.
    void previewBrushes(const std::vector<int>& indices, std::vector<Brush> brushes);
    // The same for a drag of a pose's box: the document's world with these poses.
    void previewPoses(std::vector<Pose> poses);
    // The same for an edit that removes brushes and inserts others, as
    // ReplaceBrushesCommand takes it (the clip tool's cut before Enter). Compiled every
    // time: the caller asks only when the edit changed.
    void previewReplacement(std::vector<int> removed, std::vector<std::pair<int, Brush>> inserted);
    // The drag ended: when its edit was not pushed (cancelled, or nothing changed) the
    // document's own world is compiled again.
    void endPreview();
    bool previewing() const { return previewing_; }

    // The pose the overlays and new test rays use (index into the document's poses).
    int currentPose() const;
    void setCurrentPose(int pose);

    // Grid snapping of a coordinate (on unless Alt is held while dragging).
    double snap(double v) const;
    Vec3 snap(const Vec3& v) const;

signals:
    // The scene's layers changed: a view paints again when what it draws of them did.
    void sceneChanged();
    // Something the views draw besides the scene's layers changed (the legends, a tool's
    // note, the 3D view's culling): every view paints again.
    void drawingChanged();
    void toolChanged(ToolKind kind);
    void currentPoseChanged(int pose);
    void entityCategoryVisibleChanged(EntityCategory category, bool visible);
    void inspectRequested(const Vec3& point);
    void statusMessage(const QString& text);
    // Something asks the views to show this box (a problem clicked, View > Go to...).
    void frameRequested(const Aabb& box);

private:
    void rebuildGeometry();
    void rebuildEntityShapes();
    // Entity `entity`'s shape with its brushes moved by `offset`.
    void placeEntityShape(int entity, const Vec3& offset);
    void rebuildEntityLayers();
    void rebuildEntitySelectionLayer();
    void reloadEntityClasses();
    void requestSpawnChecks();
    void rebuildProblemPaths();
    void rebuildBrushLayers();
    void rebuildPendingBrushLayers();
    void requestQueuedCompile();
    void noteEditTime(uint64_t revision);
    void requestPreview(World world);

    EditorDocument document_;
    render::RenderScene scene_;
    CompileService compiler_;
    // Before overlays_, whose NavService takes it.
    std::shared_ptr<NavMeshCache> navMeshCache_ = std::make_shared<NavMeshCache>();
    OverlayController* overlays_;
    std::vector<std::shared_ptr<const BrushGeometry>> geometry_;
    std::vector<std::pair<int, QString>> brushProblems_;
    Aabb levelBounds_;
    std::unordered_map<uint64_t, std::shared_ptr<const BrushGeometryResult>> geometryCache_;
    std::vector<std::string> patchTexts_; // what patchMeshes_ were made from
    std::vector<PatchMesh> patchMeshes_;
    std::vector<std::unique_ptr<Tool>> tools_;
    std::shared_ptr<const EntityClassTable> entityClasses_;
    std::array<bool, kEntityCategoryCount> categoryVisible_{true, true, true, true, true};
    bool legendsShown_ = true;
    SpawnCheckService* spawnChecks_;
    LightService* lighting_;
    TooDarkOverlay* tooDark_;
    Quake3CapsuleOverlay* quake3Capsule_;
    MoverPaths* moverPaths_;
    MoverStates* moverStates_;
    MoverPlay* moverPlay_;
    std::vector<std::pair<int, Vec3>> entityOffsets_;
    uint64_t entityRevision_ = 0;
    std::vector<render::EntityShape> entityShapes_;
    std::vector<int> problemEntities_;
    std::vector<Vec3> selectedProblemPath_;
    Aabb selectedProblemHole_;
    ToolKind activeTool_ = ToolKind::Select;
    ToolNote toolNote_;
    int currentPose_ = 0;
    // When each recent world revision was made, for the edit-to-overlay latency.
    std::vector<std::pair<uint64_t, qint64>> editTimes_;
    bool compileQueued_ = false;
    // What the last preview changed (previewBrushes, previewPoses), while a drag shows one.
    bool previewing_ = false;
    std::vector<int> previewIndices_;
    std::vector<Brush> previewBrushes_;
    std::vector<Pose> previewPoses_;
    uint64_t previewCount_ = 0;
    QElapsedTimer clock_;
    // Brushes changed, their layers not yet built again: an edit (removing, inserting,
    // selecting) builds them once, when its undo command is done or the event loop turns.
    bool brushLayersPending_ = false;
};

} // namespace shallot

#include "editor.h"

#include "brush_scene_builder.h"
#include "document/entity_edits.h"
#include "edit/brush_operations.h"
#include "services/light_service.h"
#include "services/spawn_check_service.h"
#include "services/mover_paths.h"
#include "services/mover_play.h"
#include "services/mover_states.h"
#include "services/quake3_capsule_overlay.h"
#include "services/too_dark_overlay.h"
#include "io/fgd_reader.h"
#include "services/overlay_controller.h"
#include "tools/box_tool.h"
#include "tools/clip_tool.h"
#include "tools/entity_tool.h"
#include "tools/inspect_tool.h"
#include "tools/pose_tool.h"
#include "tools/ray_tool.h"
#include "tools/select_tool.h"

#include <QTimer>
#include <QUndoStack>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace shallot {

Editor::Editor(QObject* parent)
    : QObject(parent), overlays_(new OverlayController(*this)),
      entityClasses_(std::make_shared<const EntityClassTable>(EntityClassTable::quake())),
      spawnChecks_(new SpawnCheckService(this)), lighting_(new LightService(document_, scene_, &overlays_->pvs(), this)),
      tooDark_(new TooDarkOverlay(*this)), quake3Capsule_(new Quake3CapsuleOverlay(*this)),
      moverPaths_(new MoverPaths(*this)), moverStates_(new MoverStates(*this)), moverPlay_(new MoverPlay(*this)) {
    tools_.push_back(std::make_unique<SelectTool>(*this));
    tools_.push_back(std::make_unique<BoxTool>(*this));
    tools_.push_back(std::make_unique<ClipTool>(*this));
    tools_.push_back(std::make_unique<RayTool>(*this));
    tools_.push_back(std::make_unique<InspectTool>(*this));
    tools_.push_back(std::make_unique<PoseTool>(*this));
    tools_.push_back(std::make_unique<EntityTool>(*this));
    tools_.push_back(std::make_unique<RayTool>(*this, RayTool::Mode::Path));
    connect(&document_, &EditorDocument::brushesChanged, this, [this] {
        rebuildGeometry();
        if (brushLayersPending_) return;
        brushLayersPending_ = true;
        QTimer::singleShot(0, this, &Editor::rebuildPendingBrushLayers);
    });
    connect(&document_, &EditorDocument::selectionChanged, this, [this] {
        if (!brushLayersPending_) rebuildBrushLayers(); // else they are built with the brushes
    });
    connect(&document_, &EditorDocument::worldChanged, this, &Editor::scheduleCompile);
    // An undo command is complete: its world can be compiled now, before the views repaint,
    // and its brushes drawn.
    connect(document_.undoStack(), &QUndoStack::indexChanged, this, [this] {
        requestQueuedCompile();
        rebuildPendingBrushLayers();
    });
    connect(&document_, &EditorDocument::worldReplaced, this, [this](bool compiled) {
        if (!document_.data().workingPoint) document_.setWorkingPoint(defaultWorkingPoint());
        if (!compiled) scheduleCompile();
    });
    connect(&document_, &EditorDocument::entitiesChanged, this, [this] {
        ++entityRevision_;
        rebuildEntityShapes();
        rebuildEntityLayers();
        requestSpawnChecks();
    });
    connect(&document_, &EditorDocument::selectionChanged, this, &Editor::rebuildEntitySelectionLayer);
    connect(&document_, &EditorDocument::entityDefinitionsChanged, this, &Editor::reloadEntityClasses);
    // The checks and the light read the world without the movers, as the game compiles it.
    connect(moverStates_, &MoverStates::staticCompiled, this, &Editor::requestSpawnChecks);
    connect(moverStates_, &MoverStates::staticCompiled, lighting_, &LightService::request);
    // So does the Path tool's travel through the doors, lifts and teleporters (NavService).
    connect(moverStates_, &MoverStates::staticCompiled, overlays_, &OverlayController::requestNav);
    connect(lighting_, &LightService::updated, this, [this](const QString& summary) {
        if (!summary.isEmpty()) emit statusMessage(summary);
    });
    connect(&document_, &EditorDocument::selectionChanged, this, [this] {
        if (!document_.selectionEmpty() && !selectedProblemPath_.empty()) selectProblemPath({}, {});
    });
    connect(spawnChecks_, &SpawnCheckService::checked, this, [this] {
        rebuildProblemPaths();
        std::vector<int> entities;
        // A leak is the level's, not its start's: its path is drawn, the start stays as it is.
        for (const SpawnProblem& p : spawnChecks_->problems())
            if (p.entity >= 1 && p.kind != SpawnProblemKind::Leak) entities.push_back(p.entity - 1);
        std::sort(entities.begin(), entities.end());
        entities.erase(std::unique(entities.begin(), entities.end()), entities.end());
        if (entities == problemEntities_) return;
        problemEntities_ = std::move(entities);
        rebuildEntityLayers();
    });
}

bool Editor::nudgeSelection(const Vec3& offset) {
    if (document_.selectionEmpty()) return false;
    if (QUndoCommand* nudge = nudgeSelectionCommand(document_, offset)) {
        document_.undoStack()->push(nudge);
        emit statusMessage(QString("Moved the selection by (%1, %2, %3)").arg(offset.x()).arg(offset.y()).arg(offset.z()));
    }
    return true;
}

void Editor::selectProblemPath(std::vector<Vec3> path, const Aabb& hole) {
    selectedProblemPath_ = std::move(path);
    selectedProblemHole_ = hole;
    rebuildProblemPaths();
}

void Editor::rebuildProblemPaths() {
    std::vector<std::vector<Vec3>> paths;
    int selected = -1;
    for (const SpawnProblem& p : spawnChecks_->problems())
        if (!p.path.empty()) {
            if (p.path == selectedProblemPath_) {
                selected = int(paths.size());
                selectedProblemHole_ = p.hole; // as checked now
            }
            paths.push_back(p.path);
        }
    if (selected < 0) selectedProblemPath_.clear(); // the checks no longer find it
    scene_.set(render::Layer::ProblemPaths, render::buildProblemPaths(paths, selected, selectedProblemHole_));
    emit sceneChanged();
}

void Editor::reloadEntityClasses() {
    EntityClassTable table = EntityClassTable::quake();
    const DocumentData& data = document_.data();
    if (!data.entityDefinitions.empty()) {
        try {
            const FgdFile fgd = readFgd(data.entityDefinitions, data.entityDefinitionsPath);
            table.merge(fgd.classes);
            if (!fgd.warnings.empty())
                emit statusMessage(QString("%1 (and %2 more warnings)")
                                       .arg(QString::fromStdString(fgd.warnings.front().message))
                                       .arg(fgd.warnings.size() - 1));
        } catch (const std::exception& e) {
            emit statusMessage(QString("Entity definitions not used: %1").arg(e.what()));
        }
    }
    entityClasses_ = std::make_shared<const EntityClassTable>(std::move(table));
    rebuildEntityShapes();
    rebuildEntityLayers();
    rebuildEntitySelectionLayer();
    requestSpawnChecks();
}

void Editor::requestSpawnChecks() {
    const std::shared_ptr<const CompiledWorld>& compiled = moverStates_->staticWorld();
    if (!compiled || compiled->revision == 0) return; // nothing compiled yet
    const std::shared_ptr<NavMeshCache>& meshes = compiled == compiler_.latest() ? navMeshCache_ : moverStates_->staticNavMeshes();
    spawnChecks_->request({compiled, document_.entities(), entityClasses_, entityRevision_, meshes, document_.data().game});
}

void Editor::setEntityCategoryVisible(EntityCategory c, bool visible) {
    if (categoryVisible_[size_t(c)] == visible) return;
    categoryVisible_[size_t(c)] = visible;
    rebuildEntityLayers();
    rebuildEntitySelectionLayer();
    emit entityCategoryVisibleChanged(c, visible);
}

Aabb Editor::entityBox(int entity) const {
    const render::EntityShape* shape = entityShape(entity);
    return shape ? shape->box : Aabb{};
}

EntityCategory Editor::entityCategory(int entity) const {
    const render::EntityShape* shape = entityShape(entity);
    return shape ? shape->category : EntityCategory::Other;
}

bool Editor::entityShown(int entity) const {
    return !entityBox(entity).empty() && categoryVisible_[size_t(entityCategory(entity))];
}

void Editor::rebuildEntityShapes() {
    const auto& entities = document_.entities();
    entityShapes_.clear();
    entityShapes_.reserve(entities.size());
    for (const MapEntity& e : entities) entityShapes_.push_back(render::entityShape(e, *entityClasses_, document_.data().world.bounds));
    for (const auto& [entity, offset] : entityOffsets_) placeEntityShape(entity, offset);
}

void Editor::placeEntityShape(int entity, const Vec3& offset) {
    const auto& entities = document_.entities();
    if (entity < 0 || size_t(entity) >= entities.size() || size_t(entity) >= entityShapes_.size()) return;
    MapEntity moved = entities[size_t(entity)];
    if (offset != Vec3::Zero())
        for (Brush& b : moved.brushes) b = translated(b, offset);
    entityShapes_[size_t(entity)] = render::entityShape(moved, *entityClasses_, document_.data().world.bounds);
}

void Editor::setEntityOffsets(std::vector<std::pair<int, Vec3>> offsets) {
    if (offsets == entityOffsets_) return;
    // Only the entities moved before or now are shaped again (each frame of Play).
    for (const auto& [entity, offset] : entityOffsets_) placeEntityShape(entity, Vec3::Zero());
    entityOffsets_ = std::move(offsets);
    for (const auto& [entity, offset] : entityOffsets_) placeEntityShape(entity, offset);
    rebuildEntityLayers();
    rebuildEntitySelectionLayer();
}

void Editor::rebuildEntitySelectionLayer() {
    std::vector<Aabb> boxes;
    for (int e : document_.entitySelection())
        if (entityShown(e)) boxes.push_back(entityBox(e));
    scene_.set(render::Layer::EntitySelection, render::buildEntitySelection(boxes));
    emit sceneChanged();
}

void Editor::rebuildEntityLayers() {
    render::EntityDrawOptions options;
    options.categoryVisible = categoryVisible_;
    options.problems = problemEntities_;
    render::EntityBatches b = render::buildEntityBatches(entityShapes_, options);
    scene_.set(render::Layer::EntityFaces, std::move(b.faces));
    scene_.set(render::Layer::EntityEdges, std::move(b.edges));
    overlays_->applyEntitySight();
    emit sceneChanged();
}

void Editor::noteEditTime(uint64_t revision) {
    constexpr size_t kRememberedEdits = 64;
    if (!clock_.isValid()) clock_.start();
    editTimes_.emplace_back(revision, clock_.nsecsElapsed());
    if (editTimes_.size() > kRememberedEdits) editTimes_.erase(editTimes_.begin());
}

void Editor::scheduleCompile() {
    noteEditTime(document_.worldRevision());
    // One edit often changes the world twice in a row (replacing brushes removes, then
    // inserts): compiling the first snapshot only to cancel it cost librequake_e3m4 about
    // 0.6 s of every edit (the worker stops at its next check, then waits for the UI thread).
    // The compiler learns of the change now, so that a result finishing before the
    // snapshot is taken is dropped as stale rather than shown.
    compiler_.expect(document_.worldRevision());
    if (compileQueued_) return;
    compileQueued_ = true;
    QTimer::singleShot(0, this, &Editor::requestQueuedCompile);
}

void Editor::requestQueuedCompile() {
    if (!compileQueued_) return;
    compileQueued_ = false;
    // A document opened with its stored tree meanwhile has been adopted already.
    if (compiler_.awaitingSnapshot()) compiler_.request(moverStates_->withMovers(document_.data().world), document_.worldRevision());
}

void Editor::previewBrushes(const std::vector<int>& indices, std::vector<Brush> brushes) {
    const World& world = document_.data().world;
    if (indices.size() != brushes.size()) return;
    for (int i : indices)
        if (i < 0 || size_t(i) > world.brushes.size()) return;
    auto same = [&] {
        if (indices != previewIndices_ || brushes.size() != previewBrushes_.size()) return false;
        for (size_t k = 0; k < brushes.size(); ++k)
            if (!samePlanes(brushes[k], previewBrushes_[k])) return false;
        return true;
    };
    if (previewing_ && same()) return;
    // A drag that has not changed anything yet has nothing to show.
    auto unchanged = [&] {
        for (size_t k = 0; k < indices.size(); ++k)
            if (size_t(indices[k]) == world.brushes.size() || !samePlanes(brushes[k], world.brushes[size_t(indices[k])]))
                return false;
        return true;
    };
    if (!previewing_ && unchanged()) return;
    World preview = world;
    for (size_t k = 0; k < indices.size(); ++k) {
        if (size_t(indices[k]) < preview.brushes.size()) preview.brushes[size_t(indices[k])] = brushes[k];
        else preview.brushes.push_back(brushes[k]);
    }
    previewIndices_ = indices;
    previewBrushes_ = std::move(brushes);
    requestPreview(std::move(preview));
}

void Editor::previewPoses(std::vector<Pose> poses) {
    const World& world = document_.data().world;
    if (samePoseBoxes(poses, previewing_ ? previewPoses_ : world.poses)) return;
    World preview = world;
    preview.poses = poses;
    previewPoses_ = std::move(poses);
    requestPreview(std::move(preview));
}

void Editor::previewReplacement(std::vector<int> removed, std::vector<std::pair<int, Brush>> inserted) {
    World preview = document_.data().world;
    std::sort(removed.begin(), removed.end());
    std::sort(inserted.begin(), inserted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto it = removed.rbegin(); it != removed.rend(); ++it)
        if (*it >= 0 && size_t(*it) < preview.brushes.size()) preview.brushes.erase(preview.brushes.begin() + *it);
    for (auto& [index, brush] : inserted)
        preview.brushes.insert(preview.brushes.begin() + std::clamp<long>(index, 0, long(preview.brushes.size())), std::move(brush));
    previewIndices_.clear(); // what previewBrushes and previewPoses compare with is gone
    previewBrushes_.clear();
    previewPoses_.clear();
    requestPreview(std::move(preview));
}

void Editor::requestPreview(World world) {
    previewing_ = true;
    const uint64_t revision = kPreviewRevisionBit | ++previewCount_;
    noteEditTime(revision);
    compiler_.request(moverStates_->withMovers(std::move(world)), revision);
}

void Editor::endPreview() {
    if (!previewing_) return;
    previewing_ = false;
    previewIndices_.clear();
    previewBrushes_.clear();
    previewPoses_.clear();
    // A pushed edit has asked for its own compile already (expect() made it the newest).
    if (!isPreviewRevision(compiler_.newestRevision())) return;
    noteEditTime(document_.worldRevision()); // the overlay goes back now, not at the last edit
    compiler_.request(moverStates_->withMovers(document_.data().world), document_.worldRevision());
}

double Editor::msSinceEdit(uint64_t revision) const {
    for (auto it = editTimes_.rbegin(); it != editTimes_.rend(); ++it) // the latest time asked for it
        if (it->first == revision) return double(clock_.nsecsElapsed() - it->second) / 1e6;
    return -1.0;
}

Editor::~Editor() = default;

namespace {

// Identifies a brush's geometry: its planes, bit for bit.
uint64_t planeSignature(const Brush& b) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](double v) {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    };
    for (const BrushSide& s : b.sides) {
        mix(s.plane.normal.x());
        mix(s.plane.normal.y());
        mix(s.plane.normal.z());
        mix(s.plane.dist);
    }
    return h;
}

} // namespace

void Editor::rebuildGeometry() {
    // Only brushes whose planes are new are rebuilt: an edit touches a few brushes, and
    // rebuilding thousands on every edit would stall the UI on large maps.
    const auto& brushes = document_.brushes();
    std::unordered_map<uint64_t, std::shared_ptr<const BrushGeometryResult>> next;
    geometry_.assign(brushes.size(), nullptr);
    brushProblems_.clear();
    for (size_t i = 0; i < brushes.size(); ++i) {
        const uint64_t key = planeSignature(brushes[i]);
        auto found = geometryCache_.find(key);
        std::shared_ptr<const BrushGeometryResult> r =
            found != geometryCache_.end() ? found->second
                                          : std::make_shared<const BrushGeometryResult>(buildBrushGeometry(brushes[i], document_.data().world.bounds));
        next.emplace(key, r);
        if (r->geometry) geometry_[i] = std::shared_ptr<const BrushGeometry>(r, &*r->geometry);
        else brushProblems_.emplace_back(int(i), QString::fromStdString(brushes[i].describe(int(i)) + " " + r->error));
    }
    geometryCache_ = std::move(next);
    // Patches change only with the level (they are not edited): tessellated again then,
    // compared in place first (no copy of a large level's patch texts on every edit).
    size_t same = 0;
    bool changed = false;
    const auto compare = [&](const std::vector<std::string>& texts) {
        for (const std::string& t : texts) changed = changed || same >= patchTexts_.size() || patchTexts_[same++] != t;
    };
    compare(document_.data().worldPatches);
    for (const MapEntity& e : document_.data().entities) compare(e.patches);
    if (changed || same != patchTexts_.size()) {
        patchTexts_ = document_.data().worldPatches;
        for (const MapEntity& e : document_.data().entities) patchTexts_.insert(patchTexts_.end(), e.patches.begin(), e.patches.end());
        patchMeshes_.clear();
        for (const std::string& text : patchTexts_)
            if (const PatchParseResult p = parsePatchDef(text); p.ok()) patchMeshes_.push_back(tessellatePatch(*p.patch));
    }
    levelBounds_ = {};
    for (const auto& g : geometry_)
        if (g) levelBounds_.add(g->bounds);
}

Vec3 Editor::defaultWorkingPoint() const {
    if (const std::optional<Vec3> start = playerStart(document_.data())) return *start + Vec3(0, 0, kQuakeEyeHeight);
    if (!levelBounds_.empty()) return snap(0.5 * (levelBounds_.mins + levelBounds_.maxs));
    return Vec3::Zero();
}

void Editor::rebuildPendingBrushLayers() {
    if (brushLayersPending_) rebuildBrushLayers();
}

void Editor::rebuildBrushLayers() {
    brushLayersPending_ = false;
    render::BrushBatches b = render::buildBrushBatches(document_.brushes(), geometry_, document_.selection(), patchMeshes_);
    scene_.set(render::Layer::BrushFaces, std::move(b.faces));
    scene_.set(render::Layer::BrushEdges, std::move(b.edges));
    scene_.set(render::Layer::SelectedFaces, std::move(b.selectedFaces));
    scene_.set(render::Layer::SelectedEdges, std::move(b.selectedEdges));
    overlays_->applyBrushSight(); // a selection change keeps the brushes, and their sight
    emit sceneChanged();
}

Aabb Editor::selectionBounds() const {
    Aabb box;
    for (int i : document_.selection())
        if (size_t(i) < geometry_.size() && geometry_[size_t(i)]) box.add(geometry_[size_t(i)]->bounds);
    return box;
}

Aabb Editor::selectionBoundsWithEntities() const {
    Aabb box = selectionBounds();
    for (int e : document_.entitySelection())
        if (const Aabb b = entityBox(e); !b.empty()) box.add(b);
    return box;
}

void Editor::setActiveTool(ToolKind kind) {
    if (kind == activeTool_) return;
    tool().cancel();
    activeTool_ = kind;
    if (kind == ToolKind::Pose) static_cast<PoseTool&>(tool()).activate();
    emit toolChanged(kind);
}

void Editor::setToolPreview(render::MeshBatch batch) {
    scene_.set(render::Layer::ToolPreview, std::move(batch));
    emit sceneChanged();
}

int Editor::currentPose() const {
    const int count = int(document_.poses().size());
    return count == 0 ? -1 : std::min(currentPose_, count - 1);
}

void Editor::setCurrentPose(int pose) {
    if (pose == currentPose_) return;
    currentPose_ = pose;
    emit currentPoseChanged(pose);
}

double Editor::snap(double v) const {
    const double g = document_.data().gridSize;
    return std::round(v / g) * g;
}

Vec3 Editor::snap(const Vec3& v) const { return Vec3(snap(v.x()), snap(v.y()), snap(v.z())); }

} // namespace shallot

#include "editor.h"

#include "brush_scene_builder.h"
#include "overlay_controller.h"
#include "tools/box_tool.h"
#include "tools/clip_tool.h"
#include "tools/inspect_tool.h"
#include "tools/pose_tool.h"
#include "tools/ray_tool.h"
#include "tools/select_tool.h"

#include <cmath>

namespace shallot {

Editor::Editor(QObject* parent) : QObject(parent), overlays_(new OverlayController(*this)) {
    tools_.push_back(std::make_unique<SelectTool>(*this));
    tools_.push_back(std::make_unique<BoxTool>(*this));
    tools_.push_back(std::make_unique<ClipTool>(*this));
    tools_.push_back(std::make_unique<RayTool>(*this));
    tools_.push_back(std::make_unique<InspectTool>(*this));
    tools_.push_back(std::make_unique<PoseTool>(*this));
    connect(&document_, &EditorDocument::brushesChanged, this, [this] {
        rebuildGeometry();
        rebuildBrushLayers();
    });
    connect(&document_, &EditorDocument::selectionChanged, this, &Editor::rebuildBrushLayers);
    connect(&document_, &EditorDocument::worldChanged, this, &Editor::scheduleCompile);
}

void Editor::scheduleCompile() { compiler_.request(document_.data().world, document_.worldRevision()); }

Editor::~Editor() = default;

void Editor::rebuildGeometry() {
    const auto& brushes = document_.brushes();
    geometry_.assign(brushes.size(), std::nullopt);
    brushProblems_.clear();
    for (size_t i = 0; i < brushes.size(); ++i) {
        BrushGeometryResult r = buildBrushGeometry(brushes[i], document_.data().world.bounds);
        if (!r.geometry)
            brushProblems_.emplace_back(int(i), QString::fromStdString(brushes[i].describe(int(i)) + " " + r.error));
        geometry_[i] = std::move(r.geometry);
    }
}

void Editor::rebuildBrushLayers() {
    render::BrushBatches b = render::buildBrushBatches(document_.brushes(), geometry_, document_.selection());
    scene_.set(render::Layer::BrushFaces, std::move(b.faces));
    scene_.set(render::Layer::BrushEdges, std::move(b.edges));
    scene_.set(render::Layer::SelectedFaces, std::move(b.selectedFaces));
    scene_.set(render::Layer::SelectedEdges, std::move(b.selectedEdges));
    emit sceneChanged();
}

Aabb Editor::selectionBounds() const {
    Aabb box;
    for (int i : document_.selection())
        if (size_t(i) < geometry_.size() && geometry_[size_t(i)]) box.add(geometry_[size_t(i)]->bounds);
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

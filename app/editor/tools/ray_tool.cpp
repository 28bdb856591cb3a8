#include "tools/ray_tool.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "services/overlay_controller.h"
#include "nav_overlay.h"
#include "tools/path_ends.h"
#include "tools/view_picking.h"

#include <QKeyEvent>

namespace shallot {

namespace {

// How close (in pixels) to a ray endpoint a press grabs it.
constexpr double kEndpointGrabPixels = 8.0;

} // namespace

bool RayTool::press(const ViewPoint& p) {
    const auto& rays = editor_.document().rays();
    editedRay_ = -1;
    const double grab = kEndpointGrabPixels * p.pixelSize;
    for (size_t i = 0; i < rays.size() && editedRay_ < 0; ++i) {
        if (!mine(rays[i])) continue;
        for (bool end : {true, false}) {
            const Vec3& e = end ? rays[i].to : rays[i].from;
            if (std::abs(e[p.uAxis] - p.world[p.uAxis]) < grab && std::abs(e[p.vAxis] - p.world[p.vAxis]) < grab) {
                editedRay_ = int(i);
                editingEnd_ = end;
                from_ = rays[i].from;
                to_ = rays[i].to;
                break;
            }
        }
    }
    fromStanding_ = toStanding_ = std::nullopt;
    if (editedRay_ < 0 && mode_ == Mode::Path) {
        const PathEnd end = placePathEnd(editor_, p);
        from_ = to_ = end.point;
        fromStanding_ = toStanding_ = end.standing;
    } else if (editedRay_ < 0) {
        from_ = to_ = placeInView(editor_, p);
    }
    dragging_ = true;
    if (mode_ == Mode::Path) editor_.overlays().requestNav(); // the meshes the preview walks on
    return true;
}

void RayTool::drag(const ViewPoint& p) {
    if (!dragging_) return;
    Vec3 moved = editedRay_ >= 0 ? (editingEnd_ ? to_ : from_) : to_;
    moved[p.uAxis] = editor_.snap(p.world[p.uAxis]);
    moved[p.vAxis] = editor_.snap(p.world[p.vAxis]);
    // A path's end stands on the floor under it in the top view (the other end's height
    // would put a goal on a landing into the landing).
    std::optional<bool> standing;
    if (mode_ == Mode::Path && p.depthAxis == 2) {
        const PathEnd end = placePathEnd(editor_, p);
        moved = end.point;
        standing = end.standing;
    }
    if (editedRay_ < 0 || editingEnd_) {
        to_ = moved;
        toStanding_ = standing;
    } else {
        from_ = moved;
        fromStanding_ = standing;
    }
    if (mode_ == Mode::Path) {
        showPathPreview();
        return;
    }
    // The ray as it will be drawn, traced in the newest tree on every move (microseconds).
    const auto& rays = editor_.document().rays();
    const bool walk = editedRay_ >= 0 && size_t(editedRay_) < rays.size() && rays[size_t(editedRay_)].walk;
    const int pose = editor_.currentPose();
    const Pose box = pose >= 0 ? editor_.document().poses()[size_t(pose)] : Pose{};
    editor_.setToolPreview(render::rayOverlay({editor_.overlays().rayDrawing(from_, to_, walk)}, box));
}

void RayTool::release(const ViewPoint& p) {
    if (!dragging_) return;
    drag(p);
    EditorDocument& doc = editor_.document();
    std::vector<TestRay> rays = doc.rays();
    if (editedRay_ >= 0) {
        if (rays[size_t(editedRay_)].from != from_ || rays[size_t(editedRay_)].to != to_) {
            rays[size_t(editedRay_)].from = from_;
            rays[size_t(editedRay_)].to = to_;
            doc.undoStack()->push(new SetRaysCommand(&doc, "Move ray endpoint", rays));
        }
    } else if (from_ != to_) {
        const bool path = mode_ == Mode::Path;
        rays.push_back({(path ? "path " : "ray ") + std::to_string(rays.size() + 1), from_, to_, false, path});
        doc.undoStack()->push(new SetRaysCommand(&doc, path ? "Add path" : "Add ray", rays));
    }
    cancel();
}

void RayTool::showPathPreview() {
    const int pose = editor_.currentPose();
    const Pose box = pose >= 0 ? editor_.document().poses()[size_t(pose)] : Pose{};
    const std::optional<TravelPath> path = editor_.overlays().walkingPath(from_, to_, pose);
    render::MeshBatch batch;
    batch.primitive = render::Primitive::Lines;
    render::addPathRay(batch, from_, to_, path ? &*path : nullptr, box.mins.z());
    editor_.setToolPreview(std::move(batch));
    // Why there is none, in the status bar and whole at the cursor: an end with no floor
    // under it where the pose stands, else what the path search met.
    const QString name = QString::fromStdString(box.name);
    QString why;
    if (path && !path->found && fromStanding_ == false) why = noFloorReason(false, name);
    else if (path && !path->found && toStanding_ == false) why = noFloorReason(true, name);
    const QString summary = pathSummary(path, box.name, why);
    emit editor_.statusMessage(summary);
    const Vec3& cursor = editedRay_ < 0 || editingEnd_ ? to_ : from_;
    editor_.setToolNote(path && !path->found ? Editor::ToolNote{summary, cursor} : Editor::ToolNote{});
}

bool RayTool::key(QKeyEvent* event) {
    if (event->key() != Qt::Key_Escape || !dragging_) return false;
    cancel();
    return true;
}

void RayTool::cancel() {
    dragging_ = false;
    editedRay_ = -1;
    editor_.setToolPreview({});
    editor_.setToolNote({});
}

} // namespace shallot

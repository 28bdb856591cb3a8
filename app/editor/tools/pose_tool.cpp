#include "tools/pose_tool.h"

#include "palette.h"
#include "document/edit_commands.h"
#include "editor.h"

#include <QKeyEvent>
#include <cmath>

namespace shallot {

namespace {
// How close (in pixels) to a face of the pose box a press grabs it.
constexpr double kFaceGrabPixels = 6.0;
} // namespace

PoseTool::PoseTool(Editor& editor) : Tool(editor) {
    QObject::connect(&editor, &Editor::currentPoseChanged, &editor, [this] {
        if (editor_.activeTool() == ToolKind::Pose) activate();
    });
    QObject::connect(&editor.document(), &EditorDocument::posesChanged, &editor, [this] {
        if (editor_.activeTool() == ToolKind::Pose) activate();
    });
}

void PoseTool::activate() {
    const int pose = editor_.currentPose();
    if (pose < 0) return;
    const Pose& p = editor_.document().poses()[size_t(pose)];
    mins_ = p.mins;
    maxs_ = p.maxs;
    show(mins_, maxs_);
}

void PoseTool::show(const Vec3& mins, const Vec3& maxs) {
    render::MeshBatch preview;
    preview.primitive = render::Primitive::Lines;
    preview.lit = false;
    preview.addBoxEdges(point_ + mins, point_ + maxs, render::kPoseBoxColour);
    // A small cross at the reference point.
    for (int a = 0; a < 3; ++a) preview.addLine(point_ - Vec3::Unit(a) * 4, point_ + Vec3::Unit(a) * 4, render::kPoseBoxColour);
    editor_.setToolPreview(std::move(preview));
}

bool PoseTool::press(const ViewPoint& p) {
    if (editor_.currentPose() < 0) return false; // a document without poses
    activate();
    pressed_ = true;
    const double grab = kFaceGrabPixels * p.pixelSize;
    axis_ = -1;
    for (int axis : {p.uAxis, p.vAxis}) {
        const int other = axis == p.uAxis ? p.vAxis : p.uAxis;
        const bool within = p.world[other] > point_[other] + mins_[other] - grab && p.world[other] < point_[other] + maxs_[other] + grab;
        if (!within) continue;
        if (std::abs(p.world[axis] - (point_[axis] + mins_[axis])) < grab) axis_ = axis, side_ = -1;
        else if (std::abs(p.world[axis] - (point_[axis] + maxs_[axis])) < grab) axis_ = axis, side_ = 1;
        if (axis_ >= 0) break;
    }
    if (axis_ < 0) {
        point_[p.uAxis] = editor_.snap(p.world[p.uAxis]);
        point_[p.vAxis] = editor_.snap(p.world[p.vAxis]);
        show(mins_, maxs_);
    }
    return true;
}

void PoseTool::drag(const ViewPoint& p) {
    if (!pressed_) return;
    if (axis_ < 0) {
        point_[p.uAxis] = editor_.snap(p.world[p.uAxis]);
        point_[p.vAxis] = editor_.snap(p.world[p.vAxis]);
        show(mins_, maxs_);
        return;
    }
    std::vector<Pose> poses = draggedPoses(p);
    const Pose& edited = poses[size_t(editor_.currentPose())];
    show(edited.mins, edited.maxs);
    editor_.previewPoses(std::move(poses));
}

std::vector<Pose> PoseTool::draggedPoses(const ViewPoint& p) const {
    std::vector<Pose> poses = editor_.document().poses();
    const double offset = editor_.snap(p.world[axis_]) - point_[axis_];
    Pose& edited = poses[size_t(editor_.currentPose())];
    if (side_ < 0) edited.mins[axis_] = std::min(offset, edited.maxs[axis_]);
    else edited.maxs[axis_] = std::max(offset, edited.mins[axis_]);
    return poses;
}

void PoseTool::release(const ViewPoint& p) {
    pressed_ = false;
    if (axis_ < 0) return;
    const int pose = editor_.currentPose();
    const std::vector<Pose> poses = draggedPoses(p);
    const Pose& edited = poses[size_t(pose)];
    axis_ = -1;
    if (edited.mins != editor_.document().poses()[size_t(pose)].mins || edited.maxs != editor_.document().poses()[size_t(pose)].maxs)
        editor_.document().undoStack()->push(new SetPosesCommand(&editor_.document(), "Resize pose", poses));
    else activate();
    editor_.endPreview();
}

bool PoseTool::key(QKeyEvent* event) {
    if (event->key() != Qt::Key_Escape || !pressed_) return false;
    pressed_ = false;
    axis_ = -1;
    activate(); // the box as the document has it
    editor_.endPreview();
    return true;
}

void PoseTool::cancel() {
    pressed_ = false;
    axis_ = -1;
    editor_.setToolPreview({});
    editor_.endPreview();
}

} // namespace shallot

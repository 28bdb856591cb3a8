#pragma once
// Shows the current pose's box at a preview point. Click to place the point; drag a face
// of the box (in a 2D view) to resize the pose: on release the pose's mins or maxs along
// that axis change, as one undo step. While the drag lasts the overlays show the resized
// pose (Editor::previewPoses); Escape cancels it.
#include "tools/tool.h"
#include "world/pose.h"

#include <vector>

namespace shallot {

class PoseTool : public Tool {
public:
    explicit PoseTool(Editor& editor);
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    bool key(QKeyEvent* event) override;
    void cancel() override;
    void activate(); // draws the box
    const Vec3& previewPoint() const { return point_; }

private:
    void show(const Vec3& mins, const Vec3& maxs);
    // The document's poses with the current one's box dragged to the cursor.
    std::vector<Pose> draggedPoses(const ViewPoint& p) const;

    Vec3 point_ = Vec3::Zero();
    // The face being dragged: axis and side (-1 mins, +1 maxs); axis -1 when placing.
    int axis_ = -1, side_ = 0;
    bool pressed_ = false; // from a press until its release or Escape
    Vec3 mins_ = Vec3::Zero(), maxs_ = Vec3::Zero();
};

} // namespace shallot

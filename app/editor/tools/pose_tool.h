#pragma once
// Shows the current pose's box at a preview point. Click to place the point; drag a face
// of the box (in a 2D view) to resize the pose: on release the pose's mins or maxs along
// that axis change, as one undo step.
#include "tool.h"

namespace shallot {

class PoseTool : public Tool {
public:
    explicit PoseTool(Editor& editor);
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    void cancel() override;
    void activate(); // draws the box
    const Vec3& previewPoint() const { return point_; }

private:
    void show(const Vec3& mins, const Vec3& maxs);

    Vec3 point_ = Vec3::Zero();
    // The face being dragged: axis and side (-1 mins, +1 maxs); axis -1 when placing.
    int axis_ = -1, side_ = 0;
    Vec3 mins_ = Vec3::Zero(), maxs_ = Vec3::Zero();
};

} // namespace shallot

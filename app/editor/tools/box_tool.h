#pragma once
// Draws a box brush by dragging on the grid in a 2D view. Its depth (along the view
// axis) is the selection's, else the last drawn box's, else one grid step above 0 x 4.
// While the drag lasts the overlays show the world with the box in it
// (Editor::previewBrushes); Escape cancels it.
#include "tools/tool.h"

namespace shallot {

class BoxTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    bool key(QKeyEvent* event) override;
    void cancel() override;

private:
    bool boxFor(const ViewPoint& p, Vec3& mins, Vec3& maxs) const;

    bool dragging_ = false;
    Vec3 start_ = Vec3::Zero();
    double depthMin_ = 0.0, depthMax_ = 64.0;
};

} // namespace shallot

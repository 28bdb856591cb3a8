#pragma once
// Places test rays: drag a segment in a 2D view (endpoints on the grid); pressing near an
// existing ray's endpoint drags that endpoint instead. Points are placed with
// placeInView (view_picking.h). While the drag lasts the ray is traced in the newest tree
// on every move and drawn with its contact, as the ray layer draws rays; Escape cancels it.
#include "tools/tool.h"

namespace shallot {

class RayTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    bool key(QKeyEvent* event) override;
    void cancel() override;

private:
    bool dragging_ = false;
    int editedRay_ = -1;     // -1: a new ray
    bool editingEnd_ = true; // which endpoint of editedRay_ is dragged
    Vec3 from_ = Vec3::Zero(), to_ = Vec3::Zero();
};

} // namespace shallot

#pragma once
// Places test rays: drag a segment in a 2D view (endpoints on the grid); pressing near an
// existing ray's endpoint drags that endpoint instead. In the top view the height is
// where the current pose's box rests on the surface under the cursor (or on z = 0);
// in the side views the depth is the selection's centre or 0.
#include "tool.h"

namespace shallot {

class RayTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    void cancel() override;

private:
    Vec3 placed(const ViewPoint& p) const; // the snapped 3D point for a view point

    bool dragging_ = false;
    int editedRay_ = -1;     // -1: a new ray
    bool editingEnd_ = true; // which endpoint of editedRay_ is dragged
    Vec3 from_ = Vec3::Zero(), to_ = Vec3::Zero();
};

} // namespace shallot

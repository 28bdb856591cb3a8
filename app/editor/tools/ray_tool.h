#pragma once
// Places test rays: drag a segment in a 2D view (endpoints on the grid); pressing near an
// existing ray's endpoint drags that endpoint instead. Points are placed with
// placeInView (view_picking.h). While the drag lasts the ray is traced in the newest tree
// on every move and drawn with its contact, as the ray layer draws rays; Escape cancels it.
// In Path mode (the Path tool) it places walking paths instead: rays with TestRay::path,
// drawn, while dragged too, as the current pose's walking path (core/nav/nav_path.h)
// with its length in the status bar, or why there is none there and at the cursor; in the
// top view each end is dropped onto the nearest floor where the pose stands (path_ends.h).
// The rays dock says for every pose whether one exists.
#include "model/document_data.h"
#include "tools/tool.h"

#include <optional>

namespace shallot {

class RayTool : public Tool {
public:
    enum class Mode { Ray, Path };
    explicit RayTool(Editor& editor, Mode mode = Mode::Ray) : Tool(editor), mode_(mode) {}
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    bool key(QKeyEvent* event) override;
    void cancel() override;

private:
    // The rays this tool places and moves (its mode's kind).
    bool mine(const TestRay& ray) const { return ray.path == (mode_ == Mode::Path); }
    void showPathPreview();

    Mode mode_;
    bool dragging_ = false;
    int editedRay_ = -1;     // -1: a new ray
    bool editingEnd_ = true; // which endpoint of editedRay_ is dragged
    Vec3 from_ = Vec3::Zero(), to_ = Vec3::Zero();
    // Whether each end stands on a floor of the current pose (path_ends.h; nothing: not known).
    std::optional<bool> fromStanding_, toStanding_;
};

} // namespace shallot

#pragma once
// Clips the selected brushes by a plane. In a 2D view, two clicks give a line; the plane
// contains it and the view direction. In the 3D view, three clicks on surfaces give the
// plane. Tab cycles what is kept (front, back, both), Enter applies, Escape cancels.
#include "tool.h"

#include "geometry/plane.h"

#include <optional>
#include <vector>

namespace shallot {

class ClipTool : public Tool {
public:
    enum class Keep { Front, Back, Both };
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint&) override {}
    bool key(QKeyEvent* event) override;
    void cancel() override;

    // Applies the clip to the selection; false when there is nothing to clip.
    bool apply();
    // A point picked on a surface in the 3D view (the fourth starts over).
    void addPoint3d(const Vec3& p);
    Keep keep() const { return keep_; }

private:
    void showPreview();
    std::optional<Plane> plane() const;

    std::vector<Vec3> points_;
    int depthAxis_ = 2;
    bool in3d_ = false; // points_ came from the 3D view (three define the plane)
    Keep keep_ = Keep::Front;
};

} // namespace shallot

#pragma once
// Clips the selected brushes by a plane. In a 2D view, two clicks give a line; the plane
// contains it and the view direction. Tab cycles what is kept (front, back, both), Enter
// applies, Escape cancels.
#include "tool.h"

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
    Keep keep() const { return keep_; }

private:
    void showPreview();

    std::vector<Vec3> points_;
    int depthAxis_ = 2;
    Keep keep_ = Keep::Front;
};

} // namespace shallot

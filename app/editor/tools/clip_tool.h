#pragma once
// Clips the selected brushes by a plane. In a 2D view, two clicks give a line; the plane
// contains it and the view direction. In the 3D view, three clicks on surfaces give the
// plane. Tab cycles what is kept (front, back, both), Enter applies, Escape cancels. Once
// there is a plane the overlays show the world as Enter would leave it
// (Editor::previewReplacement).
#include "tools/tool.h"

#include "geometry/plane.h"
#include "world/brush.h"

#include <array>
#include <optional>
#include <tuple>
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
    // The selection cut by a plane, as ReplaceBrushesCommand takes it.
    struct Cut {
        std::vector<int> removed;
        std::vector<std::pair<int, Brush>> inserted;
        std::vector<int> selectAfter;
    };
    Cut cut(const std::array<Vec3, 3>& points) const;
    void showPreview();
    std::optional<Plane> plane() const;
    // Three points of that plane, on the grid when the clicks were (pointsThroughLine).
    std::optional<std::array<Vec3, 3>> planePoints() const;

    std::vector<Vec3> points_;
    int depthAxis_ = 2;
    bool in3d_ = false; // points_ came from the 3D view (three define the plane)
    Keep keep_ = Keep::Front;
    // What the overlays last previewed: the plane (normal, distance), what was kept and the
    // selection cut.
    using PreviewKey = std::tuple<std::array<double, 4>, Keep, std::vector<int>>;
    std::optional<PreviewKey> previewed_;
};

} // namespace shallot

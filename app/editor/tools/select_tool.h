#pragma once
// The default tool in the 2D views: click to select brushes and entities (Shift adds/toggles),
// drag a selected brush or entity to move the selection (in the top view an entity keeps its
// height above the floor under it; Alt keeps its absolute height), drag an edge of the selection's box to resize it, drag on
// empty space for a rubber band. A drag is one undo step, pushed on release; while it
// lasts, the overlays show the moved or resized brushes (Editor::previewBrushes). Escape
// cancels a drag.
#include "tools/tool.h"
#include "world/brush.h"

#include <vector>

namespace shallot {

class SelectTool : public Tool {
public:
    using Tool::Tool;
    bool press(const ViewPoint& p) override;
    void drag(const ViewPoint& p) override;
    void release(const ViewPoint& p) override;
    bool key(QKeyEvent* event) override;
    void cancel() override;

private:
    enum class Mode { None, Move, Resize, RubberBand };
    // Brushes the drag would produce (moved or resized selection), or nothing if invalid.
    std::vector<Brush> draggedBrushes(const ViewPoint& p) const;
    // The grid-snapped offset of a move drag so far.
    Vec3 moveOffset(const ViewPoint& p) const;
    // Each selected entity's offset (in selection order): moveOffset; in the top view a point
    // entity also rises or sinks to keep its height above the floor under it
    // (floorFollowingRise), unless Alt is held (its absolute height kept) or brushes are
    // selected too (all move together).
    std::vector<Vec3> entityOffsets(const ViewPoint& p) const;
    void showPreview(const ViewPoint& p, const std::vector<Brush>& dragged);

    Mode mode_ = Mode::None;
    Vec3 start_ = Vec3::Zero();
    bool additive_ = false;
    // Resize: which sides of the selection box move (-1 min side, +1 max side, 0 none),
    // along the view's u and v axes.
    int resizeU_ = 0, resizeV_ = 0;
};

} // namespace shallot

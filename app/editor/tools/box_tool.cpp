#include "tools/box_tool.h"

#include "palette.h"
#include "document/edit_commands.h"
#include "editor.h"
#include "edit/brush_operations.h"
#include "tools/view_picking.h"

#include <QKeyEvent>

namespace shallot {

namespace {
const char* const kBoxTexture = "shallot/wall";
} // namespace

bool BoxTool::press(const ViewPoint& p) {
    const Aabb sel = editor_.selectionBounds();
    if (!sel.empty()) {
        depthMin_ = sel.mins[p.depthAxis];
        depthMax_ = sel.maxs[p.depthAxis];
    } else {
        // From the view's working depth (in the top view, from the floor nearest below its
        // working height), four grid steps deep.
        const std::optional<double> floor = p.depthAxis == 2 ? floorBelow(editor_, p.world) : std::nullopt;
        depthMin_ = floor ? *floor : editor_.snap(p.world)[p.depthAxis];
        depthMax_ = depthMin_ + 4.0 * editor_.document().data().gridSize;
    }
    start_ = editor_.snap(p.world);
    dragging_ = true;
    return true;
}

bool BoxTool::boxFor(const ViewPoint& p, Vec3& mins, Vec3& maxs) const {
    const Vec3 end = editor_.snap(p.world);
    mins = start_.cwiseMin(end);
    maxs = start_.cwiseMax(end);
    mins[p.depthAxis] = depthMin_;
    maxs[p.depthAxis] = depthMax_;
    return (maxs - mins).minCoeff() > 0.0;
}

void BoxTool::drag(const ViewPoint& p) {
    if (!dragging_) return;
    Vec3 mins, maxs;
    render::MeshBatch preview;
    preview.primitive = render::Primitive::Lines;
    preview.lit = false;
    const bool valid = boxFor(p, mins, maxs);
    if (valid) preview.addBoxEdges(mins, maxs, render::kEditPreviewColour);
    editor_.setToolPreview(std::move(preview));
    if (std::optional<Brush> brush = valid ? boxBrush(mins, maxs, kBoxTexture) : std::nullopt)
        editor_.previewBrushes({int(editor_.document().brushes().size())}, {std::move(*brush)});
    emit editor_.statusMessage(QString("Box %1 x %2 x %3").arg(maxs.x() - mins.x()).arg(maxs.y() - mins.y()).arg(maxs.z() - mins.z()));
}

void BoxTool::release(const ViewPoint& p) {
    if (!dragging_) return;
    Vec3 mins, maxs;
    if (boxFor(p, mins, maxs)) {
        if (std::optional<Brush> brush = boxBrush(mins, maxs, kBoxTexture)) {
            EditorDocument& doc = editor_.document();
            const int index = int(doc.brushes().size());
            doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "Draw box", {}, {{index, *brush}}, {index}));
        }
    }
    cancel();
}

bool BoxTool::key(QKeyEvent* event) {
    if (event->key() != Qt::Key_Escape || !dragging_) return false;
    cancel();
    return true;
}

void BoxTool::cancel() {
    dragging_ = false;
    editor_.setToolPreview({});
    editor_.endPreview();
}

} // namespace shallot

#include "clip_tool.h"

#include "../edit_commands.h"
#include "../editor.h"
#include "edit/brush_operations.h"

#include <QKeyEvent>

namespace shallot {

std::optional<Plane> ClipTool::plane() const {
    if (in3d_) return points_.size() == 3 ? planeFromPoints(points_[0], points_[1], points_[2]) : std::nullopt;
    return points_.size() == 2 ? planeThroughLine(points_[0], points_[1], depthAxis_) : std::nullopt;
}

void ClipTool::addPoint3d(const Vec3& p) {
    if (!in3d_ || points_.size() == 3) points_.clear();
    in3d_ = true;
    points_.push_back(editor_.snap(p));
    showPreview();
}

bool ClipTool::press(const ViewPoint& p) {
    if (in3d_ || points_.size() == 2) points_.clear();
    in3d_ = false;
    points_.push_back(editor_.snap(p.world));
    depthAxis_ = p.depthAxis;
    showPreview();
    return true;
}

void ClipTool::drag(const ViewPoint& p) {
    if (points_.empty()) return;
    points_.back() = editor_.snap(p.world);
    showPreview();
}

bool ClipTool::key(QKeyEvent* event) {
    if (event->key() == Qt::Key_Tab) {
        keep_ = Keep((int(keep_) + 1) % 3);
        showPreview();
        static const char* names[] = {"front", "back", "both"};
        emit editor_.statusMessage(QString("Clip keeps %1").arg(names[int(keep_)]));
        return true;
    }
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) return apply();
    if (event->key() == Qt::Key_Escape) {
        cancel();
        return true;
    }
    return false;
}

bool ClipTool::apply() {
    EditorDocument& doc = editor_.document();
    const std::optional<Plane> plane = this->plane();
    if (!plane || doc.selection().empty()) return false;
    std::vector<std::pair<int, Brush>> inserted;
    std::vector<int> select;
    int next = 0;
    // Results go where the clipped brushes were; brushes after them shift.
    for (int index : doc.selection()) {
        const ClipResult r = clipBrush(doc.brushes()[size_t(index)], *plane);
        const int at = index + next;
        int added = 0;
        if (r.front && keep_ != Keep::Back) inserted.emplace_back(at + added++, *r.front);
        if (r.back && keep_ != Keep::Front) inserted.emplace_back(at + added++, *r.back);
        for (int k = 0; k < added; ++k) select.push_back(at + k);
        next += added - 1;
    }
    doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "Clip", doc.selection(), inserted, select));
    cancel();
    return true;
}

void ClipTool::showPreview() {
    render::MeshBatch preview;
    preview.primitive = render::Primitive::Lines;
    preview.lit = false;
    const QColor colour(80, 255, 120);
    for (const Vec3& p : points_) {
        Vec3 d = Vec3::Zero();
        d[(depthAxis_ + 1) % 3] = 4;
        preview.addLine(p - d, p + d, colour);
        d = Vec3::Zero();
        d[(depthAxis_ + 2) % 3] = 4;
        preview.addLine(p - d, p + d, colour);
    }
    for (size_t i = 0; i + 1 < points_.size(); ++i) preview.addLine(points_[i], points_[i + 1], colour);
    if (!in3d_ && points_.size() == 2) {
        // Extend the line well past the points so the cut is visible across the brush.
        const Vec3 dir = (points_[1] - points_[0]);
        preview.addLine(points_[0] - dir * 100, points_[1] + dir * 100, colour);
    }
    {
        // Show the kept parts of the selected brushes.
        if (const std::optional<Plane> plane = this->plane()) {
            const EditorDocument& doc = editor_.document();
            for (int i : doc.selection()) {
                const ClipResult r = clipBrush(doc.brushes()[size_t(i)], *plane);
                for (const auto* part : {keep_ != Keep::Back ? &r.front : nullptr, keep_ != Keep::Front ? &r.back : nullptr}) {
                    if (!part || !*part) continue;
                    if (const auto g = buildBrushGeometry(**part, doc.data().world.bounds).geometry)
                        for (const ConvexFace& f : g->hull.faces) preview.addOutline(f.polygon.vertices, QColor(255, 220, 60));
                }
            }
        }
    }
    editor_.setToolPreview(std::move(preview));
}

void ClipTool::cancel() {
    points_.clear();
    editor_.setToolPreview({});
}

} // namespace shallot

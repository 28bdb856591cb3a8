#include "tools/clip_tool.h"

#include "palette.h"
#include "document/edit_commands.h"
#include "editor.h"
#include "edit/brush_operations.h"

#include <QKeyEvent>
#include <algorithm>

namespace shallot {

std::optional<Plane> ClipTool::plane() const {
    if (in3d_) return points_.size() == 3 ? planeFromPoints(points_[0], points_[1], points_[2]) : std::nullopt;
    return points_.size() == 2 ? planeThroughLine(points_[0], points_[1], depthAxis_) : std::nullopt;
}

std::optional<std::array<Vec3, 3>> ClipTool::planePoints() const {
    if (in3d_) {
        if (points_.size() != 3 || !planeFromPoints(points_[0], points_[1], points_[2])) return std::nullopt;
        return std::array<Vec3, 3>{points_[0], points_[1], points_[2]};
    }
    return points_.size() == 2 ? pointsThroughLine(points_[0], points_[1], depthAxis_) : std::nullopt;
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

ClipTool::Cut ClipTool::cut(const std::array<Vec3, 3>& points) const {
    const EditorDocument& doc = editor_.document();
    Cut c;
    c.removed = doc.selection();
    std::sort(c.removed.begin(), c.removed.end());
    int next = 0;
    // Results go where the clipped brushes were; brushes after them shift.
    for (int index : c.removed) {
        // The cut sides carry the clicked grid points: the .map gets them verbatim.
        const ClipResult r = clipBrushThrough(doc.brushes()[size_t(index)], points);
        const int at = index + next;
        int added = 0;
        if (r.front && keep_ != Keep::Back) c.inserted.emplace_back(at + added++, *r.front);
        if (r.back && keep_ != Keep::Front) c.inserted.emplace_back(at + added++, *r.back);
        for (int k = 0; k < added; ++k) c.selectAfter.push_back(at + k);
        next += added - 1;
    }
    return c;
}

bool ClipTool::apply() {
    EditorDocument& doc = editor_.document();
    const std::optional<std::array<Vec3, 3>> points = planePoints();
    if (!points || doc.selection().empty()) return false;
    Cut c = cut(*points);
    doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "Clip", std::move(c.removed), std::move(c.inserted), std::move(c.selectAfter)));
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
    // The kept parts of the selected brushes, outlined, and the world with them compiled
    // for the overlays (once per plane, keep and selection).
    const std::optional<Plane> plane = this->plane();
    const std::optional<std::array<Vec3, 3>> points = planePoints();
    const EditorDocument& doc = editor_.document();
    if (plane && points && !doc.selection().empty()) {
        Cut c = cut(*points);
        for (const auto& [index, part] : c.inserted)
            if (const auto g = buildBrushGeometry(part, doc.data().world.bounds).geometry)
                for (const ConvexFace& f : g->hull.faces) preview.addOutline(f.polygon.vertices, render::kEditPreviewColour);
        PreviewKey key{{plane->normal.x(), plane->normal.y(), plane->normal.z(), plane->dist}, keep_, doc.selection()};
        if (previewed_ != key) {
            previewed_ = std::move(key);
            editor_.previewReplacement(std::move(c.removed), std::move(c.inserted));
        }
    } else if (previewed_) {
        previewed_.reset();
        editor_.endPreview();
    }
    editor_.setToolPreview(std::move(preview));
}

void ClipTool::cancel() {
    points_.clear();
    previewed_.reset();
    editor_.setToolPreview({});
    editor_.endPreview();
}

} // namespace shallot

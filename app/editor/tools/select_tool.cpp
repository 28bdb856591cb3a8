#include "tools/select_tool.h"

#include "palette.h"
#include "document/edit_commands.h"
#include "editor.h"
#include "document/entity_edits.h"
#include "edit/brush_operations.h"
#include "tools/view_picking.h"

#include <QKeyEvent>
#include <cmath>

namespace shallot {

namespace {

// How close (in pixels) to an edge of the selection box a press starts a resize.
constexpr double kResizeGrabPixels = 6.0;

Aabb rubberBand(const Vec3& a, const Vec3& b, const ViewPoint& p) {
    Aabb box;
    box.add(a);
    box.add(b);
    box.mins[p.depthAxis] = -std::numeric_limits<double>::infinity();
    box.maxs[p.depthAxis] = std::numeric_limits<double>::infinity();
    return box;
}

} // namespace

bool SelectTool::press(const ViewPoint& p) {
    start_ = p.world;
    additive_ = p.modifiers & Qt::ShiftModifier;
    EditorDocument& doc = editor_.document();
    const Aabb sel = editor_.selectionBounds();
    // Entities have the size of their class: a selection holding any is moved, not resized.
    if (!sel.empty() && !additive_ && doc.entitySelection().empty()) {
        const double grab = kResizeGrabPixels * p.pixelSize;
        // Near an edge: within `grab` outside it, or within a quarter of the box inside it
        // (so a thin brush can still be grabbed for a move when zoomed out).
        auto side = [&](int axis) {
            const double x = p.world[axis];
            const double inner = std::min(grab, 0.25 * (sel.maxs[axis] - sel.mins[axis]));
            if (x > sel.mins[axis] - grab && x < sel.mins[axis] + inner) return -1;
            if (x < sel.maxs[axis] + grab && x > sel.maxs[axis] - inner) return 1;
            return 0;
        };
        auto within = [&](int axis) { return p.world[axis] > sel.mins[axis] - grab && p.world[axis] < sel.maxs[axis] + grab; };
        resizeU_ = within(p.vAxis) ? side(p.uAxis) : 0;
        resizeV_ = within(p.uAxis) ? side(p.vAxis) : 0;
        if (resizeU_ || resizeV_) {
            mode_ = Mode::Resize;
            return true;
        }
    }
    // Entities are small and stand on brushes: under the cursor, they come first, even on
    // a selected brush (a press there would otherwise drag the brush).
    if (const std::optional<int> entity = pickEntity2d(editor_, p)) {
        if (!additive_ && doc.isEntitySelected(*entity)) {
            mode_ = Mode::Move;
            return true;
        }
        mode_ = Mode::None;
        if (additive_) {
            doc.toggleEntitySelected(*entity);
            return true;
        }
        doc.setSelection({});
        doc.setEntitySelection({*entity});
        mode_ = Mode::Move;
        return true;
    }
    // A press on any selected brush drags the selection, even where another brush is on
    // top of it in this view.
    if (!additive_)
        for (int i : doc.selection())
            if (editor_.geometry()[size_t(i)] && depthSpan(*editor_.geometry()[size_t(i)], p)) {
                mode_ = Mode::Move;
                return true;
            }
    const std::optional<int> hit = pickBrush2d(editor_.geometry(), p);
    if (!hit) {
        if (!additive_) {
            doc.setSelection({});
            doc.setEntitySelection({});
        }
        mode_ = Mode::RubberBand;
        return true;
    }
    if (additive_) {
        doc.toggleSelected(*hit);
        mode_ = Mode::None;
        return true;
    }
    if (!doc.isSelected(*hit)) {
        doc.setSelection({*hit});
        doc.setEntitySelection({});
    }
    mode_ = Mode::Move;
    return true;
}

Vec3 SelectTool::moveOffset(const ViewPoint& p) const {
    Vec3 delta = Vec3::Zero();
    delta[p.uAxis] = editor_.snap(p.world[p.uAxis] - start_[p.uAxis]);
    delta[p.vAxis] = editor_.snap(p.world[p.vAxis] - start_[p.vAxis]);
    return delta;
}

std::vector<Vec3> SelectTool::entityOffsets(const ViewPoint& p) const {
    const EditorDocument& doc = editor_.document();
    const Vec3 delta = moveOffset(p);
    std::vector<Vec3> out(doc.entitySelection().size(), delta);
    // With brushes in the selection everything moves as it is (a monster on a platform
    // moved with the platform).
    const bool followFloor = p.depthAxis == 2 && !(p.modifiers & Qt::AltModifier) && doc.selection().empty() && delta != Vec3::Zero();
    if (!followFloor) return out;
    for (size_t k = 0; k < out.size(); ++k) {
        const int e = doc.entitySelection()[k];
        if (!editor_.entityShape(e) || !editor_.entityShape(e)->brushes.empty()) continue; // a door moves as its brushes
        if (const std::optional<double> rise = floorFollowingRise(editor_, editor_.entityBox(e), delta)) out[k].z() += *rise;
    }
    return out;
}

std::vector<Brush> SelectTool::draggedBrushes(const ViewPoint& p) const {
    const EditorDocument& doc = editor_.document();
    if (mode_ == Mode::Move) return translatedSelection(doc, moveOffset(p));
    // Resize: move the grabbed sides of the selection box to the snapped cursor, then map
    // every selected brush from the old box to the new one.
    const Aabb before = editor_.selectionBounds();
    Aabb after = before;
    auto moveSide = [&](int axis, int side) {
        if (side < 0) after.mins[axis] = std::min(editor_.snap(p.world[axis]), after.maxs[axis] - 1e-3);
        if (side > 0) after.maxs[axis] = std::max(editor_.snap(p.world[axis]), after.mins[axis] + 1e-3);
    };
    moveSide(p.uAxis, resizeU_);
    moveSide(p.vAxis, resizeV_);
    std::vector<Brush> out;
    for (int i : doc.selection()) {
        const Brush& b = doc.brushes()[size_t(i)];
        const Aabb old = bounds(b);
        if (old.empty()) return {};
        Aabb target;
        for (int a = 0; a < 3; ++a) {
            const double scale = (after.maxs[a] - after.mins[a]) / (before.maxs[a] - before.mins[a]);
            target.mins[a] = after.mins[a] + (old.mins[a] - before.mins[a]) * scale;
            target.maxs[a] = after.mins[a] + (old.maxs[a] - before.mins[a]) * scale;
        }
        std::optional<Brush> resized = withBounds(b, target);
        if (!resized) return {};
        out.push_back(std::move(*resized));
    }
    return out;
}

void SelectTool::showPreview(const ViewPoint& p, const std::vector<Brush>& dragged) {
    render::MeshBatch preview;
    preview.primitive = render::Primitive::Lines;
    preview.lit = false;
    const QColor colour = render::kEditPreviewColour;
    if (mode_ == Mode::RubberBand) {
        Vec3 a = start_, b = start_, c = p.world, d = p.world;
        b[p.uAxis] = p.world[p.uAxis];
        d[p.uAxis] = start_[p.uAxis];
        preview.addLine(a, b, colour);
        preview.addLine(b, c, colour);
        preview.addLine(c, d, colour);
        preview.addLine(d, a, colour);
    } else {
        for (const Brush& b : dragged)
            if (const auto g = buildBrushGeometry(b, editor_.document().data().world.bounds).geometry)
                for (const ConvexFace& f : g->hull.faces) preview.addOutline(f.polygon.vertices, colour);
        if (mode_ == Mode::Move) {
            const std::vector<int>& entities = editor_.document().entitySelection();
            const std::vector<Vec3> offsets = entityOffsets(p);
            for (size_t k = 0; k < entities.size(); ++k)
                if (const Aabb box = editor_.entityBox(entities[k]); !box.empty())
                    preview.addBoxEdges(box.mins + offsets[k], box.maxs + offsets[k], colour);
        }
    }
    editor_.setToolPreview(std::move(preview));
}

void SelectTool::drag(const ViewPoint& p) {
    if (mode_ == Mode::None) return;
    if (mode_ == Mode::RubberBand) {
        showPreview(p, {});
        return;
    }
    std::vector<Brush> dragged = draggedBrushes(p);
    showPreview(p, dragged);
    if (!dragged.empty() && !editor_.document().selection().empty()) editor_.previewBrushes(editor_.document().selection(), std::move(dragged));
}

bool SelectTool::key(QKeyEvent* event) {
    if (event->key() != Qt::Key_Escape || mode_ == Mode::None) return false;
    cancel();
    return true;
}

void SelectTool::release(const ViewPoint& p) {
    EditorDocument& doc = editor_.document();
    if (mode_ == Mode::RubberBand) {
        const Aabb band = rubberBand(start_, p.world, p);
        std::vector<int> picked = additive_ ? doc.selection() : std::vector<int>{};
        for (size_t i = 0; i < editor_.geometry().size(); ++i) {
            const auto& g = editor_.geometry()[i];
            if (g && band.contains(g->bounds.mins) && band.contains(g->bounds.maxs)) picked.push_back(int(i));
        }
        doc.setSelection(picked);
        std::vector<int> entities = additive_ ? doc.entitySelection() : std::vector<int>{};
        for (size_t i = 0; i < doc.entities().size(); ++i) {
            const Aabb box = editor_.entityBox(int(i));
            if (editor_.entityShown(int(i)) && band.contains(box.mins) && band.contains(box.maxs)) entities.push_back(int(i));
        }
        doc.setEntitySelection(entities);
    } else if (mode_ == Mode::Move) {
        const std::vector<Brush> result = draggedBrushes(p);
        if (result.size() != doc.selection().size())
            emit editor_.statusMessage("That would make an invalid brush; nothing changed");
        else if (QUndoCommand* move = moveSelectionCommand(doc, "Move", result, entityOffsets(p)))
            doc.undoStack()->push(move);
    } else if (mode_ == Mode::Resize) {
        const std::vector<Brush> result = draggedBrushes(p);
        bool changed = false;
        for (size_t k = 0; k < result.size(); ++k)
            changed |= !samePlanes(result[k], doc.brushes()[size_t(doc.selection()[k])]);
        if (changed)
            doc.undoStack()->push(replaceInPlace(&doc, "Resize", doc.selection(), result));
        else if (result.empty())
            emit editor_.statusMessage("That would make an invalid brush; nothing changed");
    }
    cancel();
}

void SelectTool::cancel() {
    mode_ = Mode::None;
    editor_.setToolPreview({});
    editor_.endPreview();
}

} // namespace shallot

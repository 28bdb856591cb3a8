#include "views/legend.h"

#include "editor.h"
#include "services/overlay_controller.h"
#include "brush_scene_builder.h"
#include "nav_overlay.h"
#include "section_overlays.h"

#include <QFontMetricsF>
#include <QPainter>

namespace shallot {

namespace {

// The colours of the brush kinds other than solid that the level has (clip, non-solid).
std::vector<LegendEntry> brushKindLegend(const std::vector<Brush>& brushes) {
    bool has[4] = {};
    for (const Brush& b : brushes) has[size_t(render::brushKind(b.contents))] = true;
    std::vector<LegendEntry> out;
    if (has[size_t(render::BrushKind::PlayerClip)]) out.push_back({render::kPlayerClipBrushColour, "clip brush: players and hulls"});
    if (has[size_t(render::BrushKind::MonsterClip)]) out.push_back({render::kMonsterClipBrushColour, "clip brush: monsters and bots"});
    if (has[size_t(render::BrushKind::NonSolid)]) out.push_back({render::kNonSolidBrushColour, "non-solid brush (liquid, trigger...)"});
    return out;
}

} // namespace

std::vector<LegendEntry> viewLegend(const Editor& editor, bool view3d) {
    const OverlayController& o = editor.overlays();
    const int pose = editor.currentPose();
    const auto& poses = editor.document().poses();
    const QString poseName = pose >= 0 && size_t(pose) < poses.size() ? QString::fromStdString(poses[size_t(pose)].name) : "pose";
    const bool sections = !view3d && o.sections().isOn();
    std::vector<LegendEntry> out;
    if (sections) out.push_back({render::kBrushCutColour, "brushes cut by the plane", true});
    if (o.isOn(Overlay::Cells)) {
        const render::CellFilter f = o.cellFilter();
        if (o.cellColouring() == render::CellColouring::ByBitset) {
            out.push_back({render::bitsetColour(0), "empty for every pose"});
            out.push_back({render::bitsetColour(3), "other colours: solid for some poses"});
        } else {
            if (f != render::CellFilter::Solid) out.push_back({render::kEmptyCellColour, "empty for " + poseName});
            if (f != render::CellFilter::Empty) out.push_back({render::kSolidCellColour, "solid for " + poseName});
        }
        if (o.greyUnreachable()) out.push_back({render::kGreyedCellColour, "not reached from the start"});
        if (sections && f != render::CellFilter::Solid) out.push_back({render::kVoidColour, "void: reachable from outside"});
    }
    if (o.isOn(Overlay::Reach)) {
        out.push_back({render::kReachedColour, "reached from the start"});
        if (o.lastFlood() && o.lastFlood()->leak) out.push_back({render::kLeakColour, "leak path", true});
    }
    if (o.isOn(Overlay::Portals)) out.push_back({render::kPortalColour, "portal open for " + poseName, true});
    if (o.isOn(Overlay::Union)) out.push_back({render::kExpandedWorldColour, "expanded world of " + poseName, true});
    const auto& rays = editor.document().rays();
    const bool paths = std::any_of(rays.begin(), rays.end(), [](const TestRay& r) { return r.path; });
    const bool plainRays = std::any_of(rays.begin(), rays.end(), [](const TestRay& r) { return !r.path; });
    if (o.isOn(Overlay::Rays) && plainRays) {
        out.push_back({QColor(120, 255, 120), "ray: clear", true});
        out.push_back({QColor(255, 90, 90), "ray: past the contact", true});
    }
    if (o.isOn(Overlay::Rays) && paths) {
        out.push_back({render::kNavPathColour, "walking path of " + poseName, true});
        out.push_back({render::kNoPathColour, "no walking path", true});
    }
    if (o.isOn(Overlay::Walkable)) {
        out.push_back({render::componentColour(0), "walkable for " + poseName + " (a colour per connected area)"});
        out.push_back({render::kStepUpColour, "step up", true});
        out.push_back({render::kStepDownColour, "step down", true});
        out.push_back({render::kDropColour, "drop", true});
        if (std::any_of(editor.document().poses().begin(), editor.document().poses().end(), [](const Pose& p) { return p.nav.jump; }))
            out.push_back({render::kJumpColour, "jump", true});
        if (o.isOn(Overlay::Rays) && plainRays) out.push_back({render::kNavPathColour, "walking path of a ray", true});
    }
    for (const LegendEntry& e : brushKindLegend(editor.document().brushes())) out.push_back(e);
    if (!editor.patchMeshes().empty()) out.push_back({render::kPatchColour, "patch (not collided)"});
    if (!editor.problemEntities().empty()) out.push_back({QColor(255, 60, 60), "entity with a problem", true});
    return out;
}

QRectF paintLegend(QPainter& painter, const QRectF& area, const std::vector<LegendEntry>& entries) {
    if (entries.empty()) return {};
    constexpr double kPadding = 4.0, kSwatch = 10.0, kGap = 5.0;
    const QFontMetricsF metrics(painter.font());
    double textWidth = 0;
    for (const LegendEntry& e : entries) textWidth = std::max(textWidth, metrics.horizontalAdvance(e.text));
    const double row = std::max(kSwatch, metrics.height());
    const QSizeF size(2 * kPadding + kSwatch + kGap + textWidth, 2 * kPadding + row * double(entries.size()));
    const QRectF box(area.right() - size.width() - kPadding, area.bottom() - size.height() - kPadding, size.width(), size.height());
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(box, QColor(20, 20, 24, 190));
    double y = box.top() + kPadding;
    for (const LegendEntry& e : entries) {
        const QRectF swatch(box.left() + kPadding, y + (row - kSwatch) / 2, kSwatch, kSwatch);
        QColor c = e.colour;
        c.setAlpha(255);
        if (e.line) {
            painter.setPen(QPen(c, 2));
            painter.drawLine(QPointF(swatch.left(), swatch.center().y()), QPointF(swatch.right(), swatch.center().y()));
        } else {
            painter.fillRect(swatch, c);
        }
        painter.setPen(QColor(220, 220, 228));
        painter.drawText(QRectF(swatch.right() + kGap, y, textWidth + 1, row), Qt::AlignVCenter | Qt::AlignLeft, e.text);
        y += row;
    }
    painter.restore();
    return box;
}

} // namespace shallot

#include "views/legend.h"

#include "brush_scene_builder.h"
#include "editor.h"
#include "nav_overlay.h"
#include "palette.h"
#include "services/light_service.h"
#include "services/mover_paths.h"
#include "services/mover_play.h"
#include "services/mover_states.h"
#include "services/overlay_controller.h"

#include <QPainter>
#include <array>
#include <cmath>

namespace shallot {

namespace {

constexpr double kPadding = 3.0, kSwatch = 9.0, kGap = 4.0;
// The view's edge stays this far from the legend.
constexpr double kMargin = 4.0;
// Texts are elided down to no fewer characters than this before the legend gives up its
// share and collapses to the key.
constexpr int kShortestText = 12;
// The collapsed key shows this many of the legend's swatches beside its label.
constexpr int kKeySwatches = 4;
const QColor kLegendGround(20, 20, 24, 200), kLegendText(220, 220, 228);

// The travel types the current pose's travel has beyond walking (doors, rides, teleports,
// pushes, swims, water jumps, ladders), in the order of TravelKind.
void addTravelKinds(const Editor& editor, std::vector<LegendEntry>& out) {
    const auto& meshes = editor.overlays().nav().meshes();
    const TravelGraph* graph = meshes ? meshes->travelOf(editor.currentPose()) : nullptr;
    if (!graph) return;
    bool has[size_t(TravelKind::Ladder) + 1] = {};
    has[size_t(TravelKind::Door)] = !graph->gates.empty();
    for (const TravelLink& l : graph->links) has[size_t(l.kind)] = true;
    const std::pair<TravelKind, const char*> named[] = {{TravelKind::Door, "door (closed)"},
                                                        {TravelKind::Plat, "plat ride"},
                                                        {TravelKind::Train, "train ride"},
                                                        {TravelKind::Teleport, "teleport"},
                                                        {TravelKind::Push, "push"},
                                                        {TravelKind::Swim, "swim"},
                                                        {TravelKind::WaterJump, "water jump"},
                                                        {TravelKind::Ladder, "ladder"}};
    for (const auto& [kind, name] : named)
        if (has[size_t(kind)]) out.push_back({render::travelColour(kind), name, true});
}

// The colours of the brush kinds other than solid that the level has (clip, non-solid).
void addBrushKinds(const std::vector<Brush>& brushes, std::vector<LegendEntry>& out) {
    bool has[4] = {};
    for (const Brush& b : brushes) has[size_t(render::brushKind(b.contents))] = true;
    if (has[size_t(render::BrushKind::PlayerClip)]) out.push_back({render::kPlayerClipBrushColour, "player clip"});
    if (has[size_t(render::BrushKind::MonsterClip)]) out.push_back({render::kMonsterClipBrushColour, "monster clip"});
    if (has[size_t(render::BrushKind::NonSolid)]) out.push_back({render::kNonSolidBrushColour, "non-solid brush"});
}

// The entity categories the level has and the views show.
void addEntityCategories(const Editor& editor, std::vector<LegendEntry>& out) {
    std::array<bool, kEntityCategoryCount> has{};
    for (int i = 0; i < int(editor.document().entities().size()); ++i)
        if (editor.entityShown(i)) has[size_t(editor.entityCategory(i))] = true;
    for (int c = 0; c < kEntityCategoryCount; ++c)
        if (has[size_t(c)])
            out.push_back({render::colourOfRgba(categoryColour(EntityCategory(c))), categoryName(EntityCategory(c)), true});
}

QString joined(const QStringList& parts) { return parts.join(", "); }

} // namespace

std::vector<LegendEntry> viewLegend(const Editor& editor, bool view3d) {
    const OverlayController& o = editor.overlays();
    const int pose = editor.currentPose();
    const auto& poses = editor.document().poses();
    const QString poseName = pose >= 0 && size_t(pose) < poses.size() ? QString::fromStdString(poses[size_t(pose)].name) : "pose";
    const bool sections = !view3d && o.sections().isOn();
    const bool roundPose = pose >= 0 && size_t(pose) < poses.size() && poses[size_t(pose)].shape.isRound();
    std::vector<LegendEntry> out;
    if (sections) out.push_back({render::kBrushCutColour, "cut by the plane", true});
    if (o.isOn(Overlay::Cells)) {
        const render::CellFilter f = o.cellFilter();
        if (roundPose) {
            // Its own cells (services/round_pose_drawing.h): three kinds, whatever the colouring.
            using render::RoundCellKind;
            const std::pair<RoundCellKind, QString> kinds[] = {{RoundCellKind::CertainEmpty, "certain-empty for "},
                                                               {RoundCellKind::DecidedExactly, "decided exactly for "},
                                                               {RoundCellKind::CertainSolid, "certain-solid for "}};
            for (const auto& [kind, text] : kinds)
                if (render::roundCellPasses(kind, f)) out.push_back({render::roundCellColour(kind), text + poseName});
        } else if (o.cellColouring() == render::CellColouring::ByBitset) {
            out.push_back({render::bitsetColour(0), "empty for all poses"});
            out.push_back({render::bitsetColour(3), "others: solid for some"});
        } else {
            if (f != render::CellFilter::Solid) out.push_back({render::kEmptyCellColour, "empty for " + poseName});
            if (f != render::CellFilter::Empty) out.push_back({render::kSolidCellColour, "solid for " + poseName});
        }
        if (o.greyUnreachable()) out.push_back({render::kGreyedCellColour, "not reached"});
        if (sections && f != render::CellFilter::Solid) out.push_back({render::kVoidColour, "void (outside)"});
    }
    if (o.isOn(Overlay::Reach)) out.push_back({render::kReachedColour, "reached"});
    if (o.isOn(Overlay::Visible)) out.push_back({render::kVisibleColour, "in the PVS"});
    if (o.isOn(Overlay::ViewWeight)) {
        const uint32_t limit = editor.document().data().viewWeightLimit;
        out.push_back({render::viewWeightColour(0), "sees few faces"});
        out.push_back({render::viewWeightColour(render::kViewWeightSteps - 1), QString("near %1 faces").arg(limit)});
        out.push_back({render::viewWeightColour(render::kViewWeightSteps), "over the limit"});
    }
    // The Lit shadings of a level nothing lights: black is what the game shows.
    const LightService& light = editor.lighting();
    if (view3d && light.shading() != render::LightShading::Flat && light.latest().lighting && litByNothing(*light.latest().lighting))
        out.push_back({QColor(Qt::black), "no lights: black in the game"});
    if (o.isOn(Overlay::TooDark))
        out.push_back({render::kTooDarkColour, QString("too dark (light under %1)").arg(editor.document().data().darkLimit)});
    if (editor.moverPaths().isOn()) out.push_back({render::kMoverPathColour, "where movers go", true});
    if (editor.moverStates().sweptShown() && !editor.scene().layer(render::Layer::MoverSwept).chunkList().empty())
        out.push_back({render::kMoverSweptColour, "swept by a mover"});
    if (editor.moverPlay().playing()) out.push_back({render::kPoseBoxColour, "agent (Play)"});
    if (o.isOn(Overlay::Quake3Capsule)) out.push_back({render::kQuake3RefusedColour, "Quake 3 refuses the capsule here", true});
    if (o.isOn(Overlay::Portals)) out.push_back({render::kPortalColour, "portal", true});
    if (o.isOn(Overlay::Union))
        out.push_back({render::kExpandedWorldColour, roundPose ? "expanded world (exact, rounded)" : "expanded world", true});
    const auto& rays = editor.document().rays();
    const bool paths = std::any_of(rays.begin(), rays.end(), [](const TestRay& r) { return r.path; });
    const bool plainRays = std::any_of(rays.begin(), rays.end(), [](const TestRay& r) { return !r.path; });
    const bool raysShown = o.isOn(Overlay::Rays) && plainRays;
    if (raysShown) {
        out.push_back({render::kRayClearColour, "ray: clear", true});
        out.push_back({render::kRayBlockedColour, "ray: blocked", true});
        out.push_back({render::kRayContactColour, "ray contact", true});
    }
    // A pose's box: at a ray's ends, or the Pose tool's.
    const bool preview = !editor.scene().layer(render::Layer::ToolPreview).chunkList().empty();
    if (raysShown || (preview && editor.activeTool() == ToolKind::Pose)) out.push_back({render::kPoseBoxColour, "pose box", true});
    if (o.isOn(Overlay::Walkable)) {
        out.push_back({render::componentColour(0), "walkable (per area)"});
        out.push_back({render::kStepUpColour, "step up", true});
        out.push_back({render::kStepDownColour, "step down", true});
        out.push_back({render::kDropColour, "drop", true});
        if (std::any_of(poses.begin(), poses.end(), [](const Pose& p) { return p.nav.jump; }))
            out.push_back({render::kJumpColour, "jump", true});
        addTravelKinds(editor, out);
    }
    if ((o.isOn(Overlay::Rays) && paths) || (o.isOn(Overlay::Walkable) && raysShown))
        out.push_back({render::kNavPathColour, "walking path", true});
    addBrushKinds(editor.document().brushes(), out);
    if (!editor.patchMeshes().empty()) out.push_back({render::kPatchColour, "patch (not collided)"});
    addEntityCategories(editor, out);
    if (!editor.document().selectionEmpty()) out.push_back({render::kSelectionColour, "selected", true});
    if (preview && editor.activeTool() != ToolKind::Pose) out.push_back({render::kEditPreviewColour, "edit in progress", true});
    // Everything wrong shares one red: named once, with what it marks here.
    QStringList problems;
    if (o.isOn(Overlay::Reach) && o.lastFlood() && o.lastFlood()->leak) problems << "leak";
    if (o.isOn(Overlay::Rays) && paths) problems << "no path";
    if (!editor.problemEntities().empty()) problems << "entity";
    if (!problems.isEmpty()) out.push_back({render::kProblemColour, "problem: " + joined(problems), true});
    return out;
}

LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, const QRectF& view, const QFontMetricsF& metrics,
                          bool whole) {
    LegendLayout layout;
    if (entries.empty()) return layout;
    double longest = 0;
    for (const LegendEntry& e : entries) longest = std::max(longest, metrics.horizontalAdvance(e.text));
    layout.row = std::max(kSwatch, metrics.height());
    const double shortest = std::min(longest, metrics.averageCharWidth() * kShortestText);
    const QSizeF room(view.width() - 2 * kMargin, view.height() - 2 * kMargin);
    const int n = int(entries.size());
    // The widest texts that fit: in as few columns as the height allows, within the share
    // when that can be done, else within the view.
    const auto sizeOf = [&](int columns, double text) {
        const int rows = (n + columns - 1) / columns;
        return QSizeF(columns * (kSwatch + kGap + text + 2 * kPadding), rows * layout.row + 2 * kPadding);
    };
    const auto place = [&](int columns, double text, bool withinShare) {
        const QSizeF size = sizeOf(columns, text);
        layout.columns = columns;
        layout.textWidth = text;
        layout.column = kSwatch + kGap + text + 2 * kPadding;
        layout.withinShare = withinShare;
        layout.elided = text < longest;
        layout.box = QRectF(view.right() - kMargin - size.width(), view.bottom() - kMargin - size.height(), size.width(), size.height());
    };
    const double share = kLegendMaxViewShare * view.width() * view.height();
    // The widest texts first; of the column counts that fit, the one reaching least far
    // into the view (across or up).
    for (const bool withinShare : {true, false}) {
        if (withinShare && whole) continue;
        for (double text = longest; text >= shortest - 0.5; text -= std::max(1.0, 0.1 * longest)) {
            int best = 0;
            double bestReach = 2.0;
            for (int columns = 1; columns <= n; ++columns) {
                const QSizeF size = sizeOf(columns, text);
                if (size.width() > room.width()) break; // more columns only widen it
                if (size.height() > room.height() || (withinShare && size.width() * size.height() > share)) continue;
                const double reach = std::max(size.width() / view.width(), size.height() / view.height());
                if (reach < bestReach) best = columns, bestReach = reach;
            }
            if (best > 0) {
                place(best, text, withinShare);
                return layout;
            }
        }
    }
    place(1, shortest, false); // a view too small for any: one column, over the view
    return layout;
}

void LegendBox::paint(QPainter& painter, const QRectF& view, const std::vector<LegendEntry>& entries) {
    open_ = false;
    elided_ = false;
    shown_ = QRectF();
    if (entries.empty()) return;
    const QFontMetricsF metrics(painter.font());
    const bool asked = choice_ == Choice::Open || hovered_;
    LegendLayout layout = layoutLegend(entries, view, metrics);
    fits_ = layout.withinShare;
    if (asked && layout.elided) layout = layoutLegend(entries, view, metrics, true);
    open_ = asked || fits_;
    elided_ = open_ && layout.elided;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const auto swatchAt = [&](const LegendEntry& e, const QRectF& swatch) {
        QColor c = e.colour;
        c.setAlpha(255);
        if (e.line) {
            painter.setPen(QPen(c, 2));
            painter.drawLine(QPointF(swatch.left(), swatch.center().y()), QPointF(swatch.right(), swatch.center().y()));
        } else {
            painter.fillRect(swatch, c);
        }
    };
    if (open_) {
        shown_ = layout.box;
        painter.fillRect(shown_, kLegendGround);
        const int rows = (int(entries.size()) + layout.columns - 1) / layout.columns;
        for (int i = 0; i < int(entries.size()); ++i) {
            const double x = shown_.left() + kPadding + (i / rows) * layout.column, y = shown_.top() + kPadding + (i % rows) * layout.row;
            const QRectF swatch(x, y + (layout.row - kSwatch) / 2, kSwatch, kSwatch);
            swatchAt(entries[size_t(i)], swatch);
            painter.setPen(kLegendText);
            const QString text = metrics.elidedText(entries[size_t(i)].text, Qt::ElideRight, layout.textWidth + 1);
            painter.drawText(QRectF(swatch.right() + kGap, y, layout.textWidth + 1, layout.row), Qt::AlignVCenter | Qt::AlignLeft, text);
        }
    } else {
        // The key: a few of the colours and how many there are; the mouse opens it.
        const QString label = QString("Key (%1)").arg(entries.size());
        const int swatches = std::min<int>(kKeySwatches, int(entries.size()));
        const QSizeF size(2 * kPadding + swatches * (kSwatch + 2) + kGap + metrics.horizontalAdvance(label), layout.row + 2 * kPadding);
        shown_ = QRectF(view.right() - kMargin - size.width(), view.bottom() - kMargin - size.height(), size.width(), size.height());
        painter.fillRect(shown_, kLegendGround);
        for (int i = 0; i < swatches; ++i)
            swatchAt(entries[size_t(i)], QRectF(shown_.left() + kPadding + i * (kSwatch + 2), shown_.top() + kPadding + (layout.row - kSwatch) / 2, kSwatch, kSwatch));
        painter.setPen(kLegendText);
        painter.drawText(QRectF(shown_.left() + kPadding + swatches * (kSwatch + 2) + kGap, shown_.top() + kPadding, size.width(), layout.row),
                         Qt::AlignVCenter | Qt::AlignLeft, label);
    }
    painter.restore();
}

bool LegendBox::hover(std::optional<QPointF> pos) {
    const bool now = pos && shown_.contains(*pos);
    if (now == hovered_) return false;
    hovered_ = now;
    return choice_ == Choice::Auto; // a pinned legend stays, hovered or not
}

bool LegendBox::click(const QPointF& pos) {
    if (!shown_.contains(pos)) return false;
    if (choice_ == Choice::Open) { // pinned open: folded again
        choice_ = Choice::Auto;
        hovered_ = false;
        return true;
    }
    // Open because it fits (its texts whole while the mouse is on it): what lies under it is
    // clicked, hovered or not; a drag that starts there reaches the tools.
    if (fits_) return false;
    choice_ = Choice::Open; // the key, or the legend the mouse opened from it: pinned open
    return true;
}

} // namespace shallot

#include "soak_driver.h"

#include "document/document_files.h"
#include "document/edit_script.h"
#include "docks/entity_dock.h"
#include "document/entity_edits.h"
#include "services/overlay_controller.h"
#include "docks/pose_dock.h"
#include "tools/view_picking.h"
#include "views/legend.h"
#include "views/viewport_2d.h"
#include "views/viewport_3d.h"

#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

namespace shallot {

namespace {

// The document stays between these brush counts (deletes and duplicates are skipped past
// them), so compiles stay fast and every operation finds something to work on.
constexpr int kMinBrushes = 4;
constexpr int kMaxBrushes = 40;
constexpr int kMaxRays = 12;
constexpr int kMaxEntities = 30;
// Tools' grab distances in pixels (SelectTool, RayTool): the driver avoids or aims at them.
constexpr double kResizeGrabPixels = 6.0;
constexpr double kRayGrabPixels = 8.0;
// Mouse points stay this far inside a view: clear of the tabs of the working lines at its
// top and left edges (Viewport2D::kWorkingTabPixels), which take a press from any tool.
constexpr int kMarginPixels = 20;

Vec3 centroid(const BrushGeometry& g) {
    Vec3 sum = Vec3::Zero();
    for (const Vec3& v : g.vertices) sum += v;
    return sum / double(g.vertices.size());
}

Aabb padded(Aabb box, double by) {
    box.mins -= Vec3::Constant(by);
    box.maxs += Vec3::Constant(by);
    return box;
}

QJsonObject boundsJson(const Aabb& b) { return QJsonObject{{"mins", vecToJson(b.mins)}, {"maxs", vecToJson(b.maxs)}}; }

// SelectTool::press: which side of the selection box a press at `p` grabs along `axis`
// (-1, +1, or 0 for none).
int grabbedSide(const Aabb& sel, const ViewPoint& p, int axis) {
    const double grab = kResizeGrabPixels * p.pixelSize;
    const double x = p.world[axis];
    const double inner = std::min(grab, 0.25 * (sel.maxs[axis] - sel.mins[axis]));
    if (x > sel.mins[axis] - grab && x < sel.mins[axis] + inner) return -1;
    if (x < sel.maxs[axis] + grab && x > sel.maxs[axis] - inner) return 1;
    return 0;
}

bool within(const Aabb& sel, const ViewPoint& p, int axis) {
    const double grab = kResizeGrabPixels * p.pixelSize;
    return p.world[axis] > sel.mins[axis] - grab && p.world[axis] < sel.maxs[axis] + grab;
}

// The (u, v) sides a press grabs for a resize, as SelectTool::press decides.
std::pair<int, int> resizeGrab(const Aabb& sel, const ViewPoint& p) {
    return {within(sel, p, p.vAxis) ? grabbedSide(sel, p, p.uAxis) : 0, within(sel, p, p.uAxis) ? grabbedSide(sel, p, p.vAxis) : 0};
}

} // namespace

SoakDriver::SoakDriver(MainWindow& window, unsigned seed, const QString& folder, QFile& script)
    : window_(window), doc_(window.editor().document()), rng_(seed), folder_(folder), script_(script) {
    lastUndoIndex_ = doc_.undoStack()->index();
}

bool SoakDriver::step() {
    using Op = bool (SoakDriver::*)();
    // Weights: mostly brush edits and selection, then undo/redo, rays, poses and files.
    static const std::pair<int, Op> kOps[] = {
        {8, &SoakDriver::drawBox},   {12, &SoakDriver::clickSelect},   {3, &SoakDriver::pickIn3d},
        {12, &SoakDriver::moveSelection}, {8, &SoakDriver::resizeSelection}, {12, &SoakDriver::menuCommand},
        {5, &SoakDriver::clip},      {4, &SoakDriver::addRay},         {4, &SoakDriver::dragRay},
        {3, &SoakDriver::editPose},  {10, &SoakDriver::undoRedo},      {2, &SoakDriver::changeGrid},
        {4, &SoakDriver::save},      {1, &SoakDriver::reopen},        {3, &SoakDriver::placeEntity},
        {4, &SoakDriver::editEntity}};
    int total = 0;
    for (const auto& [weight, op] : kOps) total += weight;
    int pick = randomInt(0, total - 1);
    Op chosen = nullptr;
    for (const auto& [weight, op] : kOps) {
        if (pick < weight) {
            chosen = op;
            break;
        }
        pick -= weight;
    }
    if (!(this->*chosen)()) return false;
    // Sometimes let the compile of this state finish and show, sometimes edit on at once
    // (the next edit cancels the running compile).
    if (chance(0.15)) {
        ++stats_.compileWaits;
        const bool shown = QTest::qWaitFor([&] {
            return !window_.editor().compiler().busy() && window_.editor().overlays().shownRevision() == doc_.worldRevision();
        }, 60000);
        if (!shown) return fail("the compile of the current world never showed");
    } else {
        QTest::qWait(randomInt(0, 15));
    }
    return true;
}

Aabb SoakDriver::documentBounds() const {
    Aabb box;
    for (const auto& g : window_.editor().geometry())
        if (g) box.add(g->bounds);
    return box.empty() ? Aabb{Vec3::Constant(-256), Vec3::Constant(256)} : box;
}

Viewport2D* SoakDriver::framedView(const Aabb& box, int viewIndex) {
    Viewport2D* view = window_.view2d(viewIndex < 0 ? randomInt(0, 2) : viewIndex);
    view->frame(padded(box, 32));
    view->setFocus(); // menu commands act in the last 2D view that had the focus
    return view;
}

ViewPoint SoakDriver::at(Viewport2D* view, QPoint pixel) const { return view->viewPoint(QPointF(pixel), {}); }

bool SoakDriver::inside(QWidget* view, QPoint pixel) const {
    return view->rect().adjusted(kMarginPixels, kMarginPixels, -kMarginPixels, -kMarginPixels).contains(pixel);
}

QPoint SoakDriver::randomPixel(QWidget* view) {
    // Not on the view's legend, shown or opened by the mouse passing: a click there opens or
    // pins it (views/legend.h) and never reaches the tools, so the replay would not see it.
    QRectF legend;
    if (auto* v = qobject_cast<Viewport*>(view); v && window_.editor().legendsShown())
        legend = v->legend().shown() | layoutLegend(viewLegend(window_.editor(), v == window_.view3d()), v->rect(), QFontMetricsF(v->font())).box;
    constexpr int kTries = 100; // a view the legend fills gets a pixel anyway
    QPoint p;
    for (int k = 0; k < kTries; ++k) {
        p = QPoint(randomInt(kMarginPixels, view->width() - kMarginPixels), randomInt(kMarginPixels, view->height() - kMarginPixels));
        if (!legend.adjusted(-kMarginPixels, -kMarginPixels, kMarginPixels, kMarginPixels).contains(p)) break;
    }
    return p;
}

bool SoakDriver::typeShortcut(const QString& actionName) {
    QAction* action = window_.action(actionName);
    QSignalSpy triggered(action, &QAction::triggered);
    QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : &window_;
    QTest::keySequence(target, action->shortcut());
    if (triggered.count() != 1) return fail("the shortcut " + action->shortcut().toString() + " did not trigger " + actionName);
    return true;
}

void SoakDriver::pressAndMove(QWidget* view, QPoint from, QPoint to, Qt::MouseButton button) {
    QTest::mousePress(view, button, {}, from);
    for (int i = 1; i <= 4; ++i) QTest::mouseMove(view, from + (to - from) * i / 4);
}

void SoakDriver::drag(QWidget* view, QPoint from, QPoint to, Qt::MouseButton button) {
    pressAndMove(view, from, to, button);
    QTest::mouseRelease(view, button, {}, to);
}

bool SoakDriver::heldDrag(QWidget* view, QPoint from, QPoint to) {
    const bool cancel = chance(0.2);
    const int holdMs = randomInt(0, 40);
    pressAndMove(view, from, to, Qt::LeftButton);
    QTest::qWait(holdMs);
    if (cancel) QTest::keyClick(view, Qt::Key_Escape);
    QTest::mouseRelease(view, Qt::LeftButton, {}, to);
    return !cancel;
}

void SoakDriver::record(QJsonObject op) {
    const int index = doc_.undoStack()->index();
    op["index"] = index;
    const QString name = op["op"].toString();
    if (name != "undo" && name != "redo" && name != "reopen" && index != lastUndoIndex_) ++stats_.undoSteps;
    lastUndoIndex_ = index;
    script_.write(editOpLine(op));
    script_.flush();
    ++stats_.operations;
}

bool SoakDriver::fail(const QString& message) {
    error_ = QString("operation %1: %2").arg(stats_.operations + 1).arg(message);
    return false;
}

bool SoakDriver::selectedSomething() {
    if (!doc_.selection().empty()) return true;
    return clickSelect() && !doc_.selection().empty();
}

// Document operations the mouse cannot reach (an empty document has nothing to click)
// are applied as commands and recorded the same way.
bool SoakDriver::applyDirectly(const QJsonObject& op) {
    QString error;
    if (!applyEditOp(doc_, op, error)) return fail(error);
    record(op);
    return true;
}

bool SoakDriver::drawBox() {
    if (int(doc_.brushes().size()) >= kMaxBrushes) return deleteSelection();
    if (doc_.brushes().empty())
        return applyDirectly({{"op", "box"}, {"mins", vecToJson(Vec3(0, 0, 0))}, {"maxs", vecToJson(Vec3(64, 64, 64))}});
    // With a selection the box tool takes its depth from it (BoxTool::press).
    if (!selectedSomething()) return error_.isEmpty();
    const Aabb sel = window_.editor().selectionBounds();
    Viewport2D* view = framedView(documentBounds());
    if (!typeShortcut("toolBox")) return false;
    const QPoint a = randomPixel(view), b = randomPixel(view);
    const ViewPoint pa = at(view, a), pb = at(view, b);
    const Vec3 sa = window_.editor().snap(pa.world), sb = window_.editor().snap(pb.world);
    Vec3 mins = sa.cwiseMin(sb), maxs = sa.cwiseMax(sb);
    mins[pa.depthAxis] = sel.mins[pa.depthAxis];
    maxs[pa.depthAxis] = sel.maxs[pa.depthAxis];
    if ((maxs - mins).minCoeff() <= 0) return true; // a line, not a box: nothing to draw
    if (heldDrag(view, a, b)) record({{"op", "box"}, {"mins", vecToJson(mins)}, {"maxs", vecToJson(maxs)}});
    return true;
}

bool SoakDriver::clickSelect() {
    const auto& geometry = window_.editor().geometry();
    std::vector<int> valid;
    for (size_t i = 0; i < geometry.size(); ++i)
        if (geometry[i]) valid.push_back(int(i));
    if (valid.empty()) return true;
    // From an empty selection a click picks (SelectTool::press) and never moves or resizes.
    Viewport2D* view = framedView(documentBounds());
    if (!typeShortcut("selectNone") || !typeShortcut("toolSelect")) return false;
    const int brush = valid[size_t(randomInt(0, int(valid.size()) - 1))];
    view->frame(padded(geometry[size_t(brush)]->bounds, 64));
    QTest::mouseClick(view, Qt::LeftButton, {}, view->toWidget(centroid(*geometry[size_t(brush)])).toPoint());
    if (chance(0.3)) {
        const int other = valid[size_t(randomInt(0, int(valid.size()) - 1))];
        const QPoint p = view->toWidget(centroid(*geometry[size_t(other)])).toPoint();
        if (inside(view, p)) QTest::mouseClick(view, Qt::LeftButton, Qt::ShiftModifier, p);
    }
    recordSelection();
    return true;
}

void SoakDriver::recordSelection() {
    QJsonArray brushes, entities;
    for (int i : doc_.selection()) brushes.append(i);
    for (int i : doc_.entitySelection()) entities.append(i);
    record({{"op", "select"}, {"brushes", brushes}, {"entities", entities}});
}

bool SoakDriver::pickIn3d() {
    // Look around (right drag: the camera, not recorded), then click to pick a brush.
    Viewport3D* view = window_.view3d();
    if (!typeShortcut("toolSelect")) return false;
    view->focus(documentBounds());
    const QPoint from = randomPixel(view);
    drag(view, from, from + QPoint(randomInt(-30, 30), randomInt(-20, 20)), Qt::RightButton);
    QTest::mouseClick(view, Qt::LeftButton, {}, randomPixel(view));
    recordSelection();
    return true;
}

bool SoakDriver::placeEntity() {
    static const char* kClasses[] = {"monster_army", "monster_ogre", "item_health", "info_player_deathmatch", "light"};
    if (doc_.entities().size() >= size_t(kMaxEntities)) return true;
    const char* classname = kClasses[randomInt(0, 4)];
    Viewport2D* view = framedView(documentBounds());
    if (!typeShortcut("toolEntity")) return false;
    window_.entityDock()->classChooser()->setCurrentText(classname);
    const size_t before = doc_.entities().size();
    QTest::mouseClick(view, Qt::LeftButton, {}, randomPixel(view));
    if (doc_.entities().size() != before + 1) return fail(QString("a click of the Entity tool placed no %1").arg(classname));
    // Where it stands depends on the floor under the click (EntityTool::press): recorded as placed.
    const std::optional<Vec3> at = doc_.entities().back().origin();
    if (!at) return fail("a placed entity has no origin");
    record({{"op", "entityAdd"}, {"classname", classname}, {"origin", vecToJson(*at)}});
    return true;
}

bool SoakDriver::editEntity() {
    // Click a point entity's box (it is picked before the brushes under it), then drag it
    // a few grid steps, or set a key, or delete or duplicate it.
    std::vector<int> boxed;
    for (size_t i = 0; i < doc_.entities().size(); ++i)
        if (!window_.editor().entityBox(int(i)).empty()) boxed.push_back(int(i));
    if (boxed.empty()) return placeEntity();
    const int entity = boxed[size_t(randomInt(0, int(boxed.size()) - 1))];
    const Aabb box = window_.editor().entityBox(entity);
    Viewport2D* view = framedView(padded(box, 128));
    if (!typeShortcut("selectNone") || !typeShortcut("toolSelect")) return false;
    const Vec3 centre = 0.5 * (box.mins + box.maxs);
    const QPoint p = view->toWidget(centre).toPoint();
    if (view->nearCamera(p)) return true; // that press would drag the 3D camera
    QTest::mouseClick(view, Qt::LeftButton, {}, p);
    recordSelection();
    if (doc_.entitySelection().empty()) return true; // another entity's box was smaller there
    const int action = randomInt(0, 3);
    if (action == 0) {
        dragMove(view, p, 3);
    } else if (action == 1) {
        const QString value = QString::number(randomInt(0, 7) * 45);
        QApplication::processEvents(); // the dock refills its table from the event loop
        QTableWidget* keys = window_.entityDock()->keyTable();
        int row = -1;
        for (int r = 0; r < keys->rowCount(); ++r)
            if (keys->item(r, 0) && keys->item(r, 0)->text() == "angle") row = r;
        if (row < 0 || keys->item(row, 1)->text() == value) return true; // an unchanged cell is no edit
        keys->item(row, 1)->setText(value);
        record({{"op", "entityKey"}, {"key", "angle"}, {"value", value}});
    } else if (action == 2) {
        if (!typeShortcut("delete")) return false;
        record({{"op", "delete"}});
    } else {
        if (doc_.entities().size() >= size_t(kMaxEntities)) return true;
        const int depth = at(view, QPoint(0, 0)).depthAxis;
        if (!typeShortcut("duplicate")) return false;
        record({{"op", "duplicate"}, {"axis", (depth + 1) % 3}});
    }
    return true;
}

bool SoakDriver::moveSelection() {
    if (!selectedSomething()) return error_.isEmpty();
    const Aabb sel = window_.editor().selectionBounds();
    Viewport2D* view = framedView(sel);
    if (!typeShortcut("toolSelect")) return false;
    // Press inside a selected brush, away from the selection box's edges (a press there
    // would resize).
    std::optional<QPoint> grip;
    for (int i : doc_.selection()) {
        const auto& g = window_.editor().geometry()[size_t(i)];
        if (!g) continue;
        const QPoint p = view->toWidget(centroid(*g)).toPoint();
        const ViewPoint vp = at(view, p);
        // Not where an entity is: a press there picks it (SelectTool::press).
        if (inside(view, p) && resizeGrab(sel, vp) == std::pair(0, 0) && depthSpan(*g, vp) && !pickEntity2d(window_.editor(), vp) &&
            !view->nearCamera(p)) { // a press on the camera's marker drags the camera
            grip = p;
            break;
        }
    }
    if (!grip) return true;
    dragMove(view, *grip, 4);
    return true;
}

void SoakDriver::dragMove(Viewport2D* view, QPoint grip, int maxSteps) {
    const double grid = doc_.data().gridSize;
    const ViewPoint start = at(view, grip);
    Vec3 target = start.world;
    target[start.uAxis] += randomInt(-maxSteps, maxSteps) * grid;
    target[start.vAxis] += randomInt(-maxSteps, maxSteps) * grid;
    const QPoint to = view->toWidget(target).toPoint();
    // SelectTool::moveOffset: the snapped difference of the two cursor points.
    const ViewPoint end = at(view, to);
    Vec3 delta = Vec3::Zero();
    delta[start.uAxis] = window_.editor().snap(end.world[start.uAxis] - start.world[start.uAxis]);
    delta[start.vAxis] = window_.editor().snap(end.world[start.vAxis] - start.world[start.vAxis]);
    if (!inside(view, to) || delta.isZero()) return;
    if (heldDrag(view, grip, to)) record({{"op", "move"}, {"delta", vecToJson(delta)}});
}

bool SoakDriver::resizeSelection() {
    if (!selectedSomething()) return error_.isEmpty();
    if (!doc_.entitySelection().empty()) return true; // a selection with entities moves, never resizes
    const Aabb sel = window_.editor().selectionBounds();
    Viewport2D* view = framedView(sel);
    if (!typeShortcut("toolSelect")) return false;
    // Grab the middle of one edge of the selection box and drag it a few grid steps.
    const ViewPoint probe = at(view, QPoint(0, 0));
    const bool alongU = chance(0.5);
    const int axis = alongU ? probe.uAxis : probe.vAxis;
    const int side = chance(0.5) ? -1 : 1;
    Vec3 grip = 0.5 * (sel.mins + sel.maxs);
    grip[axis] = side < 0 ? sel.mins[axis] : sel.maxs[axis];
    const QPoint from = view->toWidget(grip).toPoint();
    const ViewPoint start = at(view, from);
    const std::pair<int, int> expected = alongU ? std::pair(side, 0) : std::pair(0, side);
    if (!inside(view, from) || resizeGrab(sel, start) != expected || view->nearCamera(from)) return true;
    static const int kSteps[] = {-2, -1, 1, 2, 3};
    Vec3 target = grip;
    target[axis] += kSteps[randomInt(0, 4)] * doc_.data().gridSize;
    const QPoint to = view->toWidget(target).toPoint();
    if (!inside(view, to)) return true;
    // SelectTool::draggedBrushes: the grabbed side goes to the snapped cursor, never past
    // the other side.
    Aabb after = sel;
    const double snapped = window_.editor().snap(at(view, to).world[axis]);
    if (side < 0) after.mins[axis] = std::min(snapped, after.maxs[axis] - 1e-3);
    else after.maxs[axis] = std::max(snapped, after.mins[axis] + 1e-3);
    if (heldDrag(view, from, to)) record({{"op", "resize"}, {"bounds", boundsJson(after)}});
    return true;
}

bool SoakDriver::deleteSelection() {
    if (!selectedSomething()) return error_.isEmpty();
    if (int(doc_.brushes().size() - doc_.selection().size()) < kMinBrushes) return true;
    framedView(documentBounds());
    if (!typeShortcut("delete")) return false;
    record({{"op", "delete"}});
    return true;
}

bool SoakDriver::menuCommand() {
    // Menu commands act in the last 2D view that had the focus (MainWindow::lastViewDepthAxis).
    const int command = randomInt(0, 5);
    if (command == 0) return deleteSelection();
    if (!selectedSomething()) return error_.isEmpty();
    Viewport2D* view = framedView(documentBounds());
    const ViewPoint probe = at(view, QPoint(0, 0));
    const int depth = probe.depthAxis;
    if (command == 1) {
        if (int(doc_.brushes().size() + doc_.selection().size()) > kMaxBrushes) return deleteSelection();
        if (!typeShortcut("duplicate")) return false;
        record({{"op", "duplicate"}, {"axis", (depth + 1) % 3}});
    } else if (command == 2 || command == 3) {
        const bool clockwise = command == 2;
        if (!typeShortcut(clockwise ? "rotateCw" : "rotateCcw")) return false;
        record({{"op", "rotate"}, {"axis", depth}, {"clockwise", clockwise}});
    } else {
        const bool vertical = command == 5;
        if (!typeShortcut(vertical ? "flipV" : "flipH")) return false;
        // Horizontal flips mirror the view's right axis, vertical ones its up axis.
        record({{"op", "flip"}, {"axis", vertical ? probe.vAxis : probe.uAxis}});
    }
    return true;
}

bool SoakDriver::clip() {
    if (!selectedSomething()) return error_.isEmpty();
    const Aabb sel = window_.editor().selectionBounds();
    Viewport2D* view = framedView(sel);
    if (!typeShortcut("toolClip")) return false;
    // Two clicks on grid points around the selection give the line; Tab cycles what is kept.
    const QPoint a = randomPixel(view), b = randomPixel(view);
    const ViewPoint pa = at(view, a), pb = at(view, b);
    const Vec3 sa = window_.editor().snap(pa.world), sb = window_.editor().snap(pb.world);
    if (sa[pa.uAxis] == sb[pa.uAxis] && sa[pa.vAxis] == sb[pa.vAxis]) return true;
    QTest::mouseClick(view, Qt::LeftButton, {}, a);
    QTest::mouseClick(view, Qt::LeftButton, {}, b);
    const int tabs = randomInt(0, 2);
    for (int k = 0; k < tabs; ++k) QTest::keyClick(view, Qt::Key_Tab);
    clipKeep_ = (clipKeep_ + tabs) % 3;
    const int before = doc_.undoStack()->index();
    QTest::keyClick(view, Qt::Key_Return);
    if (doc_.undoStack()->index() == before) return fail("Enter did not apply the clip");
    static const char* keep[] = {"front", "back", "both"};
    record({{"op", "clip"}, {"a", vecToJson(sa)}, {"b", vecToJson(sb)}, {"viewAxis", pa.depthAxis}, {"keep", keep[clipKeep_]}});
    return true;
}

bool SoakDriver::addRay() {
    if (int(doc_.rays().size()) >= kMaxRays) return dragRay();
    // In the front and side views a new ray lies at the view's working depth, snapped; in
    // the top view it would rest on the floor under the cursor (placeInView).
    Viewport2D* view = framedView(documentBounds(), randomInt(1, 2));
    if (!typeShortcut("toolRay")) return false;
    const QPoint a = randomPixel(view), b = randomPixel(view);
    const ViewPoint pa = at(view, a), pb = at(view, b);
    const double grab = kRayGrabPixels * pa.pixelSize;
    for (const TestRay& ray : doc_.rays())
        for (const Vec3& e : {ray.from, ray.to})
            if (std::abs(e[pa.uAxis] - pa.world[pa.uAxis]) < grab && std::abs(e[pa.vAxis] - pa.world[pa.vAxis]) < grab)
                return true; // that press would grab this endpoint
    const Vec3 from = window_.editor().snap(pa.world); // pa.world is at the working depth
    Vec3 to = from;
    to[pa.uAxis] = window_.editor().snap(pb.world[pa.uAxis]);
    to[pa.vAxis] = window_.editor().snap(pb.world[pa.vAxis]);
    if (from == to) return true;
    drag(view, a, b);
    record({{"op", "rayAdd"}, {"from", vecToJson(from)}, {"to", vecToJson(to)}});
    return true;
}

bool SoakDriver::dragRay() {
    const auto& rays = doc_.rays();
    if (rays.empty()) return addRay();
    Viewport2D* view = framedView(documentBounds());
    if (!typeShortcut("toolRay")) return false;
    const TestRay& chosen = rays[size_t(randomInt(0, int(rays.size()) - 1))];
    const QPoint from = view->toWidget(chance(0.5) ? chosen.from : chosen.to).toPoint();
    if (!inside(view, from)) return true;
    // RayTool::press grabs the first endpoint within reach (a ray's end before its start).
    const ViewPoint pa = at(view, from);
    const double grab = kRayGrabPixels * pa.pixelSize;
    int ray = -1;
    bool end = true;
    for (size_t i = 0; i < rays.size() && ray < 0; ++i)
        for (bool e : {true, false}) {
            const Vec3& p = e ? rays[i].to : rays[i].from;
            if (std::abs(p[pa.uAxis] - pa.world[pa.uAxis]) < grab && std::abs(p[pa.vAxis] - pa.world[pa.vAxis]) < grab) {
                ray = int(i);
                end = e;
                break;
            }
        }
    if (ray < 0) return true;
    const QPoint to = from + QPoint(randomInt(-60, 60), randomInt(-60, 60));
    if (!inside(view, to)) return true;
    Vec3 point = end ? rays[size_t(ray)].to : rays[size_t(ray)].from;
    const ViewPoint pb = at(view, to);
    point[pa.uAxis] = window_.editor().snap(pb.world[pa.uAxis]);
    point[pa.vAxis] = window_.editor().snap(pb.world[pa.vAxis]);
    if (point == (end ? rays[size_t(ray)].to : rays[size_t(ray)].from)) return true;
    drag(view, from, to);
    record({{"op", "rayMove"}, {"ray", ray}, {"end", end ? "to" : "from"}, {"point", vecToJson(point)}});
    return true;
}

bool SoakDriver::editPose() {
    // One number of a pose's box typed into the pose dock's Box column (its corners, "minx
    // miny minz maxx maxy maxz"), kept within +-64 and at least 8 units from the opposite
    // side. The point pose (zero size) stays a point.
    const int index = randomInt(0, int(doc_.poses().size()) - 1);
    const int number = randomInt(0, 5); // min x .. max z
    const int axis = number % 3;
    const bool isMax = number > 2;
    Pose pose = doc_.poses()[size_t(index)];
    if (pose.mins == pose.maxs) return true;
    double& value = isMax ? pose.maxs[axis] : pose.mins[axis];
    const double next = value + randomInt(-2, 2) * 4.0;
    const bool fits = isMax ? next >= pose.mins[axis] + 8 && next <= 64 : next <= pose.maxs[axis] - 8 && next >= -64;
    if (!fits || next == value) return true;
    value = next;
    const int before = doc_.undoStack()->index();
    const QString corners = QString("%1 %2 %3 %4 %5 %6").arg(pose.mins.x()).arg(pose.mins.y()).arg(pose.mins.z()).arg(pose.maxs.x()).arg(pose.maxs.y()).arg(pose.maxs.z());
    window_.poseDock()->table()->item(index, PoseDock::Box)->setText(corners);
    if (doc_.undoStack()->index() == before) return fail("editing the pose table did not edit the pose");
    record({{"op", "pose"}, {"pose", index}, {"mins", vecToJson(pose.mins)}, {"maxs", vecToJson(pose.maxs)}});
    return true;
}

bool SoakDriver::undoRedo() {
    // A burst of undos by Ctrl+Z, then often some of them redone by Ctrl+Shift+Z.
    framedView(documentBounds());
    QUndoStack* stack = doc_.undoStack();
    for (const bool undo : {true, false}) {
        if (!undo && !chance(0.5)) break;
        const int steps = randomInt(1, 8);
        int done = 0;
        for (; done < steps && (undo ? stack->canUndo() : stack->canRedo()); ++done)
            if (!typeShortcut(undo ? "undo" : "redo")) return false;
        if (done == 0) continue;
        (undo ? stats_.undos : stats_.redos) += done;
        record({{"op", undo ? "undo" : "redo"}, {"steps", done}});
    }
    return true;
}

bool SoakDriver::changeGrid() {
    // Between 8 and 64: finer grids make single pixels matter when dragging.
    const int size = doc_.data().gridSize;
    const bool bigger = size <= 8 || (size < 64 && chance(0.5));
    framedView(documentBounds());
    if (!typeShortcut(bigger ? "gridBigger" : "gridSmaller")) return false;
    if (doc_.data().gridSize != (bigger ? size * 2 : size / 2)) return fail("the grid shortcut did not change the grid");
    record({{"op", "grid"}, {"size", doc_.data().gridSize}});
    return true;
}

bool SoakDriver::save() {
    // File > Save (Ctrl+S) onto the open .shallot, or save-as to one of three names.
    const QString current = doc_.filePath();
    QString path;
    if (current.endsWith(".shallot") && chance(0.7)) {
        framedView(documentBounds());
        if (!typeShortcut("save")) return false;
        path = current;
    } else {
        path = QString("%1/session-%2.shallot").arg(folder_).arg(randomInt(0, 2));
        if (!window_.saveTo(path)) return fail("save failed: " + window_.lastError());
    }
    if (doc_.isModified() || doc_.filePath() != path) return fail("the document is not saved as " + path);
    QString error;
    const std::optional<LoadedDocument> saved = loadDocumentFile(path, error);
    if (!saved) return fail("the saved file does not load: " + error);
    const QString digest = documentDigest(saved->data);
    if (digest != documentDigest(doc_.data())) return fail("the saved file differs from the document: " + path);
    ++stats_.saves;
    record({{"op", "save"}, {"path", path}, {"digest", digest}});
    return true;
}

bool SoakDriver::reopen() {
    // Opening the saved file again also bounds the undo history (it starts empty).
    if (!doc_.filePath().endsWith(".shallot") || doc_.isModified())
        if (!save()) return false;
    const QString path = doc_.filePath();
    if (!window_.openFile(path)) return fail("reopening failed: " + window_.lastError());
    ++stats_.reopens;
    // The grid is a view setting saved with the document: changing it does not make the
    // document modified, so the file may hold another grid than the document had.
    record({{"op", "reopen"}, {"path", path}, {"grid", doc_.data().gridSize}});
    return true;
}

} // namespace shallot

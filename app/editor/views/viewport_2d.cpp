#include "views/viewport_2d.h"

#include "editor.h"
#include "nav_overlay.h"
#include "document/entity_edits.h"
#include "entity_scene_builder.h"
#include "views/legend.h"
#include "views/tool_note_painter.h"
#include "services/overlay_controller.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <optional>

namespace shallot {

namespace {

// Grid lines closer than this on screen are skipped (the next power of two is drawn).
constexpr double kMinGridPixels = 6.0;

} // namespace

Viewport2D::Viewport2D(Editor& editor, ViewAxis axis, QWidget* parent) : Viewport(editor, parent), axis_(axis) {
    switch (axis) {
    case ViewAxis::Top: u_ = 0, v_ = 1, depth_ = 2, depthSign_ = 1; break;
    case ViewAxis::Front: u_ = 0, v_ = 2, depth_ = 1, depthSign_ = -1; break;
    case ViewAxis::Side: u_ = 1, v_ = 2, depth_ = 0, depthSign_ = 1; break;
    }
    renderer_.setViewAxis(depth_);
    renderer_.setLooksAlong(depth_);
    connect(&editor.document(), &EditorDocument::gridSizeChanged, this, &Viewport::redraw);
    // The camera marker follows a flying camera at a few frames a second, not at every
    // tick: three 2D views repainting at 60 Hz would take the 3D view's time.
    cameraRepaint_.setSingleShot(true);
    cameraRepaint_.setInterval(kCameraRepaintMs);
    connect(&cameraRepaint_, &QTimer::timeout, this, &Viewport::redraw);
    connect(&editor.document(), &EditorDocument::workingPointChanged, this, &Viewport::redraw);
    connect(&editor.document(), &EditorDocument::cameraChanged, this, [this] {
        if (draggingCamera_) redraw(); // under the designer's hand: at once
        else if (!cameraRepaint_.isActive()) cameraRepaint_.start();
    });
}

void Viewport2D::setAxisViewReduction(bool on) {
    renderer_.setViewAxis(on ? depth_ : -1);
    redraw();
}

QMatrix4x4 Viewport2D::viewProjection() const {
    const double halfW = width() / (2.0 * zoom_), halfH = height() / (2.0 * zoom_);
    QMatrix4x4 projection;
    projection.ortho(float(centreU_ - halfW), float(centreU_ + halfW), float(centreV_ - halfH), float(centreV_ + halfH),
                     -1e6f, 1e6f);
    QMatrix4x4 view(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    view(0, u_) = 1;
    view(1, v_) = 1;
    view(2, depth_) = float(depthSign_);
    return projection * view;
}

ViewPoint Viewport2D::viewPoint(const QPointF& pos, Qt::KeyboardModifiers modifiers) const {
    ViewPoint p;
    p.world = editor_.document().workingPoint();
    p.world[u_] = centreU_ + (pos.x() - width() / 2.0) / zoom_;
    p.world[v_] = centreV_ - (pos.y() - height() / 2.0) / zoom_;
    p.uAxis = u_;
    p.vAxis = v_;
    p.depthAxis = depth_;
    p.depthSign = depthSign_;
    p.pixelSize = 1.0 / zoom_;
    p.cutsAtDepth = editor_.overlays().sections().isOn();
    p.modifiers = modifiers;
    return p;
}

QPointF Viewport2D::toWidget(const Vec3& world) const {
    return {width() / 2.0 + (world[u_] - centreU_) * zoom_, height() / 2.0 - (world[v_] - centreV_) * zoom_};
}

void Viewport2D::pan(const QPointF& pixels) {
    centreU_ -= pixels.x() / zoom_;
    centreV_ += pixels.y() / zoom_;
    redraw();
}

void Viewport2D::frame(const Aabb& box) {
    if (box.empty()) return;
    centreU_ = 0.5 * (box.mins[u_] + box.maxs[u_]);
    centreV_ = 0.5 * (box.mins[v_] + box.maxs[v_]);
    const double w = std::max(1.0, box.maxs[u_] - box.mins[u_]), h = std::max(1.0, box.maxs[v_] - box.mins[v_]);
    zoom_ = 0.9 * std::min(std::max(1, width()) / w, std::max(1, height()) / h);
    redraw();
}

render::MeshBatch Viewport2D::backgroundBatch() const { // the grid
    render::MeshBatch grid;
    grid.primitive = render::Primitive::Lines;
    grid.lit = false;
    double step = editor_.document().data().gridSize;
    while (step * zoom_ < kMinGridPixels) step *= 2;
    const ViewPoint lo = viewPoint(QPointF(0, height()), {}), hi = viewPoint(QPointF(width(), 0), {});
    const QColor line(50, 50, 58), major(70, 70, 82), axis(90, 90, 120);
    auto addLines = [&](int along, int across) {
        for (double x = std::floor(lo.world[along] / step) * step; x <= hi.world[along]; x += step) {
            Vec3 a = Vec3::Zero(), b = Vec3::Zero();
            a[along] = b[along] = x;
            a[across] = lo.world[across];
            b[across] = hi.world[across];
            const bool isMajor = std::fmod(std::abs(x), step * 8) < 1e-9;
            grid.addLine(a, b, x == 0 ? axis : isMajor ? major : line);
        }
    };
    addLines(u_, v_);
    addLines(v_, u_);
    return grid;
}

void Viewport2D::paintOverlay(QPainter& painter) {
    painter.setPen(QColor(200, 200, 210));
    painter.drawText(QPointF(8, height() - 8), QString("grid %1").arg(editor_.document().data().gridSize));
    paintEntityNames(painter);
    // The title, on a dark ground, moved right of the working line's tab when the tab would
    // cover it (the tab stays where it is dragged).
    static const char* names[] = {"Top (X/Y) at z %1", "Front (X/Z) at y %1", "Side (Y/Z) at x %1"};
    const QString title = QString(names[int(axis_)]).arg(editor_.document().workingPoint()[depth_]);
    QRectF titleBox = QRectF(painter.fontMetrics().boundingRect(title)).translated(8, 16).adjusted(-3, -1, 3, 1);
    if (const QRectF tab = workingTab(u_); tab.intersects(titleBox)) titleBox.translate(tab.right() + 2 - titleBox.left(), 0);
    painter.fillRect(titleBox, QColor(20, 20, 24, 200));
    painter.setPen(QColor(200, 200, 210));
    painter.drawText(QPointF(titleBox.left() + 3, 16), title);
    paintWorkingLines(painter);
    paintCamera(painter);
    paintLegend(painter);
    // Last: on top of the legend, whole.
    paintPathLengths(painter);
    if (const Editor::ToolNote& note = editor_.toolNote(); !note.text.isEmpty())
        paintToolNote(painter, rect(), toWidget(note.at), note.text);
}

// One colour per view's working depth, the same in every view that draws it.
static QColor workingColour(int axis) {
    static const QColor colours[] = {QColor(255, 150, 60), QColor(90, 200, 255), QColor(230, 110, 255)}; // x, y, z
    return colours[axis];
}

QRectF Viewport2D::workingTab(int axis) const {
    // A line along v (at u = depth) has its tab at the top edge; one along u at the left.
    const QPointF on = toWidget(editor_.document().workingPoint());
    const double s = kWorkingTabPixels;
    return axis == u_ ? QRectF(on.x() - s / 2, 0, s, s) : QRectF(0, on.y() - s / 2, s, s);
}

std::optional<int> Viewport2D::workingTabAt(const QPointF& pos) const {
    for (int axis : {u_, v_})
        if (workingTab(axis).contains(pos)) return axis;
    return std::nullopt;
}

void Viewport2D::paintWorkingLines(QPainter& painter) {
    const QPointF on = toWidget(editor_.document().workingPoint());
    static const char* letters = "xyz";
    for (int axis : {u_, v_}) {
        const QColor colour = workingColour(axis);
        painter.setPen(QPen(colour, 1, Qt::DashLine));
        if (axis == u_) painter.drawLine(QPointF(on.x(), 0), QPointF(on.x(), height()));
        else painter.drawLine(QPointF(0, on.y()), QPointF(width(), on.y()));
        const QRectF tab = workingTab(axis);
        painter.fillRect(tab, colour);
        painter.setPen(Qt::black);
        painter.drawText(tab, Qt::AlignCenter, QString(letters[axis]));
    }
}

QPointF Viewport2D::cameraAhead() const {
    const CameraState& c = editor_.document().data().camera;
    return toWidget(c.position + c.forward() * (kCameraMarkerPixels * 3 / zoom_));
}

void Viewport2D::paintCamera(QPainter& painter) {
    // The 3D camera: a ring where it stands and a line where it looks (as seen in this
    // view), with a dot at its end to grab it by when the ring sits on an entity.
    const QPointF at = toWidget(editor_.document().data().camera.position), ahead = cameraAhead();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(QColor(255, 255, 255), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(at, kCameraMarkerPixels, kCameraMarkerPixels);
    painter.drawLine(at, ahead);
    painter.setBrush(QColor(255, 255, 255));
    painter.drawEllipse(ahead, 2.5, 2.5);
}

bool Viewport2D::nearCamera(const QPointF& pos) const {
    constexpr double kGrabSlackPixels = 3.0;
    if (QLineF(pos, cameraAhead()).length() <= kCameraMarkerPixels) return true;
    // On the ring itself an entity comes first: the camera opens inside the player start.
    return QLineF(pos, toWidget(editor_.document().data().camera.position)).length() <= kCameraMarkerPixels + kGrabSlackPixels &&
           !pickEntity2d(editor_, viewPoint(pos, {}));
}

void Viewport2D::paintPathLengths(QPainter& painter) {
    const auto& rays = editor_.document().rays();
    const auto& paths = editor_.overlays().nav().rayPaths();
    const int pose = editor_.currentPose();
    if (!editor_.overlays().isOn(Overlay::Rays) || pose < 0) return;
    for (size_t i = 0; i < rays.size() && i < paths.size(); ++i) {
        if (!rays[i].path || size_t(pose) >= paths[i].size()) continue;
        const TravelPath& path = paths[i][size_t(pose)];
        paintPointLabel(painter, rect(), toWidget(rays[i].to),
                        path.found ? pathLengthAndTime(path)
                                   : path.miss == NavPathMiss::None ? QString("no path")
                                                                    : QString("no path: %1").arg(pathMissShort(path.miss)),
                        path.found ? render::kNavPathColour : render::kProblemColour);
    }
}

void Viewport2D::paintEntityNames(QPainter& painter) {
    // Names only where a 16-unit box is big enough on screen (12 pixels) to be told apart.
    constexpr double kNamesFromPixelsPerUnit = 0.75;
    const auto& entities = editor_.document().entities();
    bool all = zoom_ >= kNamesFromPixelsPerUnit;
    const QRectF visible(0, 0, width(), height());
    QFont font = painter.font();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() - 1));
    painter.setFont(font);
    // More names than this in one view overlap into noise (and shaping them costs a frame):
    // then only the selection is named.
    constexpr int kMaxNamesPerView = 400;
    auto place = [&](int i) -> std::optional<QPointF> {
        if (!editor_.entityShown(i)) return std::nullopt;
        const Aabb box = editor_.entityBox(i);
        Vec3 corner = box.mins;
        corner[v_] = box.maxs[v_];
        const QPointF at = toWidget(corner) + QPointF(0, -3);
        return visible.contains(at) ? std::optional<QPointF>(at) : std::nullopt;
    };
    auto name = [&](int i) {
        const std::optional<QPointF> at = place(i);
        if (!at) return;
        const bool selected = editor_.document().isEntitySelected(i);
        const bool problem = std::binary_search(editor_.problemEntities().begin(), editor_.problemEntities().end(), i);
        painter.setPen(render::entityColour(editor_.entityShape(i)->colour, selected, problem));
        painter.drawText(*at, QString::fromStdString(entities[size_t(i)].classname()));
    };
    int inView = 0;
    if (all)
        for (size_t i = 0; i < entities.size() && inView <= kMaxNamesPerView; ++i) inView += place(int(i)).has_value();
    if (all && inView > kMaxNamesPerView) all = false;
    if (all)
        for (size_t i = 0; i < entities.size(); ++i) name(int(i));
    else
        for (int i : editor_.document().entitySelection()) name(i);
}

void Viewport2D::mousePressEvent(QMouseEvent* e) {
    setFocus();
    if (legendPress(e)) return;
    // The tab of another view's working line: dragged with any tool (view state, no undo).
    if (e->button() == Qt::LeftButton && (draggingWorkingAxis_ = workingTabAt(e->position()))) return;
    // With the Select tool the 3D camera's marker is dragged like anything else (in this
    // view's plane; view state, no undo step); other tools keep their presses there.
    if (e->button() == Qt::LeftButton && e->modifiers() == Qt::NoModifier && editor_.activeTool() == ToolKind::Select &&
        nearCamera(e->position())) {
        draggingCamera_ = true;
        const ViewPoint p = viewPoint(e->position(), e->modifiers());
        const Vec3& camera = editor_.document().data().camera.position;
        cameraGrab_ = QPointF(camera[u_] - p.world[u_], camera[v_] - p.world[v_]); // where on the marker it was taken
        return;
    }
    if (e->button() == Qt::LeftButton) {
        toolDragging_ = editor_.tool().press(viewPoint(e->position(), e->modifiers()));
    } else if (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton) {
        panning_ = true;
        lastPan_ = e->position();
    }
}

void Viewport2D::mouseMoveEvent(QMouseEvent* e) {
    legendMove(e);
    const ViewPoint p = viewPoint(e->position(), e->modifiers());
    static const char* axes = "XYZ";
    emit cursorMoved(QString("%1 %2   %3 %4").arg(axes[u_]).arg(editor_.snap(p.world[u_])).arg(axes[v_]).arg(editor_.snap(p.world[v_])));
    if (draggingWorkingAxis_) {
        Vec3 w = editor_.document().workingPoint();
        w[*draggingWorkingAxis_] = editor_.snap(p.world)[*draggingWorkingAxis_];
        editor_.document().setWorkingPoint(w);
        emit editor_.statusMessage(QString("%1 view at %2 %3")
                                       .arg(*draggingWorkingAxis_ == 2 ? "Top" : *draggingWorkingAxis_ == 1 ? "Front" : "Side")
                                       .arg(QChar("xyz"[*draggingWorkingAxis_]))
                                       .arg(w[*draggingWorkingAxis_]));
    } else if (draggingCamera_) {
        CameraState c = editor_.document().data().camera;
        c.position[u_] = p.world[u_] + cameraGrab_.x();
        c.position[v_] = p.world[v_] + cameraGrab_.y();
        editor_.document().setCamera(c);
    } else if (panning_) {
        pan(e->position() - lastPan_);
        lastPan_ = e->position();
    } else if (toolDragging_) {
        editor_.tool().drag(p);
    }
}

void Viewport2D::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && draggingWorkingAxis_) {
        draggingWorkingAxis_.reset();
        return;
    }
    if (e->button() == Qt::LeftButton && draggingCamera_) {
        draggingCamera_ = false;
        return;
    }
    if (e->button() == Qt::LeftButton && toolDragging_) {
        toolDragging_ = false;
        editor_.tool().release(viewPoint(e->position(), e->modifiers()));
    } else if (e->button() == Qt::RightButton || e->button() == Qt::MiddleButton) {
        panning_ = false;
    }
}

void Viewport2D::wheelEvent(QWheelEvent* e) { zoomAt(std::pow(1.2, e->angleDelta().y() / 120.0), e->position()); }

void Viewport2D::zoomAt(double factor, const QPointF& at) {
    const ViewPoint before = viewPoint(at, {});
    zoom_ = std::clamp(zoom_ * factor, 1.0 / 512, 64.0);
    const ViewPoint after = viewPoint(at, {});
    centreU_ += before.world[u_] - after.world[u_];
    centreV_ += before.world[v_] - after.world[v_];
    redraw();
}

void Viewport2D::keyPressEvent(QKeyEvent* e) {
    if (editor_.tool().key(e)) return;
    if (e->key() == Qt::Key_F && e->modifiers() == Qt::NoModifier) { // as in the 3D view
        emit editor_.frameRequested(editor_.selectionBoundsWithEntities());
        return;
    }
    // Page Up / Page Down: this view's working depth a grid step towards / away from the
    // viewer (the top view's height up / down).
    if ((e->key() == Qt::Key_PageUp || e->key() == Qt::Key_PageDown) && e->modifiers() == Qt::NoModifier) {
        Vec3 w = editor_.document().workingPoint();
        const double step = editor_.document().data().gridSize * depthSign_;
        w[depth_] = editor_.snap(w)[depth_] + (e->key() == Qt::Key_PageUp ? step : -step);
        editor_.document().setWorkingPoint(w);
        return;
    }
    // Arrows: the selection a grid step across the view, as the arrows point on screen.
    if (nudgeSelectionByKey(e, Vec3::Unit(u_), Vec3::Unit(v_), Vec3::Zero())) return;
    Viewport::keyPressEvent(e);
}

} // namespace shallot

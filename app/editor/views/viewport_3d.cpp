#include "views/viewport_3d.h"

#include "palette.h"
#include "edit/brush_operations.h"
#include "document/edit_commands.h"
#include "editor.h"
#include "document/entity_edits.h"
#include "views/legend.h"
#include "preferences_dialog.h"
#include "tools/clip_tool.h"

#include <QGuiApplication>
#include <QKeyEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace shallot {

namespace {

constexpr double kFieldOfViewDegrees = 75.0;
constexpr double kLookDegreesPerPixel = 0.25;
constexpr int kFlyTickMs = 16;
// Fly speed: the level's diagonal crossed in this many seconds, within these bounds (a
// room-sized map flies at walking pace, e1m1's 5,000 units in about 8 seconds).
constexpr double kSecondsToCrossLevel = 8.0;
constexpr double kMinFlyUnitsPerSecond = 128.0, kMaxFlyUnitsPerSecond = 4096.0;
constexpr double kFastFactor = 4.0, kSlowFactor = 0.25; // Shift, Alt
// A wheel notch moves this fraction of the distance to what is under the cursor.
constexpr double kWheelFraction = 0.2;
constexpr double kMinWheelUnits = 4.0; // so that the wheel never stops in front of a wall
constexpr double kNearPlane = 1.0, kFarPlane = 131072.0;

double radians(double degrees) { return degrees * M_PI / 180.0; }

// The +-x or +-y axis nearest `d` in the horizontal plane (x on a tie).
Vec3 nearestHorizontalAxis(const Vec3& d) {
    const int axis = std::abs(d.x()) >= std::abs(d.y()) ? 0 : 1;
    Vec3 out = Vec3::Zero();
    out[axis] = d[axis] < 0.0 ? -1.0 : 1.0;
    return out;
}

} // namespace

Viewport3D::Viewport3D(Editor& editor, QWidget* parent) : Viewport(editor, parent) {
    flyTimer_.setInterval(kFlyTickMs);
    connect(&flyTimer_, &QTimer::timeout, this, &Viewport3D::flyStep);
    connect(&editor.document(), &EditorDocument::cameraChanged, this, &Viewport::redraw); // dragged in a 2D view
}

CameraState Viewport3D::camera() const { return editor_.document().data().camera; }
void Viewport3D::setCamera(const CameraState& c) {
    editor_.document().setCamera(c);
    redraw();
}

Vec3 Viewport3D::forward() const { return camera().forward(); }

QMatrix4x4 Viewport3D::viewProjection() const {
    const CameraState c = camera();
    QMatrix4x4 projection;
    projection.perspective(float(kFieldOfViewDegrees), float(std::max(1, width())) / float(std::max(1, height())),
                           float(kNearPlane), float(kFarPlane));
    const Vec3 f = forward();
    QMatrix4x4 view;
    const QVector3D eye(float(c.position.x()), float(c.position.y()), float(c.position.z()));
    view.lookAt(eye, eye + QVector3D(float(f.x()), float(f.y()), float(f.z())), QVector3D(0, 0, 1));
    return projection * view;
}

void Viewport3D::rayAt(const QPointF& pos, Vec3& origin, Vec3& direction) const {
    const QMatrix4x4 inverse = viewProjection().inverted();
    const float x = float(2.0 * pos.x() / width() - 1.0), y = float(1.0 - 2.0 * pos.y() / height());
    const QVector3D nearPoint = inverse.map(QVector3D(x, y, -1.0f)), farPoint = inverse.map(QVector3D(x, y, 1.0f));
    origin = camera().position;
    const QVector3D d = (farPoint - nearPoint).normalized();
    direction = Vec3(d.x(), d.y(), d.z());
}

void Viewport3D::focus(const Aabb& box) {
    if (box.empty()) return;
    CameraState c = camera();
    const Vec3 centre = 0.5 * (box.mins + box.maxs);
    const double radius = 0.5 * (box.maxs - box.mins).norm();
    const double distance = radius / std::tan(radians(kFieldOfViewDegrees / 2)) + 16.0;
    c.position = centre - forward() * distance;
    setCamera(c);
}

void Viewport3D::paintOverlay(QPainter& painter) {
    painter.setPen(QColor(200, 200, 210));
    painter.drawText(QPointF(8, 16), "3D");
    // The class names of the selected entities and of the one under the mouse.
    const QMatrix4x4 mvp = viewProjection();
    std::vector<int> named = editor_.document().entitySelection();
    if (hovered_ && !editor_.document().isEntitySelected(*hovered_)) named.push_back(*hovered_);
    for (int e : named) {
        const Aabb box = editor_.entityBox(e);
        if (box.empty()) continue;
        const Vec3 top(0.5 * (box.mins.x() + box.maxs.x()), 0.5 * (box.mins.y() + box.maxs.y()), box.maxs.z());
        const QVector4D clip = mvp * QVector4D(float(top.x()), float(top.y()), float(top.z()), 1.0f);
        if (clip.w() <= 0) continue; // behind the camera
        const QPointF at((clip.x() / clip.w() + 1) * 0.5 * width(), (1 - clip.y() / clip.w()) * 0.5 * height() - 4);
        painter.setPen(QColor(255, 255, 255));
        painter.drawText(at, QString::fromStdString(editor_.document().entities()[size_t(e)].classname()));
    }
    paintLegend(painter);
}

void Viewport3D::mousePressEvent(QMouseEvent* e) {
    setFocus();
    if (legendPress(e)) return;
    lastMouse_ = e->position();
    if (e->button() == Qt::RightButton) drag_ = Drag::Look;
    else if (e->button() == Qt::LeftButton && (e->modifiers() & Qt::AltModifier)) {
        drag_ = Drag::Orbit;
        const Aabb sel = editor_.selectionBoundsWithEntities();
        orbitPivot_ = sel.empty() ? Vec3(camera().position + forward() * 256.0) : Vec3(0.5 * (sel.mins + sel.maxs));
    } else if (e->button() == Qt::LeftButton && editor_.activeTool() == ToolKind::DrawBox) {
        Vec3 p;
        if (surfacePoint(e->position(), p, boxAxis_, boxSign_)) {
            boxStart_ = editor_.snap(p);
            boxStart_[boxAxis_] = p[boxAxis_]; // on the face itself, not snapped off it
            drag_ = Drag::DrawBox;
        }
    } else if (e->button() == Qt::LeftButton && editor_.activeTool() == ToolKind::Clip) {
        Vec3 p;
        if (surfacePointAny(e->position(), p)) static_cast<ClipTool&>(editor_.tool()).addPoint3d(p);
    } else if (e->button() == Qt::LeftButton) drag_ = Drag::Click;
}

void Viewport3D::mouseMoveEvent(QMouseEvent* e) {
    legendMove(e);
    const QPointF d = e->position() - lastMouse_;
    lastMouse_ = e->position();
    CameraState c = camera();
    if (drag_ == Drag::None) {
        updateHover(e->position());
        return;
    }
    if (drag_ == Drag::DrawBox) {
        boxDrag(e->position(), false);
        return;
    }
    if (drag_ == Drag::Look) {
        c.yawDegrees -= d.x() * kLookDegreesPerPixel;
        c.pitchDegrees = std::clamp(c.pitchDegrees - d.y() * kLookDegreesPerPixel, -89.0, 89.0);
        setCamera(c);
    } else if (drag_ == Drag::Orbit) {
        const double distance = (c.position - orbitPivot_).norm();
        c.yawDegrees -= d.x() * kLookDegreesPerPixel;
        c.pitchDegrees = std::clamp(c.pitchDegrees - d.y() * kLookDegreesPerPixel, -89.0, 89.0);
        editor_.document().setCamera(c);
        c.position = orbitPivot_ - forward() * distance;
        setCamera(c);
    }
}

void Viewport3D::updateHover(const QPointF& pos) {
    Vec3 origin, direction;
    rayAt(pos, origin, direction);
    std::optional<int> hovered;
    if (const auto hit = pickEntity3d(editor_, origin, direction)) {
        Vec3 wall;
        const double entityDistance = hit->second * direction.norm();
        if (!surfacePointAny(pos, wall) || (wall - origin).norm() > entityDistance) hovered = hit->first;
    }
    if (hovered == hovered_) return;
    hovered_ = hovered;
    redraw();
}

bool Viewport3D::surfacePointAny(const QPointF& pos, Vec3& point) const {
    Vec3 origin, direction;
    rayAt(pos, origin, direction);
    double bestT = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < editor_.document().brushes().size(); ++i)
        if (editor_.geometry()[i])
            if (const std::optional<double> t = rayHitBrush(editor_.document().brushes()[i], origin, direction)) bestT = std::min(bestT, *t);
    if (std::isinf(bestT)) return false;
    point = origin + direction * bestT;
    return true;
}

bool Viewport3D::surfacePoint(const QPointF& pos, Vec3& point, int& axis, double& sign) const {
    Vec3 origin, direction;
    rayAt(pos, origin, direction);
    double bestT = std::numeric_limits<double>::infinity();
    Vec3 normal = Vec3::UnitZ();
    const auto& brushes = editor_.document().brushes();
    for (size_t i = 0; i < brushes.size(); ++i) {
        if (!editor_.geometry()[i]) continue;
        const std::optional<double> t = rayHitBrush(brushes[i], origin, direction);
        if (!t || *t >= bestT) continue;
        const int side = pickFace(brushes[i], origin, direction);
        if (side < 0) continue;
        bestT = *t;
        normal = brushes[i].sides[size_t(side)].plane.normal;
    }
    if (std::isinf(bestT)) {
        // Nothing under the cursor: draw on the grid plane z = 0 when looking at it.
        if (std::abs(direction.z()) < 1e-9) return false;
        bestT = -origin.z() / direction.z();
        if (bestT <= 0) return false;
        normal = Vec3(0, 0, origin.z() > 0 ? 1.0 : -1.0);
    }
    Eigen::Index a;
    normal.cwiseAbs().maxCoeff(&a);
    if (std::abs(normal[a]) < 1.0 - 1e-9) return false; // only axial faces
    axis = int(a);
    sign = normal[a] > 0 ? 1.0 : -1.0;
    point = origin + direction * bestT;
    return true;
}

void Viewport3D::boxDrag(const QPointF& pos, bool commit) {
    // Intersect the mouse ray with the face's plane.
    Vec3 origin, direction;
    rayAt(pos, origin, direction);
    render::MeshBatch preview;
    preview.primitive = render::Primitive::Lines;
    preview.lit = false;
    if (std::abs(direction[boxAxis_]) > 1e-9) {
        const double t = (boxStart_[boxAxis_] - origin[boxAxis_]) / direction[boxAxis_];
        Vec3 end = editor_.snap(origin + direction * t);
        end[boxAxis_] = boxStart_[boxAxis_];
        Vec3 mins = boxStart_.cwiseMin(end), maxs = boxStart_.cwiseMax(end);
        const double depth = 4.0 * editor_.document().data().gridSize;
        if (boxSign_ > 0) maxs[boxAxis_] = mins[boxAxis_] + depth;
        else mins[boxAxis_] = maxs[boxAxis_] - depth;
        const bool valid = t > 0 && (maxs - mins).minCoeff() > 0;
        if (valid && commit) {
            if (std::optional<Brush> brush = boxBrush(mins, maxs, "shallot/wall")) {
                EditorDocument& doc = editor_.document();
                const int index = int(doc.brushes().size());
                doc.undoStack()->push(new ReplaceBrushesCommand(&doc, "Draw box", {}, {{index, *brush}}, {index}));
            }
        } else if (valid) {
            preview.addBoxEdges(mins, maxs, render::kEditPreviewColour);
        }
    }
    editor_.setToolPreview(std::move(preview));
}

void Viewport3D::mouseReleaseEvent(QMouseEvent* e) {
    if (drag_ == Drag::DrawBox && e->button() == Qt::LeftButton) {
        boxDrag(e->position(), true);
        drag_ = Drag::None;
        return;
    }
    if (drag_ == Drag::Click && e->button() == Qt::LeftButton) {
        Vec3 origin, direction;
        rayAt(e->position(), origin, direction);
        std::optional<int> best;
        double bestT = std::numeric_limits<double>::infinity();
        const auto& brushes = editor_.document().brushes();
        for (size_t i = 0; i < brushes.size(); ++i) {
            if (!editor_.geometry()[i]) continue;
            const std::optional<double> t = rayHitBrush(brushes[i], origin, direction);
            if (t && *t < bestT) {
                bestT = *t;
                best = int(i);
            }
        }
        EditorDocument& doc = editor_.document();
        // An entity in front of the nearest brush is picked instead.
        std::optional<int> entity;
        if (const auto hit = pickEntity3d(editor_, origin, direction); hit && hit->second < bestT) {
            entity = hit->first;
            best.reset();
        }
        if (e->modifiers() & Qt::ShiftModifier) {
            if (best) doc.toggleSelected(*best);
            else if (entity) doc.toggleEntitySelected(*entity);
        } else {
            doc.setSelection(best ? std::vector<int>{*best} : std::vector<int>{});
            doc.setEntitySelection(entity ? std::vector<int>{*entity} : std::vector<int>{});
        }
    }
    drag_ = Drag::None;
}

double Viewport3D::flySpeed() const {
    const Aabb level = editor_.levelBounds();
    const double diagonal = level.empty() ? 1024.0 : (level.maxs - level.mins).norm();
    double speed = std::clamp(diagonal / kSecondsToCrossLevel, kMinFlyUnitsPerSecond, kMaxFlyUnitsPerSecond) * cameraSpeedFactor();
    const Qt::KeyboardModifiers mods = QGuiApplication::keyboardModifiers();
    if (mods & Qt::ShiftModifier) speed *= kFastFactor;
    if (mods & Qt::AltModifier) speed *= kSlowFactor;
    return speed;
}

void Viewport3D::wheelEvent(QWheelEvent* e) {
    CameraState c = camera();
    Vec3 origin, direction, surface;
    rayAt(e->position(), origin, direction);
    // Towards the point under the cursor, by a fraction of the way there.
    const double distance = surfacePointAny(e->position(), surface) ? (surface - origin).norm() : flySpeed();
    const double step = std::max(kMinWheelUnits, kWheelFraction * distance) * (e->angleDelta().y() / 120.0);
    c.position += direction.normalized() * step;
    setCamera(c);
}

void Viewport3D::keyPressEvent(QKeyEvent* e) {
    static const QList<int> flyKeys{Qt::Key_W, Qt::Key_A, Qt::Key_S, Qt::Key_D, Qt::Key_Q, Qt::Key_E};
    if (flyKeys.contains(e->key()) && !(e->modifiers() & Qt::ControlModifier)) {
        if (!e->isAutoRepeat()) keysDown_.insert(e->key());
        if (!flyTimer_.isActive()) flyTimer_.start();
        return;
    }
    if (editor_.activeTool() == ToolKind::Clip && editor_.tool().key(e)) return;
    if (e->key() == Qt::Key_F && e->modifiers() == Qt::NoModifier) {
        focus(editor_.selectionBoundsWithEntities());
        return;
    }
    // Arrows: the selection a grid step along the world axis nearest the camera's forward
    // (up, down) or right (left, right); Page Up / Page Down: up and down.
    const Vec3 f = forward();
    if (nudgeSelectionByKey(e, nearestHorizontalAxis(f.cross(Vec3::UnitZ())), nearestHorizontalAxis(f), Vec3::UnitZ())) return;
    Viewport::keyPressEvent(e);
}

void Viewport3D::keyReleaseEvent(QKeyEvent* e) {
    if (!e->isAutoRepeat()) keysDown_.remove(e->key());
    if (keysDown_.isEmpty()) flyTimer_.stop();
}

void Viewport3D::focusOutEvent(QFocusEvent* e) {
    keysDown_.clear();
    flyTimer_.stop();
    Viewport::focusOutEvent(e);
}

void Viewport3D::flyStep() {
    CameraState c = camera();
    const Vec3 f = forward();
    const Vec3 right = f.cross(Vec3::UnitZ()).normalized();
    Vec3 move = Vec3::Zero();
    if (keysDown_.contains(Qt::Key_W)) move += f;
    if (keysDown_.contains(Qt::Key_S)) move -= f;
    if (keysDown_.contains(Qt::Key_D)) move += right;
    if (keysDown_.contains(Qt::Key_A)) move -= right;
    if (keysDown_.contains(Qt::Key_E)) move += Vec3::UnitZ();
    if (keysDown_.contains(Qt::Key_Q)) move -= Vec3::UnitZ();
    c.position += move * flySpeed() * kFlyTickMs / 1000.0;
    setCamera(c);
}

} // namespace shallot

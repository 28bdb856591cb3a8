#pragma once
// The perspective view: fly camera (right-drag to look, WASD/QE to move, wheel to move
// forward, Alt-drag to orbit, F to focus the selection), click to pick brushes. With the
// box tool, a drag on an axial face draws a box on it, growing out of the face; with the
// clip tool, clicks on surfaces give the clip plane's three points.
#include "geometry/aabb.h"
#include "model/document_data.h"
#include "views/viewport.h"

#include <QSet>
#include <QTimer>
#include <optional>

namespace shallot {

class Viewport3D : public Viewport {
    Q_OBJECT
public:
    explicit Viewport3D(Editor& editor, QWidget* parent = nullptr);
    QMatrix4x4 viewProjection() const override;
    // The camera looks at the box from outside, far enough to see all of it.
    void focus(const Aabb& box);
    // The world ray through a widget position.
    void rayAt(const QPointF& pos, Vec3& origin, Vec3& direction) const;
    Vec3 forward() const;

protected:
    bool is3d() const override { return true; }
    Vec3 eye() const override { return camera().position; }
    void paintOverlay(QPainter& painter) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void keyReleaseEvent(QKeyEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;

private:
    void flyStep();
    // Units per second: from the level's size, the preference and Shift (fast) / Alt (slow).
    double flySpeed() const;
    CameraState camera() const;
    void setCamera(const CameraState& c);

    // Box tool in 3D: the rectangle dragged on the plane of the face under the cursor.
    bool surfacePoint(const QPointF& pos, Vec3& point, int& axis, double& sign) const;
    bool surfacePointAny(const QPointF& pos, Vec3& point) const; // the nearest brush surface
    void boxDrag(const QPointF& pos, bool commit);
    // The entity under the mouse (named in the view), unless a brush is in front of it.
    void updateHover(const QPointF& pos);

    enum class Drag { None, Look, Orbit, Click, DrawBox } drag_ = Drag::None;
    Vec3 boxStart_ = Vec3::Zero();
    int boxAxis_ = 2;       // normal axis of the face the box is drawn on
    double boxSign_ = 1.0;  // which way that face looks: the box grows out of it
    QPointF lastMouse_;
    QSet<int> keysDown_;
    QTimer flyTimer_;
    Vec3 orbitPivot_ = Vec3::Zero();
    std::optional<int> hovered_;
};

} // namespace shallot

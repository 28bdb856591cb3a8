#pragma once
// An orthographic view along one world axis (top, front or side) with a grid. Left mouse
// goes to the active tool, right or middle drag pans, the wheel zooms at the cursor.
#include "gpu_batch.h"
#include "tools/tool.h"
#include "geometry/aabb.h"
#include "model/document_data.h"
#include "views/viewport.h"

#include <QTimer>
#include <optional>

namespace shallot {

enum class ViewAxis { Top, Front, Side };

class Viewport2D : public Viewport {
    Q_OBJECT
public:
    Viewport2D(Editor& editor, ViewAxis axis, QWidget* parent = nullptr);
    // Whether a press there (with the Select tool) grabs the 3D camera's marker.
    bool nearCamera(const QPointF& pos) const;
    QMatrix4x4 viewProjection() const override;
    ViewAxis axis() const { return axis_; }
    // Off: the view uploads every triangle and line, not only those that draw pixels of
    // its own (axis_view_batch.h); tests compare the two.
    void setAxisViewReduction(bool on);
    // World point under a widget position, at the view's working depth (the document's
    // working point along the view axis).
    ViewPoint viewPoint(const QPointF& pos, Qt::KeyboardModifiers modifiers) const;
    QPointF toWidget(const Vec3& world) const;
    // Moves the view as a drag of `pixels` (widget pixels) with the pan button does.
    void pan(const QPointF& pixels);
    // Zooms by `factor` (above 1: in) keeping the world point under widget position `at`
    // where it is, as the wheel does.
    void zoomAt(double factor, const QPointF& at);
    // Centre the view on a box and zoom to fit it.
    void frame(const Aabb& box);
    double zoom() const { return zoom_; }
    // The side of the tabs that drag the other views' working lines (at this view's edges).
    static constexpr double kWorkingTabPixels = 16.0;

protected:
    bool is3d() const override { return false; }
    int looksAlong() const override { return depth_; }
    render::MeshBatch backgroundBatch() const override;
    void paintOverlay(QPainter& painter) override;
    void paintEntityNames(QPainter& painter);
    // At each Path tool path's goal, its length for the current pose (or "no path").
    void paintPathLengths(QPainter& painter);
    void paintCamera(QPainter& painter);
    // The other views' working depths as lines across this one, each with a tab at the
    // view's edge to drag it by (any tool).
    void paintWorkingLines(QPainter& painter);
    // The world axis of the working line whose tab is under `pos`, if any.
    std::optional<int> workingTabAt(const QPointF& pos) const;
    QRectF workingTab(int axis) const;
    QPointF cameraAhead() const; // the end of the camera marker's view line
    static constexpr double kCameraMarkerPixels = 6.0;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    ViewAxis axis_;
    int u_, v_, depth_;
    double depthSign_;
    double centreU_ = 0, centreV_ = 0;
    double zoom_ = 0.5; // pixels per world unit
    bool draggingCamera_ = false;
    std::optional<int> draggingWorkingAxis_;
    QPointF cameraGrab_; // camera minus cursor, in this view's (u, v), while dragging it
    static constexpr int kCameraRepaintMs = 100;
    QTimer cameraRepaint_;
    bool toolDragging_ = false;
    bool panning_ = false;
    QPointF lastPan_;
};

} // namespace shallot

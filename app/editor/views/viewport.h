#pragma once
// Base of the 3D and 2D views: a widget drawing the editor's scene with OpenGL 3.3 core
// into the native window it holds (view_surface.h), and handling that window's input.
#include "base_image_cache.h"
#include "painted_overlay.h"
#include "scene_renderer.h"
#include "views/legend.h"

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLFunctions_3_3_Core>
#include <QTimer>
#include <QWidget>
#include <algorithm>
#include <optional>

class QPainter;
class QWindow;

namespace shallot {

class Editor;
class ViewSurface;

class Viewport : public QWidget, protected QOpenGLFunctions_3_3_Core {
    Q_OBJECT
public:
    explicit Viewport(Editor& editor, QWidget* parent = nullptr);
    ~Viewport() override;
    // Draws a new frame soon (QWidget::update repaints the widget, not the OpenGL window).
    void redraw();
    // Draws a frame of the scene as it is now (pending uploads finished first) into an
    // image, as QOpenGLWidget::grabFramebuffer; null before the view was first shown.
    // `asShown`: the frame a repaint would show now, a zoom's stretched preview included.
    QImage grabFramebuffer(bool asShown = false);
    // The native window the view draws into; its input reaches the view (tests drive it as
    // a user's mouse would).
    QWindow* surface() const;
    // Milliseconds the last paintGL took, and frames painted so far (for the benchmarks).
    double lastFrameMs() const { return lastFrameMs_; }
    quint64 framesPainted() const { return frames_; }
    virtual QMatrix4x4 viewProjection() const = 0;
    // Off: every frame draws the brushes again instead of copying their cached picture
    // (base_image_cache.h); tests compare the two.
    void setBaseCacheEnabled(bool on);
    // Off: the 3D view draws the tree overlays of every leaf, not only those of leaves seen
    // from the camera (portal/leaf_visibility.h); tests compare the two.
    void setLeafCullingEnabled(bool on);
    // Uploads every layer anew, none taken over from the version before (tests compare).
    void uploadAgain();
    // Frames that copied the cached base instead of drawing it (for tests and benchmarks).
    quint64 baseCopies() const { return baseCopies_; }
    // Parts of 2D pictures drawn so far, the vertices each part draws and each upload call
    // takes (tests make the parts small).
    quint64 pictureParts() const { return pictureParts_; }
    void setUploadVerticesPerCall(size_t n) { renderer_.setUploadVerticesPerCall(n); }
    void setPictureVerticesPerPart(size_t n) { pictureVerticesPerPart_ = std::max<size_t>(1, n); }
    // True when the view shows the scene as it is: every layer uploaded and, for a 2D view,
    // its picture drawn with them (for benchmarks).
    bool showsScene() const;
    // Times the base was drawn whole, into the window or into its picture, or a picture
    // drawn in parts was finished.
    quint64 baseDraws() const { return baseDraws_; }
    // Frames of a 2D view whose picture was moved along with a pan (only the uncovered
    // strips drawn) instead of drawn whole.
    quint64 picturesShifted() const { return picturesShifted_; }
    // Frames of a 2D view whose picture was redrawn only where its overlays changed (an
    // edit's overlay chunks, SceneLayer::changes) instead of drawn anew in parts.
    quint64 picturesPatched() const { return picturesPatched_; }
    // Frames of a 2D view that showed its old picture stretched (a zoom) while the new one
    // was drawn in parts between frames.
    quint64 picturesStretched() const { return picturesStretched_; }
    // Chunk uploads taken over from the shown layers by a new version (SceneRenderer).
    quint64 chunksKept() const { return renderer_.chunksKept(); }
    // The version of a layer this view has uploaded (0: none; a layer it does not draw is
    // not uploaded), for tests.
    uint64_t uploadedVersion(render::Layer l) const { return renderer_.shownVersion(l); }
    // The colour legend in the view's corner, as last painted.
    const LegendBox& legend() const { return legend_; }

signals:
    void cursorMoved(const QString& text);
    void painted();

protected:
    friend class ViewSurface;
    void initializeGL();
    void paintGL();
    virtual bool is3d() const = 0;
    virtual int looksAlong() const { return -1; } // a 2D view's axis, -1 in 3D
    virtual Vec3 eye() const { return Vec3::Zero(); } // the 3D camera position
    virtual render::MeshBatch backgroundBatch() const { return {}; } // the grid, under everything
    virtual void paintOverlay(QPainter&) {} // text on top
    // Tab belongs to the tools (the clip tool cycles with it), not to focus changes.
    bool focusNextPrevChild(bool) override { return false; }
    // Keys act on the view under the mouse (W A S D fly the 3D view without a click first;
    // menu commands act along the axis of the 2D view pointed at), unless text is being
    // typed elsewhere (a dock's table cell, a spin box).
    void enterEvent(QEnterEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    // The legend (View > Colour Legends) in the bottom right corner, and the mouse on it: a
    // left press on it is taken (true: the tools never see it), a move opens or closes it.
    void paintLegend(QPainter& painter);
    bool legendPress(const QMouseEvent* e);
    void legendMove(const QMouseEvent* e);
    // The arrow keys (without modifiers) nudge the selection a grid step along `right` and
    // `up`, the world axes the view shows to its right and up; Page Up / Page Down along
    // `vertical` when it is not zero. True when the key was such a nudge and something was
    // selected.
    bool nudgeSelectionByKey(const QKeyEvent* e, const Vec3& right, const Vec3& up, const Vec3& vertical);
    LegendBox legend_;

    Editor& editor_;
    render::SceneRenderer renderer_;

private:
    // What the base of this frame is drawn from, and its cache key (base_image_cache.h).
    struct LayerState {
        render::Layer layer;
        uint64_t version; // as uploaded
        bool visible;
    };
    struct BaseInputs {
        QColor background;
        render::MeshBatch grid;
        QSize pixels;
        std::vector<char> key;     // everything the base depends on: view, content, grid
        std::vector<char> view;    // its part that a camera move or a resize changes
        std::vector<char> content; // what is drawn: background colour, layers' versions
        std::vector<LayerState> layers; // the base layers, as written into `content`
    };
    BaseInputs baseInputs() const;
    // The base layers' states as written into `key`, a key made like `in.key` (the same
    // view size and base layers).
    static std::vector<LayerState> layersInKey(const std::vector<char>& key, const BaseInputs& in);
    void setViewState(const QSize& pixels); // viewport and depth test of this kind of view
    void drawBackground(const BaseInputs& in); // clear and grid
    void drawBase(const BaseInputs& in);
    // The next part of a 2D view's new picture, between frames; the picture patched
    // instead when only a few places changed (patchPicture).
    void drawPicturePart();
    // A 2D view's picture after a camera move; `panned`: the camera only shifted since the
    // last frame (a drag), so the picture is wanted at once to shift it again next frame.
    void movePicture(const BaseInputs& in, bool panned);
    // The stored picture is of this size and content (background, base layers), whatever
    // the camera it was drawn with.
    bool storedPictureOfContent(const BaseInputs& in) const;
    // Where the stored picture lands in this frame (pixels, y up) when only the 2D camera's
    // scale and position changed since it was drawn (a zoom), its layers and size the same.
    std::optional<QRect> stretchedPicture(const BaseInputs& in) const;
    // The picture moved by the camera's whole-pixel shift, the uncovered strips drawn;
    // false (nothing done) when the camera did more than shift or the picture is stale.
    bool shiftPicture(const BaseInputs& in);
    // The picture redrawn where the shown layers changed since it was drawn (their
    // changed boxes); false when that is unknown or over kMaxPatchFraction of the view. A
    // picture being drawn in parts meanwhile is dropped.
    bool patchPicture(const BaseInputs& in);
    void redrawPictureIn(const BaseInputs& in, const QRect& rect); // of the bound picture
    void fillBaseCache();
    void continueUpload(); // the next part of the layers' upload, between frames
    void queueUploadPart();  // continueUpload, queued with every view's work
    void queuePicturePart(); // drawPicturePart, likewise
    unsigned targetFramebuffer() const; // the window's, or the image's while grabbing

    ViewSurface* surface_;
    unsigned grabTarget_ = 0;
    bool grabAsShown_ = false;
    render::GpuBatch background_;
    render::BaseImageCache baseCache_;
    render::PaintedOverlay paintedOverlay_; // what paintOverlay paints, blended over the frame
    bool baseCacheEnabled_ = true;
    // The view's size in framebuffer pixels.
    QSize pixels() const;
    // Whether frames keep the base picture: the cache is on and the view has pixels (a view
    // squeezed to zero width by a splitter has none, and no framebuffer can be made for it).
    bool keepsPicture() const;
    QTimer baseFillTimer_;
    std::vector<char> lastBaseKey_; // of the last frame that drew its base
    std::vector<char> lastView_;    // BaseInputs::view of the last frame
    render::SceneRenderer::Part picturePart_;  // how far the new picture's drawing got
    size_t pictureVerticesPerPart_;
    quint64 pictureParts_ = 0;
    quint64 baseCopies_ = 0;
    quint64 baseDraws_ = 0;
    quint64 picturesShifted_ = 0;
    quint64 picturesPatched_ = 0;
    quint64 picturesStretched_ = 0;
    double lastFrameMs_ = 0.0;
    quint64 frames_ = 0;
    uint64_t paintedDigest_ = 0; // SceneRenderer::drawnDigest as the last frame began
};

} // namespace shallot

#pragma once
// The native OpenGL window a Viewport draws into, placed in the view by a window container.
// Why not QOpenGLWidget: it draws into a framebuffer that Qt then composes with the rest of
// the main window into the window's own, every frame. Under Mesa llvmpipe that composition
// (a clear and two window-sized textured quads, one of them blended) cost 6-7 ms of a
// 1280 x 800 frame, more than all the brushes of librequake_e3m4; a native window presents
// its frame as drawn (docs/performance.md).
#include <QOpenGLWindow>

namespace shallot {

class Viewport;

class ViewSurface : public QOpenGLWindow {
public:
    explicit ViewSurface(Viewport& view);
    // OpenGL 3.3 core, depth and stencil (the base picture copies both: base_image_cache.h),
    // no multisampling (it multiplies the fill cost under software rendering).
    static QSurfaceFormat surfaceFormat();
    // What the views need of the application, set before the QApplication is constructed
    // (by the editor's main and the GUI tests alike): that format as the default, shared
    // contexts, and no update idle time.
    static void prepareApplication();

protected:
    void initializeGL() override;
    void paintGL() override;
    // Input arrives at the native window; the view handles it as the widget it is.
    bool event(QEvent* e) override;

private:
    Viewport& view_;
};

} // namespace shallot

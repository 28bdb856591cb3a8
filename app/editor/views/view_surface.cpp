#include "views/view_surface.h"

#include "views/view_turns.h"
#include "views/viewport.h"

#include <QApplication>
#include <QKeyEvent>

namespace shallot {

namespace {
// A view that is asked to paint less than this after another view finished painting
// waits (see event()); the event loop handles input in between.
constexpr int kPaintSpacingMs = 2;
ViewTurns paintTurns(kPaintSpacingMs);
} // namespace

ViewSurface::ViewSurface(Viewport& view) : view_(view) {
    setFormat(surfaceFormat());
    // Keyboard focus stays with the view widget (it takes it on a click), so key events,
    // shortcuts and focus changes work as for any other widget of the main window.
    setFlag(Qt::WindowDoesNotAcceptFocus);
}

QSurfaceFormat ViewSurface::surfaceFormat() {
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setSamples(0);
    return format;
}

void ViewSurface::prepareApplication() {
    QSurfaceFormat::setDefaultFormat(surfaceFormat());
    // The views paint on QWindow::requestUpdate, which Qt delays by this many milliseconds
    // (5 by default) to gather requests: 5 ms of every frame of a moving camera. Requests
    // made in one pass of the event loop still make one frame.
    if (!qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME")) qputenv("QT_QPA_UPDATE_IDLE_TIME", "0");
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

void ViewSurface::initializeGL() { view_.initializeGL(); }
void ViewSurface::paintGL() { view_.paintGL(); }

bool ViewSurface::event(QEvent* e) {
    switch (e->type()) {
    case QEvent::UpdateRequest:
    {
        // Views asked to redraw together (a compile result, a selection) would paint back
        // to back in one pass of the event loop, 30-45 ms each on librequake_e3m4 the first
        // time, and input would wait for all four: each waits a moment after another's.
        if (!paintTurns.mayGo(this)) {
            requestUpdate();
            return true;
        }
        const bool handled = QOpenGLWindow::event(e);
        paintTurns.done(this);
        return handled;
    }
    case QEvent::MouseButtonPress:
        // This window takes no focus, so a click activates the main window for it (a window
        // manager would; without one, nothing else does and no shortcut would work).
        if (!view_.window()->isActiveWindow()) view_.window()->activateWindow();
        QCoreApplication::sendEvent(&view_, e);
        return true;
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::Enter:
    case QEvent::Leave:
        // The window fills the view, so positions in one are positions in the other.
        QCoreApplication::sendEvent(&view_, e);
        return true;
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        // Keys reach this window only while the main window is not active and X gives the
        // keyboard to the window under the pointer (no window manager, before any click).
        // They belong to the focused widget, shortcuts first: QApplication tries them for
        // a key event that is not spontaneous, so the widget gets a copy.
        // Shortcuts (B for the Box tool) need the main window active: make it so, as a
        // click would.
        if (!view_.window()->isActiveWindow()) {
            view_.window()->activateWindow();
            QApplication::setActiveWindow(view_.window());
        }
        const auto* key = static_cast<QKeyEvent*>(e);
        QKeyEvent copy(key->type(), key->key(), key->modifiers(), key->nativeScanCode(), key->nativeVirtualKey(),
                       key->nativeModifiers(), key->text(), key->isAutoRepeat(), key->count());
        QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : &view_;
        QCoreApplication::sendEvent(target, &copy);
        return true;
    }
    default:
        return QOpenGLWindow::event(e);
    }
}

} // namespace shallot

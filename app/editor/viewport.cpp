#include "viewport.h"

#include "editor.h"
#include "preferences_dialog.h"
#include "view_surface.h"
#include "view_turns.h"
#include "view_work_queue.h"

#include <QOpenGLFramebufferObject>
#include <QOpenGLPaintDevice>
#include <QPainter>
#include <QVBoxLayout>

namespace shallot {

namespace {
// The view fills its base picture (base_image_cache.h) once it has stood still this long.
// A frame that finds no picture draws the base itself: filling the picture in the frame
// would make every frame of a camera move pay for a copy (llvmpipe: about 2 ms at
// 1280 x 800, and a wait for the drawing to finish), for a picture the next frame throws
// away.
constexpr int kBaseFillDelayMs = 150;
// Views that stop together would fill their pictures one after the other in one pass of
// the event loop (5-10 ms each to draw, plus the wait for llvmpipe; a 2D view's overlays
// 75-150 ms on librequake_e3m4): fills take turns this far apart, and after a whole
// picture or a part of one.
ViewTurns baseDrawTurns(15);
// Vertices a part of a 2D view's picture draws by default (about 15 ms of the UI thread
// under llvmpipe): new overlays of librequake_e3m4 take 4-5 parts per view.
constexpr size_t kPictureVerticesPerPart = 250000;
ViewWorkQueue viewWork;
} // namespace

Viewport::Viewport(Editor& editor, QWidget* parent)
    : QWidget(parent), editor_(editor), surface_(new ViewSurface(*this)), pictureVerticesPerPart_(kPictureVerticesPerPart) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    // The container owns the surface. Events a test sends to the view widget itself reach
    // the view directly; the container takes no focus and lets mouse events pass to it.
    QWidget* container = QWidget::createWindowContainer(surface_, this);
    container->setFocusPolicy(Qt::NoFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(container);
    connect(&editor_, &Editor::sceneChanged, this, &Viewport::redraw);
    baseFillTimer_.setSingleShot(true);
    connect(&baseFillTimer_, &QTimer::timeout, this, &Viewport::fillBaseCache);
}

Viewport::~Viewport() {
    if (!surface_->isValid()) return; // never shown: no OpenGL resources
    surface_->makeCurrent();
    baseCache_.release();
    background_.destroy();
    renderer_.release();
    surface_->doneCurrent();
}

void Viewport::redraw() { surface_->update(); }

bool Viewport::showsScene() const {
    for (size_t i = 0; i < render::kLayerCount; ++i)
        if (renderer_.shownVersion(render::Layer(i)) != editor_.scene().layer(render::Layer(i)).version) return false;
    if (is3d() || !baseCacheEnabled_) return true;
    const BaseInputs in = baseInputs();
    return baseCache_.matches(in.key, in.pixels);
}
QWindow* Viewport::surface() const { return surface_; }

QImage Viewport::grabFramebuffer() {
    if (!surface_->isValid()) return {};
    surface_->makeCurrent();
    // An image of the scene as it is now: what is still to upload is uploaded first.
    while (renderer_.upload(*this, editor_.scene()) == render::SceneRenderer::UploadState::Uploading) {}
    QImage out;
    {
        // Deleted while its context is current: after doneCurrent its buffers would stay
        // allocated in the driver until exit (LeakSanitizer reports them).
        QOpenGLFramebufferObjectFormat format;
        format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
        QOpenGLFramebufferObject image(size() * devicePixelRatio(), format);
        grabTarget_ = image.handle();
        paintGL();
        grabTarget_ = 0;
        out = image.toImage();
    }
    out.setDevicePixelRatio(devicePixelRatio());
    surface_->doneCurrent();
    return out;
}

unsigned Viewport::targetFramebuffer() const { return grabTarget_ ? grabTarget_ : surface_->defaultFramebufferObject(); }

void Viewport::initializeGL() {
    initializeOpenGLFunctions();
    renderer_.initialize(*this);
}

void Viewport::setBaseCacheEnabled(bool on) {
    baseCacheEnabled_ = on;
    redraw();
}

void Viewport::setLeafCullingEnabled(bool on) {
    renderer_.setLeafCulling(on);
    redraw();
}

Viewport::BaseInputs Viewport::baseInputs() const {
    using render::BaseImageCache;
    BaseInputs in{backgroundColour(), backgroundBatch(), size() * devicePixelRatio(), {}, {}};
    std::vector<char>& key = in.key;
    const QMatrix4x4 mvp = viewProjection();
    in.view.assign(reinterpret_cast<const char*>(mvp.constData()), reinterpret_cast<const char*>(mvp.constData() + 16));
    BaseImageCache::append(in.view, in.pixels);
    key = in.view;
    BaseImageCache::append(key, in.background.rgba());
    BaseImageCache::append(key, is3d());
    for (size_t i = 0; i < render::kLayerCount; ++i) {
        const render::SceneLayer& layer = editor_.scene().layer(render::Layer(i));
        if (!render::inGroup(render::Layer(i), layer.translucent, render::LayerGroup::Base, is3d())) continue;
        BaseImageCache::append(key, renderer_.shownVersion(render::Layer(i)));
        BaseImageCache::append(key, layer.visible);
    }
    BaseImageCache::append(key, in.grid.primitive);
    key.insert(key.end(), reinterpret_cast<const char*>(in.grid.vertices.data()),
               reinterpret_cast<const char*>(in.grid.vertices.data() + in.grid.vertices.size()));
    return in;
}

void Viewport::setViewState(const QSize& pixels) {
    glViewport(0, 0, pixels.width(), pixels.height());
    if (is3d()) {
        glEnable(GL_DEPTH_TEST);
        // Equal passes: the selection tint is drawn over the very faces it marks.
        glDepthFunc(GL_LEQUAL);
    } else {
        glDisable(GL_DEPTH_TEST);
    }
}

void Viewport::drawBackground(const BaseInputs& in) {
    setViewState(in.pixels);
    glClearColor(in.background.redF(), in.background.greenF(), in.background.blueF(), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    if (!in.grid.vertices.empty()) {
        background_.upload(*this, in.grid);
        renderer_.drawBatch(*this, background_, viewProjection());
    }
}

void Viewport::drawBase(const BaseInputs& in) {
    ++baseDraws_;
    drawBackground(in);
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Base);
}

void Viewport::drawPicturePart() {
    if (!baseCacheEnabled_ || !surface_->isValid() || !isVisible()) return;
    surface_->makeCurrent();
    BaseInputs in = baseInputs();
    bool finished = false;
    if (baseCache_.matches(in.key, in.pixels) || !baseCache_.drawnFor(in.view, in.pixels)) {
        baseCache_.dropPartial(); // nothing left to draw, or the camera moved: frames draw it
    } else {
        if (baseCache_.partialKey() != in.key) {
            baseCache_.beginPartial(in.key, in.pixels);
            picturePart_ = {};
            drawBackground(in);
        } else {
            baseCache_.continuePartial();
            setViewState(in.pixels);
        }
        picturePart_.vertexBudget = pictureVerticesPerPart_;
        renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Base, &picturePart_);
        ++pictureParts_;
        glFlush(); // the rasterisers start on this part while the event loop goes on
        finished = picturePart_.done;
        if (finished) {
            baseCache_.finishPartial();
            ++baseDraws_;
        } else {
            queuePicturePart();
        }
    }
    surface_->doneCurrent();
    baseDrawTurns.done(this);
    if (finished) redraw();
}

void Viewport::fillBaseCache() {
    if (!baseCacheEnabled_ || !surface_->isValid() || !isVisible()) return;
    if (!baseDrawTurns.mayGo(this)) {
        baseFillTimer_.start(baseDrawTurns.spacingMs());
        return;
    }
    surface_->makeCurrent();
    BaseInputs in = baseInputs();
    if (!baseCache_.matches(in.key, in.pixels)) {
        baseCache_.beginDrawing(std::move(in.key), in.pixels);
        drawBase(in);
    }
    surface_->doneCurrent();
    baseDrawTurns.done(this);
}

void Viewport::queueUploadPart() {
    viewWork.post(this, ViewWorkQueue::Kind::Upload, [this] { continueUpload(); });
}

void Viewport::queuePicturePart() {
    viewWork.post(this, ViewWorkQueue::Kind::PicturePart, [this] { drawPicturePart(); });
}

void Viewport::continueUpload() {
    if (!surface_->isValid() || !isVisible()) return; // the next frame goes on with it
    surface_->makeCurrent();
    const render::SceneRenderer::UploadState state = renderer_.upload(*this, editor_.scene());
    surface_->doneCurrent();
    if (state == render::SceneRenderer::UploadState::Uploading) queueUploadPart();
    else if (state == render::SceneRenderer::UploadState::Swapped) redraw();
}

void Viewport::paintGL() {
    QElapsedTimer timer;
    timer.start();
    // A frame while layers upload shows the layers as they were; the rest is uploaded
    // between frames, and the view draws again once the new layers are shown.
    if (renderer_.upload(*this, editor_.scene()) == render::SceneRenderer::UploadState::Uploading) queueUploadPart();
    glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer()); // a base picture's may be bound
    BaseInputs in = baseInputs();
    const bool still = in.view == lastView_;
    lastView_ = in.view;
    bool showOldPicture = false;
    if (baseCacheEnabled_ && still && !baseCache_.matches(in.key, in.pixels)) {
        if (!is3d() && !grabTarget_ && baseCache_.drawnFor(in.view, in.pixels)) {
            // New overlays in a 2D view (75-150 ms to draw on librequake_e3m4, and they
            // reach the three views at once): the new picture is drawn in parts between
            // frames (drawPicturePart, queued with the other views' work), and this frame
            // shows the old one. The brushes and the selection are drawn over it below, as
            // they are now. A grab (an image asked for now) never waits.
            showOldPicture = true;
            queuePicturePart();
        } else {
            // The base changed under a camera standing still (in 3D an edit or a selection;
            // a 2D view with no picture for this camera yet): drawn into the picture at once
            // and copied, instead of drawn here and again into the picture a moment later.
            baseCache_.beginDrawing(in.key, in.pixels);
            drawBase(in);
            baseDrawTurns.done(this);
        }
    }
    if (baseCacheEnabled_ && (showOldPicture || baseCache_.matches(in.key, in.pixels))) {
        baseCache_.copyTo(*this, targetFramebuffer());
        ++baseCopies_;
        setViewState(in.pixels);
    } else {
        drawBase(in);
        // Moving views restart the wait: the picture is filled once the view stands still.
        if (baseCacheEnabled_ && (in.key != lastBaseKey_ || !baseFillTimer_.isActive())) baseFillTimer_.start(kBaseFillDelayMs);
        lastBaseKey_ = std::move(in.key);
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Rest);
    {
        QOpenGLPaintDevice device(in.pixels); // draws into the bound framebuffer
        device.setDevicePixelRatio(devicePixelRatio());
        QPainter painter(&device);
        paintOverlay(painter);
    }
    lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++frames_;
    emit painted();
}

} // namespace shallot

#include "viewport.h"

#include "editor.h"
#include "preferences_dialog.h"

namespace shallot {

namespace {
// The view fills its base picture (base_image_cache.h) once it has stood still this long.
// A frame that finds no picture draws the base itself: filling the picture in the frame
// would make every frame of a camera move pay for a copy (llvmpipe: about 2 ms at
// 1280 x 800, and a wait for the drawing to finish), for a picture the next frame throws
// away.
constexpr int kBaseFillDelayMs = 150;
} // namespace

Viewport::Viewport(Editor& editor, QWidget* parent) : QOpenGLWidget(parent), editor_(editor) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    connect(&editor_, &Editor::sceneChanged, this, qOverload<>(&QWidget::update));
    baseFillTimer_.setSingleShot(true);
    baseFillTimer_.setInterval(kBaseFillDelayMs);
    connect(&baseFillTimer_, &QTimer::timeout, this, &Viewport::fillBaseCache);
}

Viewport::~Viewport() {
    makeCurrent();
    baseCache_.release();
    background_.destroy();
    renderer_.release();
    doneCurrent();
}

void Viewport::initializeGL() {
    initializeOpenGLFunctions();
    renderer_.initialize(*this);
}

void Viewport::setBaseCacheEnabled(bool on) {
    baseCacheEnabled_ = on;
    update();
}

Viewport::BaseInputs Viewport::baseInputs() const {
    using render::BaseImageCache;
    BaseInputs in{backgroundColour(), backgroundBatch(), size() * devicePixelRatio(), {}};
    std::vector<char>& key = in.key;
    const QMatrix4x4 mvp = viewProjection();
    key.insert(key.end(), reinterpret_cast<const char*>(mvp.constData()), reinterpret_cast<const char*>(mvp.constData() + 16));
    BaseImageCache::append(key, in.background.rgba());
    BaseImageCache::append(key, is3d());
    for (size_t i = 0; i < render::kLayerCount; ++i) {
        const render::SceneLayer& layer = editor_.scene().layer(render::Layer(i));
        if (!render::inGroup(render::Layer(i), layer.translucent, render::LayerGroup::Base)) continue;
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
    if (is3d()) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
}

void Viewport::drawBase(const BaseInputs& in) {
    setViewState(in.pixels);
    glClearColor(in.background.redF(), in.background.greenF(), in.background.blueF(), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    if (!in.grid.vertices.empty()) {
        background_.upload(*this, in.grid);
        renderer_.drawBatch(*this, background_, viewProjection());
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Base);
}

void Viewport::fillBaseCache() {
    if (!baseCacheEnabled_ || !isValid() || !isVisible()) return;
    makeCurrent();
    BaseInputs in = baseInputs();
    if (!baseCache_.matches(in.key, in.pixels)) {
        baseCache_.beginDrawing(std::move(in.key), in.pixels);
        drawBase(in);
    }
    doneCurrent();
}

void Viewport::paintGL() {
    QElapsedTimer timer;
    timer.start();
    const bool uploaded = renderer_.upload(*this, editor_.scene());
    BaseInputs in = baseInputs();
    if (baseCacheEnabled_ && baseCache_.matches(in.key, in.pixels)) {
        baseCache_.copyTo(*this, defaultFramebufferObject());
        ++baseCopies_;
        setViewState(in.pixels);
    } else {
        drawBase(in);
        // Moving views restart the wait; a still one (overlays changing over an unchanged
        // base, as while a ray is dragged) gets its picture when the wait ends.
        if (baseCacheEnabled_ && (in.key != lastBaseKey_ || !baseFillTimer_.isActive())) baseFillTimer_.start();
        lastBaseKey_ = std::move(in.key);
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Rest);
    if (!uploaded) update(); // more to upload
    paintOverlay();
    lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++frames_;
    emit painted();
}

} // namespace shallot

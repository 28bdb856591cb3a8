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

std::vector<char> Viewport::baseKey(const QColor& background, const render::MeshBatch& grid) const {
    using render::BaseImageCache;
    std::vector<char> key;
    const QMatrix4x4 mvp = viewProjection();
    key.insert(key.end(), reinterpret_cast<const char*>(mvp.constData()), reinterpret_cast<const char*>(mvp.constData() + 16));
    BaseImageCache::append(key, background.rgba());
    BaseImageCache::append(key, is3d());
    for (size_t i = 0; i < render::kLayerCount; ++i) {
        const render::SceneLayer& layer = editor_.scene().layer(render::Layer(i));
        if (!render::inGroup(render::Layer(i), layer.translucent, render::LayerGroup::Base)) continue;
        BaseImageCache::append(key, renderer_.shownVersion(render::Layer(i)));
        BaseImageCache::append(key, layer.visible);
    }
    BaseImageCache::append(key, grid.primitive);
    key.insert(key.end(), reinterpret_cast<const char*>(grid.vertices.data()),
               reinterpret_cast<const char*>(grid.vertices.data() + grid.vertices.size()));
    return key;
}

void Viewport::drawBase(const QColor& background, const render::MeshBatch& grid) {
    glClearColor(background.redF(), background.greenF(), background.blueF(), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    if (is3d()) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    if (!grid.vertices.empty()) {
        background_.upload(*this, grid);
        renderer_.drawBatch(*this, background_, viewProjection());
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Base);
}

void Viewport::fillBaseCache() {
    if (!baseCacheEnabled_ || !isValid() || !isVisible()) return;
    makeCurrent();
    const QColor background = backgroundColour();
    const render::MeshBatch grid = backgroundBatch();
    const QSize pixels = size() * devicePixelRatio();
    std::vector<char> key = baseKey(background, grid);
    if (!baseCache_.matches(key, pixels)) {
        baseCache_.beginDrawing(std::move(key), pixels);
        glViewport(0, 0, pixels.width(), pixels.height());
        drawBase(background, grid);
    }
    doneCurrent();
}

void Viewport::paintGL() {
    QElapsedTimer timer;
    timer.start();
    const bool uploaded = renderer_.upload(*this, editor_.scene());
    const QColor background = backgroundColour();
    const render::MeshBatch grid = backgroundBatch();
    const QSize pixels = size() * devicePixelRatio();
    glViewport(0, 0, pixels.width(), pixels.height());
    std::vector<char> key = baseKey(background, grid);
    if (baseCacheEnabled_ && baseCache_.matches(key, pixels)) {
        baseCache_.copyTo(*this, defaultFramebufferObject());
        ++baseCopies_;
        if (is3d()) glEnable(GL_DEPTH_TEST);
        else glDisable(GL_DEPTH_TEST);
    } else {
        drawBase(background, grid);
        // Moving views restart the wait; a still one (overlays changing over an unchanged
        // base, as while a ray is dragged) gets its picture when the wait ends.
        if (baseCacheEnabled_ && (key != lastBaseKey_ || !baseFillTimer_.isActive())) baseFillTimer_.start();
        lastBaseKey_ = std::move(key);
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Rest);
    if (!uploaded) update(); // more to upload
    paintOverlay();
    lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++frames_;
    emit painted();
}

} // namespace shallot

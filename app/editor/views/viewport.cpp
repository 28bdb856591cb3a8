#include "views/viewport.h"

#include "editor.h"
#include "preferences_dialog.h"
#include "views/view_surface.h"
#include "views/view_turns.h"
#include "views/view_work_queue.h"

#include <QApplication>
#include <QEnterEvent>
#include <QOpenGLFramebufferObject>
#include <QPainter>
#include <QVBoxLayout>
#include <cmath>
#include <cstring>
#include <optional>

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
// A pan moves a 2D view's picture along when the new camera is the old one moved by whole
// pixels: its scale within this relative tolerance (the projection is made in floats from
// the centre, so a pan changes its scale in the last bits), its shift within this many
// pixels of a whole number.
constexpr float kSameScaleTolerance = 1e-5f;
constexpr double kMaxSubpixelShift = 0.01;

// The whole-pixel shift (x right, y up) that takes the picture of camera `from` to that of
// `to` (column-major 4x4 matrices of an orthographic view of `pixels`), if there is one.
std::optional<QPoint> pixelShift(const float* from, const float* to, const QSize& pixels) {
    for (int i = 0; i < 16; ++i) {
        if (i == 12 || i == 13) continue; // the x and y translations
        if (std::abs(to[i] - from[i]) > kSameScaleTolerance * std::max(1.0f, std::abs(from[i]))) return std::nullopt;
    }
    const double dx = double(to[12] - from[12]) * pixels.width() / 2.0, dy = double(to[13] - from[13]) * pixels.height() / 2.0;
    const double rx = std::round(dx), ry = std::round(dy);
    if (std::abs(dx - rx) > kMaxSubpixelShift || std::abs(dy - ry) > kMaxSubpixelShift) return std::nullopt;
    if (std::abs(rx) >= pixels.width() || std::abs(ry) >= pixels.height()) return std::nullopt;
    return QPoint(int(rx), int(ry));
}

// A picture key (baseInputs) is the view, then the content: the background colour and
// is3d (this header), then each base layer's LayerState (version, visibility), then the
// grid.
constexpr size_t kContentHeaderBytes = sizeof(QRgb) + sizeof(bool);
constexpr size_t kLayerStateBytes = sizeof(uint64_t) + sizeof(bool);

// A zoomed 2D view shows its old picture stretched while the new one is drawn in parts,
// when that stretch is within this factor either way (beyond, a preview shows too little).
constexpr double kMaxPreviewStretch = 16.0;
// How far the matrix taking the old picture's clip space to the new one's may be from a
// scale and shift of x and y (float matrices of a 2D view).
constexpr float kStretchMatrixTolerance = 1e-4f;

// A 2D view patches its picture where its overlays changed (patchPicture) when that is at
// most this fraction of the view; more is drawn anew in parts between frames, which keeps
// every pause of the UI short.
constexpr double kMaxPatchFraction = 0.25;

// The window pixels (y up) that a world box can reach in a view of `pixels` through `mvp`,
// with two pixels of margin for lines and rounding.
QRect windowRectangle(const Aabb& box, const QMatrix4x4& mvp, const QSize& pixels) {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (int c = 0; c < 8; ++c) {
        const QVector3D corner(float((c & 1) ? box.maxs.x() : box.mins.x()), float((c & 2) ? box.maxs.y() : box.mins.y()),
                               float((c & 4) ? box.maxs.z() : box.mins.z()));
        const QVector3D ndc = mvp.map(corner); // orthographic: w stays 1
        const double x = (ndc.x() + 1.0) * 0.5 * pixels.width(), y = (ndc.y() + 1.0) * 0.5 * pixels.height();
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    const double big = 1e6; // far outside any view, and inside int
    auto clampInt = [&](double v) { return int(std::clamp(v, -big, big)); };
    return QRect(QPoint(clampInt(std::floor(x0)) - 2, clampInt(std::floor(y0)) - 2),
                 QPoint(clampInt(std::ceil(x1)) + 2, clampInt(std::ceil(y1)) + 2));
}

// A matrix that maps the window rectangle `r` of a view of `pixels` onto the whole view
// volume: with it as the cull matrix, only what can reach the rectangle is drawn. A pixel
// of margin keeps rounding from culling a chunk that touches the rectangle's edge.
QMatrix4x4 rectangleCull(QRect r, const QSize& pixels) {
    r.adjust(-1, -1, 1, 1);
    const double w = pixels.width(), h = pixels.height();
    const double cx = (2.0 * r.x() + r.width()) / w - 1.0, cy = (2.0 * r.y() + r.height()) / h - 1.0;
    QMatrix4x4 m;
    m(0, 0) = float(w / r.width());
    m(0, 3) = float(-cx * w / r.width());
    m(1, 1) = float(h / r.height());
    m(1, 3) = float(-cy * h / r.height());
    return m;
}
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
    // Only when something this view draws changed: many changes are another view's (the
    // tree's overlays the 2D views leave to their sections), or the same drawing again
    // (walkable meshes and rays redone after an edit elsewhere), and a frame of a view costs
    // 10-35 ms under llvmpipe.
    connect(&editor_, &Editor::sceneChanged, this, [this] {
        if (renderer_.drawnDigest(editor_.scene()) != paintedDigest_) redraw();
    });
    connect(&editor_, &Editor::drawingChanged, this, &Viewport::redraw);
    baseFillTimer_.setSingleShot(true);
    connect(&baseFillTimer_, &QTimer::timeout, this, &Viewport::fillBaseCache);
}

Viewport::~Viewport() {
    if (!surface_->isValid()) return; // never shown: no OpenGL resources
    surface_->makeCurrent();
    baseCache_.release();
    paintedOverlay_.release(*this);
    background_.destroy();
    renderer_.release();
    surface_->doneCurrent();
}

void Viewport::redraw() { surface_->update(); }

void Viewport::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // The view's window grows with the widget, but X need not expose it again (no window
    // manager, or a grown part it counts as already drawn): the old, smaller frame stayed.
    redraw();
}

void Viewport::paintLegend(QPainter& painter) {
    if (editor_.legendsShown()) legend_.paint(painter, rect(), viewLegend(editor_, is3d()));
}

bool Viewport::legendPress(const QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !editor_.legendsShown() || !legend_.click(e->position())) return false;
    redraw();
    return true;
}

void Viewport::legendMove(const QMouseEvent* e) {
    if (editor_.legendsShown() && e->buttons() == Qt::NoButton && legend_.hover(e->position())) redraw();
}

bool Viewport::nudgeSelectionByKey(const QKeyEvent* e, const Vec3& right, const Vec3& up, const Vec3& vertical) {
    if (e->modifiers() != Qt::NoModifier && e->modifiers() != Qt::KeypadModifier) return false;
    Vec3 along = Vec3::Zero();
    switch (e->key()) {
    case Qt::Key_Left: along = -right; break;
    case Qt::Key_Right: along = right; break;
    case Qt::Key_Up: along = up; break;
    case Qt::Key_Down: along = -up; break;
    case Qt::Key_PageUp: along = vertical; break;
    case Qt::Key_PageDown: along = -vertical; break;
    default: break;
    }
    return along != Vec3::Zero() && editor_.nudgeSelection(editor_.document().data().gridSize * along);
}

void Viewport::leaveEvent(QEvent* e) {
    QWidget::leaveEvent(e);
    if (legend_.hover(std::nullopt)) redraw();
}

void Viewport::enterEvent(QEnterEvent* e) {
    const QWidget* focused = QApplication::focusWidget();
    const bool typing = focused && (focused->inherits("QLineEdit") || focused->inherits("QAbstractSpinBox") ||
                                    focused->inherits("QTextEdit") || focused->inherits("QKeySequenceEdit"));
    if (!typing && window()->isActiveWindow()) setFocus(Qt::MouseFocusReason);
    QWidget::enterEvent(e);
}

QSize Viewport::pixels() const { return size() * devicePixelRatio(); }

bool Viewport::keepsPicture() const { return baseCacheEnabled_ && !pixels().isEmpty(); }

bool Viewport::showsScene() const {
    // A view with no pixels shows nothing, and is not painted (nor uploads) until it has some.
    if (pixels().isEmpty()) return true;
    if (!renderer_.showsCurrent(editor_.scene())) return false;
    if (is3d() || !keepsPicture()) return true;
    const BaseInputs in = baseInputs();
    return baseCache_.matches(in.key, in.pixels);
}
QWindow* Viewport::surface() const { return surface_; }

QImage Viewport::grabFramebuffer(bool asShown) {
    if (!surface_->isValid() || pixels().isEmpty()) return {};
    surface_->makeCurrent();
    // An image of the scene as it is now: what is still to upload is uploaded first.
    while (renderer_.upload(*this, editor_.scene()) == render::SceneRenderer::UploadState::Uploading) {}
    QImage out;
    {
        // Deleted while its context is current: after doneCurrent its buffers would stay
        // allocated in the driver until exit (LeakSanitizer reports them).
        QOpenGLFramebufferObjectFormat format;
        format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
        QOpenGLFramebufferObject image(pixels(), format);
        grabTarget_ = image.handle();
        grabAsShown_ = asShown;
        paintGL();
        grabTarget_ = 0;
        grabAsShown_ = false;
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

void Viewport::uploadAgain() {
    renderer_.uploadAgain();
    redraw();
}

Viewport::BaseInputs Viewport::baseInputs() const {
    using render::BaseImageCache;
    BaseInputs in{backgroundColour(), backgroundBatch(), pixels(), {}, {}, {}, {}};
    std::vector<char>& key = in.key;
    const QMatrix4x4 mvp = viewProjection();
    in.view.assign(reinterpret_cast<const char*>(mvp.constData()), reinterpret_cast<const char*>(mvp.constData() + 16));
    BaseImageCache::append(in.view, in.pixels);
    BaseImageCache::append(in.content, in.background.rgba());
    BaseImageCache::append(in.content, is3d());
    for (size_t i = 0; i < render::kLayerCount; ++i) {
        const render::SceneLayer& layer = editor_.scene().layer(render::Layer(i));
        if (!render::inGroup(render::Layer(i), layer.translucent, render::LayerGroup::Base, is3d())) continue;
        // Layers this view does not draw (another view's section) count as hidden, at no
        // version: their changes change nothing here.
        const bool drawn = layer.drawnIn(looksAlong());
        in.layers.push_back({render::Layer(i), drawn ? renderer_.shownVersion(render::Layer(i)) : 0, layer.visible && drawn});
        BaseImageCache::append(in.content, in.layers.back().version);
        BaseImageCache::append(in.content, in.layers.back().visible);
    }
    key = in.view;
    key.insert(key.end(), in.content.begin(), in.content.end());
    BaseImageCache::append(key, in.grid.primitive);
    key.insert(key.end(), reinterpret_cast<const char*>(in.grid.vertices.data()),
               reinterpret_cast<const char*>(in.grid.vertices.data() + in.grid.vertices.size()));
    return in;
}

std::vector<Viewport::LayerState> Viewport::layersInKey(const std::vector<char>& key, const BaseInputs& in) {
    std::vector<LayerState> out = in.layers;
    const char* at = key.data() + in.view.size() + kContentHeaderBytes;
    for (LayerState& layer : out) {
        std::memcpy(&layer.version, at, sizeof(layer.version));
        std::memcpy(&layer.visible, at + sizeof(layer.version), sizeof(layer.visible));
        at += kLayerStateBytes;
    }
    return out;
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
    if (!keepsPicture() || !surface_->isValid() || !isVisible()) return;
    surface_->makeCurrent();
    BaseInputs in = baseInputs();
    bool finished = false;
    const bool sameCamera = baseCache_.drawnFor(in.view, in.pixels);
    if (baseCache_.matches(in.key, in.pixels) || (!sameCamera && !stretchedPicture(in))) {
        baseCache_.dropPartial(); // nothing left to draw, or the camera moved: frames draw it
    } else if (sameCamera && baseCache_.partialKey() != in.key && patchPicture(in)) {
        finished = true; // an edit's overlays, changed in a few places: patched there at once
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

void Viewport::movePicture(const BaseInputs& in, bool panned) {
    if (is3d() || !keepsPicture() || (grabTarget_ && !grabAsShown_)) return;
    if (shiftPicture(in)) return;
    // A zoom: the frame shows the old picture stretched and the new one is drawn in parts.
    if (!panned && stretchedPicture(in)) return;
    // No picture to move (a resize, new overlays, a pan right after a zoom): drawn whole into
    // the picture, so that the next frame of a pan can move it.
    baseCache_.beginDrawing(in.key, in.pixels);
    drawBase(in);
}

bool Viewport::storedPictureOfContent(const BaseInputs& in) const {
    const std::vector<char>& stored = baseCache_.key();
    const size_t matrixBytes = 16 * sizeof(float);
    return baseCache_.drawnFor({}, in.pixels) && stored.size() >= in.view.size() + in.content.size() &&
           std::equal(in.view.begin() + long(matrixBytes), in.view.end(), stored.begin() + long(matrixBytes)) &&
           std::equal(in.content.begin(), in.content.end(), stored.begin() + long(in.view.size()));
}

std::optional<QRect> Viewport::stretchedPicture(const BaseInputs& in) const {
    if (is3d() || !keepsPicture() || (grabTarget_ && !grabAsShown_) || !storedPictureOfContent(in)) return std::nullopt;
    const std::vector<char>& stored = baseCache_.key();
    float from[16], to[16];
    std::memcpy(from, stored.data(), sizeof(from));
    std::memcpy(to, in.view.data(), sizeof(to));
    bool invertible = false;
    const QMatrix4x4 oldToNew = QMatrix4x4(to).transposed() * QMatrix4x4(from).transposed().inverted(&invertible);
    if (!invertible) return std::nullopt;
    // Clip space to clip space: x' = sx x + tx, y' = sy y + ty, and nothing else.
    const float sx = oldToNew(0, 0), sy = oldToNew(1, 1), tx = oldToNew(0, 3), ty = oldToNew(1, 3);
    QMatrix4x4 expected;
    expected(0, 0) = sx, expected(1, 1) = sy, expected(0, 3) = tx, expected(1, 3) = ty;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            if (std::abs(oldToNew(r, c) - expected(r, c)) > kStretchMatrixTolerance * std::max(1.0f, std::abs(expected(r, c))))
                return std::nullopt;
    const auto within = [](double s) { return s >= 1.0 / kMaxPreviewStretch && s <= kMaxPreviewStretch; };
    if (!within(sx) || !within(sy)) return std::nullopt;
    // The old picture's corners, clip (-1, -1) and (1, 1), in the new frame's pixels.
    const double w = in.pixels.width(), h = in.pixels.height();
    const int x0 = int(std::lround((tx - sx + 1.0) * 0.5 * w)), x1 = int(std::lround((tx + sx + 1.0) * 0.5 * w));
    const int y0 = int(std::lround((ty - sy + 1.0) * 0.5 * h)), y1 = int(std::lround((ty + sy + 1.0) * 0.5 * h));
    return QRect(QPoint(x0, y0), QPoint(x1 - 1, y1 - 1));
}

bool Viewport::shiftPicture(const BaseInputs& in) {
    // A picture in parts would be newer than the stored one.
    if (!baseCache_.partialKey().empty() || !storedPictureOfContent(in)) return false;
    const std::vector<char>& stored = baseCache_.key();
    const std::optional<QPoint> shift = pixelShift(reinterpret_cast<const float*>(stored.data()),
                                                   reinterpret_cast<const float*>(in.view.data()), in.pixels);
    if (!shift) return false;
    baseCache_.beginShifted(*this, in.key, *shift);
    // The strips the move uncovered, disjoint (blending must not reach a pixel twice).
    const int w = in.pixels.width(), h = in.pixels.height(), dx = shift->x(), dy = shift->y();
    std::vector<QRect> strips;
    if (dx != 0) strips.emplace_back(dx > 0 ? 0 : w + dx, 0, std::abs(dx), h);
    if (dy != 0) strips.emplace_back(std::max(0, dx), dy > 0 ? 0 : h + dy, w - std::abs(dx), std::abs(dy));
    for (const QRect& strip : strips) redrawPictureIn(in, strip);
    baseCache_.finishPartial();
    ++picturesShifted_;
    return true;
}

void Viewport::redrawPictureIn(const BaseInputs& in, const QRect& rect) {
    // The view's own matrix and viewport, under a scissor: the rectangle's pixels are those
    // a whole drawing gives; the cull matrix only skips chunks that miss the rectangle.
    const QMatrix4x4 mvp = viewProjection();
    glEnable(GL_SCISSOR_TEST);
    glScissor(rect.x(), rect.y(), rect.width(), rect.height());
    drawBackground(in);
    const QMatrix4x4 cull = rectangleCull(rect, in.pixels) * mvp;
    renderer_.drawLayers(*this, editor_.scene(), mvp, false, eye(), render::LayerGroup::Base, nullptr, &cull);
    glDisable(GL_SCISSOR_TEST);
}

bool Viewport::patchPicture(const BaseInputs& in) {
    const std::vector<char>& stored = baseCache_.key();
    const size_t at = in.view.size();
    // The stored picture (not one being drawn in parts, which is dropped): this camera and
    // size (drawnFor), background and grid alike, and each base layer either as shown or at
    // a version whose changes to the shown one are known.
    if (stored.size() != in.key.size() ||
        !std::equal(stored.begin() + long(at), stored.begin() + long(at + kContentHeaderBytes), in.content.begin()) ||
        !std::equal(stored.begin() + long(at + in.content.size()), stored.end(), in.key.begin() + long(at + in.content.size())))
        return false;
    const QMatrix4x4 mvp = viewProjection();
    QRect dirty;
    const std::vector<LayerState> storedLayers = layersInKey(stored, in);
    for (size_t k = 0; k < in.layers.size(); ++k) {
        const LayerState& layer = in.layers[k];
        const uint64_t version = storedLayers[k].version;
        const bool visible = storedLayers[k].visible;
        if (version == layer.version && visible == layer.visible) continue;
        if (!visible && !layer.visible) continue; // hidden before and now: draws nothing either way
        if (visible != layer.visible || version == 0) return false;
        const std::optional<std::vector<Aabb>> boxes = renderer_.shownChangesSince(layer.layer, version);
        if (!boxes) return false;
        if (!layer.visible) continue;
        for (const Aabb& box : *boxes) dirty |= windowRectangle(box, mvp, in.pixels);
    }
    dirty &= QRect(QPoint(0, 0), in.pixels);
    if (double(dirty.width()) * dirty.height() > kMaxPatchFraction * in.pixels.width() * in.pixels.height())
        return false; // drawn anew in parts, between frames
    baseCache_.beginShifted(*this, in.key, QPoint(0, 0));
    if (!dirty.isEmpty()) redrawPictureIn(in, dirty);
    baseCache_.finishPartial();
    ++picturesPatched_;
    return true;
}

void Viewport::fillBaseCache() {
    if (!keepsPicture() || !surface_->isValid() || !isVisible()) return;
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
    paintedDigest_ = renderer_.drawnDigest(editor_.scene());
    if (renderer_.upload(*this, editor_.scene()) == render::SceneRenderer::UploadState::Uploading) queueUploadPart();
    glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer()); // a base picture's may be bound
    BaseInputs in = baseInputs();
    const bool still = in.view == lastView_;
    const bool panned = !still && lastView_.size() == in.view.size() &&
                        pixelShift(reinterpret_cast<const float*>(lastView_.data()),
                                   reinterpret_cast<const float*>(in.view.data()), in.pixels);
    lastView_ = in.view;
    if (!still) movePicture(in, panned);
    bool showOldPicture = false;
    std::optional<QRect> stretched;
    if (keepsPicture() && !baseCache_.matches(in.key, in.pixels) && (stretched = stretchedPicture(in))) {
        // A zoom (75-150 ms to draw on librequake_e3m4 with every overlay): this frame shows
        // the old picture stretched, under the brushes drawn sharp as always, and the new
        // picture is drawn in parts between frames (drawPicturePart).
        queuePicturePart();
    } else if (keepsPicture() && still && !baseCache_.matches(in.key, in.pixels)) {
        if (!is3d() && !grabTarget_ && baseCache_.drawnFor(in.view, in.pixels)) {
            if (!editor_.previewing() && baseCache_.partialKey() != in.key && patchPicture(in)) {
                // An edit's overlays, changed in a few places: the picture is patched there
                // in this frame, which shows it, instead of showing the old picture now and
                // the patched one a frame later (a paint and a swap more in each of the three
                // views: an edit on id_e1m1 was drawn about 25 ms later).
                glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer());
                baseDrawTurns.done(this);
            } else {
                // New overlays in a 2D view (75-150 ms to draw on librequake_e3m4, and they
                // reach the three views at once): the new picture is drawn in parts between
                // frames (drawPicturePart, queued with the other views' work), and this frame
                // shows the old one. The brushes and the selection are drawn over it below, as
                // they are now. A grab (an image asked for now) never waits. A drag's new
                // overlays usually differ from the old ones in a few places: to keep its
                // frames short, the queued work patches the picture there instead, in one go,
                // one view per pass of the event loop (the three views' patches back to back
                // held the UI for their sum).
                showOldPicture = true;
                queuePicturePart();
            }
        } else {
            // The base changed under a camera standing still (in 3D an edit or a selection;
            // a 2D view with no picture for this camera yet): drawn into the picture at once
            // and copied, instead of drawn here and again into the picture a moment later.
            baseCache_.beginDrawing(in.key, in.pixels);
            drawBase(in);
            baseDrawTurns.done(this);
        }
    }
    if (stretched) {
        glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer());
        drawBackground(in); // the new grid where the old picture does not reach
        baseCache_.stretchTo(*this, targetFramebuffer(), *stretched);
        setViewState(in.pixels);
        ++picturesStretched_;
    } else if (keepsPicture() && (showOldPicture || baseCache_.matches(in.key, in.pixels))) {
        baseCache_.copyTo(*this, targetFramebuffer(), is3d()); // 3D: with the depth the overlays test against
        ++baseCopies_;
        setViewState(in.pixels);
    } else {
        drawBase(in);
        // Moving views restart the wait: the picture is filled once the view stands still.
        if (keepsPicture() && (in.key != lastBaseKey_ || !baseFillTimer_.isActive())) baseFillTimer_.start(kBaseFillDelayMs);
        lastBaseKey_ = std::move(in.key);
    }
    renderer_.drawLayers(*this, editor_.scene(), viewProjection(), is3d(), eye(), render::LayerGroup::Rest);
    {
        QPainter painter(&paintedOverlay_.begin(in.pixels, devicePixelRatio()));
        paintOverlay(painter);
    }
    paintedOverlay_.draw(*this);
    lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
    ++frames_;
    emit painted();
}

} // namespace shallot

#include "base_image_cache.h"

#include <QOpenGLFunctions_3_3_Core>
#include <algorithm>

namespace shallot::render {

bool BaseImageCache::matches(const std::vector<char>& key, const QSize& size) const {
    return fbo_ && fbo_->size() == size && key == key_;
}

bool BaseImageCache::drawnFor(const std::vector<char>& prefix, const QSize& size) const {
    return fbo_ && fbo_->size() == size && key_.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), key_.begin());
}

namespace {

void makeAtSize(std::unique_ptr<QOpenGLFramebufferObject>& fbo, const QSize& size) {
    if (fbo && fbo->size() == size) return;
    // The formats of the view's window (RGBA8, 24-bit depth with 8-bit stencil:
    // ViewSurface::surfaceFormat), so that depth and stencil can be blitted between them.
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    fbo = std::make_unique<QOpenGLFramebufferObject>(size, format);
}

} // namespace

void BaseImageCache::beginDrawing(std::vector<char> key, const QSize& size) {
    makeAtSize(fbo_, size);
    key_ = std::move(key);
    partialKey_.clear(); // drawn whole: a picture in parts would be older
    fbo_->bind();
}

void BaseImageCache::beginPartial(std::vector<char> key, const QSize& size) {
    makeAtSize(partial_, size);
    partialKey_ = std::move(key);
    partial_->bind();
}

void BaseImageCache::beginShifted(QOpenGLFunctions_3_3_Core& gl, std::vector<char> key, QPoint offset) {
    const QSize size = fbo_->size();
    makeAtSize(partial_, size);
    partialKey_ = std::move(key);
    // Source pixels that stay in view, and where they land.
    const int w = size.width(), h = size.height(), dx = offset.x(), dy = offset.y();
    const int srcX0 = std::max(0, -dx), srcX1 = std::min(w, w - dx), srcY0 = std::max(0, -dy), srcY1 = std::min(h, h - dy);
    gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_->handle());
    gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, partial_->handle());
    if (srcX0 < srcX1 && srcY0 < srcY1)
        gl.glBlitFramebuffer(srcX0, srcY0, srcX1, srcY1, srcX0 + dx, srcY0 + dy, srcX1 + dx, srcY1 + dy,
                             GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT, GL_NEAREST);
    gl.glBindFramebuffer(GL_FRAMEBUFFER, partial_->handle());
}

void BaseImageCache::continuePartial() { partial_->bind(); }

void BaseImageCache::finishPartial() {
    std::swap(fbo_, partial_);
    key_ = std::move(partialKey_);
    partialKey_.clear();
}

void BaseImageCache::copyTo(QOpenGLFunctions_3_3_Core& gl, unsigned target) const {
    const int w = fbo_->width(), h = fbo_->height();
    gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_->handle());
    gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    gl.glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT, GL_NEAREST);
    gl.glBindFramebuffer(GL_FRAMEBUFFER, target);
}

void BaseImageCache::copyColourTo(QOpenGLFunctions_3_3_Core& gl, unsigned target) {
    gl.glBindFramebuffer(GL_FRAMEBUFFER, target);
    gl.glViewport(0, 0, fbo_->width(), fbo_->height());
    gl.glDisable(GL_BLEND);
    gl.glDisable(GL_DEPTH_TEST);
    gl.glDisable(GL_STENCIL_TEST);
    gl.glDisable(GL_SCISSOR_TEST);
    if (!blitter_.isCreated()) blitter_.create();
    blitter_.bind();
    // The whole viewport, the texture's rows as OpenGL keeps them (bottom first).
    blitter_.blit(fbo_->texture(), QMatrix4x4(), QOpenGLTextureBlitter::OriginBottomLeft);
    blitter_.release();
}

void BaseImageCache::stretchTo(QOpenGLFunctions_3_3_Core& gl, unsigned target, const QRect& where) const {
    gl.glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_->handle());
    gl.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    gl.glBlitFramebuffer(0, 0, fbo_->width(), fbo_->height(), where.left(), where.top(), where.left() + where.width(),
                         where.top() + where.height(), GL_COLOR_BUFFER_BIT, GL_LINEAR);
    gl.glBindFramebuffer(GL_FRAMEBUFFER, target);
}

void BaseImageCache::release() {
    if (blitter_.isCreated()) blitter_.destroy();
    fbo_.reset();
    partial_.reset();
    key_.clear();
    partialKey_.clear();
}

} // namespace shallot::render

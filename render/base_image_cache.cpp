#include "base_image_cache.h"

#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLFunctions_3_3_Core>
#include <algorithm>

namespace shallot::render {

bool BaseImageCache::matches(const std::vector<char>& key, const QSize& size) const {
    return fbo_ && fbo_->size() == size && key == key_;
}

bool BaseImageCache::drawnFor(const std::vector<char>& prefix, const QSize& size) const {
    return fbo_ && fbo_->size() == size && key_.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), key_.begin());
}

void BaseImageCache::freePicture(Picture& picture) {
    if (picture.depthStencil) QOpenGLContext::currentContext()->functions()->glDeleteTextures(1, &picture.depthStencil);
    picture = {};
}

void BaseImageCache::makeAtSize(Picture& picture, const QSize& size) {
    if (picture && picture->size() == size) return;
    freePicture(picture);
    // The formats of the view's window (RGBA8, 24-bit depth with 8-bit stencil:
    // ViewSurface::surfaceFormat), the same in both pictures so that a pan blits one into
    // the other. The colour is filtered for stretchTo (copyTo reads whole pixels).
    picture.fbo = std::make_unique<QOpenGLFramebufferObject>(size, QOpenGLFramebufferObject::NoAttachment);
    QOpenGLFunctions* gl = QOpenGLContext::currentContext()->functions();
    gl->glBindTexture(GL_TEXTURE_2D, picture->texture());
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->glGenTextures(1, &picture.depthStencil);
    gl->glBindTexture(GL_TEXTURE_2D, picture.depthStencil);
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, size.width(), size.height(), 0, GL_DEPTH_STENCIL,
                     GL_UNSIGNED_INT_24_8, nullptr);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->glBindTexture(GL_TEXTURE_2D, 0);
    picture->bind();
    gl->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, picture.depthStencil, 0);
}

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

void BaseImageCache::copyTo(QOpenGLFunctions_3_3_Core& gl, unsigned target, bool withDepth) {
    std::unique_ptr<QOpenGLShaderProgram>& program = copyPrograms_[withDepth ? 1 : 0];
    if (!program) {
        program = std::make_unique<QOpenGLShaderProgram>();
        program->addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/picture.vert");
        program->addShaderFromSourceFile(QOpenGLShader::Fragment, withDepth ? ":/shaders/picture.frag" : ":/shaders/picture_colour.frag");
        program->link();
    }
    if (!copyVertices_.isCreated()) copyVertices_.create();
    gl.glBindFramebuffer(GL_FRAMEBUFFER, target);
    gl.glViewport(0, 0, fbo_->width(), fbo_->height());
    gl.glDisable(GL_BLEND);
    gl.glDisable(GL_STENCIL_TEST);
    gl.glDisable(GL_SCISSOR_TEST);
    if (withDepth) {
        // Every pixel's depth written as it was, whatever the target held.
        gl.glEnable(GL_DEPTH_TEST);
        gl.glDepthFunc(GL_ALWAYS);
        gl.glDepthMask(GL_TRUE);
        gl.glActiveTexture(GL_TEXTURE1);
        gl.glBindTexture(GL_TEXTURE_2D, fbo_.depthStencil);
    } else {
        gl.glDisable(GL_DEPTH_TEST);
    }
    gl.glActiveTexture(GL_TEXTURE0);
    gl.glBindTexture(GL_TEXTURE_2D, fbo_->texture());
    program->bind();
    program->setUniformValue("colourTexture", 0);
    if (withDepth) program->setUniformValue("depthTexture", 1);
    copyVertices_.bind();
    gl.glDrawArrays(GL_TRIANGLES, 0, 3);
    copyVertices_.release();
    program->release();
    gl.glBindTexture(GL_TEXTURE_2D, 0);
    if (withDepth) {
        gl.glActiveTexture(GL_TEXTURE1);
        gl.glBindTexture(GL_TEXTURE_2D, 0);
        gl.glActiveTexture(GL_TEXTURE0);
        gl.glDepthFunc(GL_LEQUAL);
    }
}

void BaseImageCache::stretchTo(QOpenGLFunctions_3_3_Core& gl, unsigned target, const QRect& where) {
    const int w = fbo_->width(), h = fbo_->height();
    gl.glBindFramebuffer(GL_FRAMEBUFFER, target);
    gl.glViewport(0, 0, w, h);
    gl.glDisable(GL_BLEND);
    gl.glDisable(GL_DEPTH_TEST);
    gl.glDisable(GL_STENCIL_TEST);
    gl.glDisable(GL_SCISSOR_TEST);
    if (!stretcher_.isCreated()) stretcher_.create();
    stretcher_.bind();
    // The blitter places rectangles with y down; `where` has y up.
    const QRectF placed(where.left(), h - where.top() - where.height(), where.width(), where.height());
    stretcher_.blit(fbo_->texture(), QOpenGLTextureBlitter::targetTransform(placed, QRect(0, 0, w, h)),
                    QOpenGLTextureBlitter::OriginBottomLeft);
    stretcher_.release();
}

void BaseImageCache::release() {
    copyVertices_.destroy();
    for (auto& program : copyPrograms_) program.reset();
    if (stretcher_.isCreated()) stretcher_.destroy();
    freePicture(fbo_);
    freePicture(partial_);
    key_.clear();
    partialKey_.clear();
}

} // namespace shallot::render

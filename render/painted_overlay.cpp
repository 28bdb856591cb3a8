#include "painted_overlay.h"

#include <QMatrix3x3>
#include <QPainter>
#include <QOpenGLFunctions_3_3_Core>
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace shallot::render {

QImage& PaintedOverlay::begin(const QSize& pixels, qreal ratio) {
    image_.setDevicePixelRatio(1); // the runs are in pixels
    if (image_.size() != pixels) {
        image_ = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        image_.fill(Qt::transparent);
    } else {
        // Only the last frame's painted tiles hold anything: the rest is clear already.
        QPainter clear(&image_);
        clear.setCompositionMode(QPainter::CompositionMode_Source);
        for (const QRect& run : runs_) clear.fillRect(run, Qt::transparent);
    }
    runs_.clear();
    image_.setDevicePixelRatio(ratio);
    return image_;
}

// True when any pixel of the tile at tile column `tx`, tile row `ty` is not transparent
// (premultiplied: a transparent pixel is all zero bits). Each row's pixels are or-ed whole,
// without an early exit, which the compiler turns into vector instructions.
static bool tileHoldsPaint(const QImage& image, int tx, int ty) {
    const int x0 = tx * PaintedOverlay::kTilePixels, y0 = ty * PaintedOverlay::kTilePixels;
    const int x1 = std::min(x0 + PaintedOverlay::kTilePixels, image.width());
    const int y1 = std::min(y0 + PaintedOverlay::kTilePixels, image.height());
    for (int y = y0; y < y1; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(image.constScanLine(y));
        std::uint32_t any = 0;
        for (int x = x0; x < x1; ++x) any |= row[x];
        if (any) return true;
    }
    return false;
}

bool PaintedOverlay::changedSince(const Texture& texture, const QRect& run) const {
    if (texture.uploaded.size() != image_.size()) return true;
    for (int y = run.top(); y <= run.bottom(); ++y)
        if (std::memcmp(texture.uploaded.constScanLine(y) + run.x() * 4, image_.constScanLine(y) + run.x() * 4,
                        size_t(run.width()) * 4))
            return true;
    return false;
}

void PaintedOverlay::findRuns() {
    const QRect whole = image_.rect();
    const int tilesAcross = (whole.width() + kTilePixels - 1) / kTilePixels;
    const int tilesDown = (whole.height() + kTilePixels - 1) / kTilePixels;
    runs_.clear();
    tilesDrawn_ = 0;
    for (int ty = 0; ty < tilesDown; ++ty) {
        for (int tx = 0; tx < tilesAcross; ++tx) {
            if (!tileHoldsPaint(image_, tx, ty)) continue;
            int end = tx + 1;
            while (end < tilesAcross && tileHoldsPaint(image_, end, ty)) ++end;
            tilesDrawn_ += end - tx;
            runs_.push_back(QRect(tx * kTilePixels, ty * kTilePixels, (end - tx) * kTilePixels, kTilePixels).intersected(whole));
            tx = end;
        }
    }
}

void PaintedOverlay::upload(QOpenGLFunctions_3_3_Core& gl, Texture& texture) {
    const int w = image_.width(), h = image_.height();
    if (!texture.id) gl.glGenTextures(1, &texture.id);
    gl.glBindTexture(GL_TEXTURE_2D, texture.id);
    const bool fresh = texture.uploaded.size() != image_.size();
    if (fresh) {
        gl.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, nullptr);
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        gl.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        texture.uploaded = QImage(image_.size(), QImage::Format_ARGB32_Premultiplied);
    }
    gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, image_.bytesPerLine() / 4);
    gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (const QRect& run : runs_) {
        if (!fresh && !changedSince(texture, run)) continue;
        gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, run.x());
        gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, run.y());
        gl.glTexSubImage2D(GL_TEXTURE_2D, 0, run.x(), run.y(), run.width(), run.height(), GL_BGRA,
                           GL_UNSIGNED_INT_8_8_8_8_REV, image_.constBits());
        for (int y = run.top(); y <= run.bottom(); ++y)
            std::memcpy(texture.uploaded.scanLine(y) + run.x() * 4, image_.constScanLine(y) + run.x() * 4,
                        size_t(run.width()) * 4);
    }
    gl.glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    gl.glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    gl.glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
}

void PaintedOverlay::draw(QOpenGLFunctions_3_3_Core& gl) {
    const int w = image_.width(), h = image_.height();
    if (w == 0 || h == 0) return;
    findRuns();
    // A frame whose painting changed uploads into the texture the last frame did not read
    // (llvmpipe may still be drawing that frame), so the upload does not wait for it.
    if (std::any_of(runs_.begin(), runs_.end(), [&](const QRect& run) { return changedSince(textures_[current_], run); })) {
        current_ = 1 - current_;
        gl.glActiveTexture(GL_TEXTURE0);
        upload(gl, textures_[current_]);
    }
    if (runs_.empty()) return;
    if (!blitter_.isCreated()) blitter_.create();
    gl.glViewport(0, 0, w, h);
    gl.glDisable(GL_DEPTH_TEST);
    gl.glDisable(GL_SCISSOR_TEST);
    gl.glDisable(GL_STENCIL_TEST);
    gl.glEnable(GL_BLEND);
    gl.glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    const QRect viewport(0, 0, w, h);
    blitter_.bind();
    for (const QRect& run : runs_) {
        // The texture holds the image's rows top first; the blitter's quad has its texture
        // coordinate 0 at the bottom, so v is turned over within the run.
        const float sx = float(run.width()) / w, sy = float(run.height()) / h;
        const float source[] = {sx, 0, float(run.x()) / w,  0, -sy, float(run.bottom() + 1) / h,  0, 0, 1};
        blitter_.blit(textures_[current_].id, QOpenGLTextureBlitter::targetTransform(run, viewport), QMatrix3x3(source));
    }
    blitter_.release();
    gl.glDisable(GL_BLEND);
}

void PaintedOverlay::release(QOpenGLFunctions_3_3_Core& gl) {
    if (blitter_.isCreated()) blitter_.destroy();
    for (Texture& texture : textures_) {
        if (texture.id) gl.glDeleteTextures(1, &texture.id);
        texture = {};
    }
}

} // namespace shallot::render

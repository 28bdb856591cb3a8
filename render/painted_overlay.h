#pragma once
// What a view paints with QPainter over its frame (titles, legends, grid size, working
// lines, tool notes), drawn into a raster image and blended over the frame as a texture.
//
// Why not QPainter on a QOpenGLPaintDevice, as the views did: under llvmpipe each view's
// first paint there took 33-61 ms (the GL paint engine's programs and glyph cache, made
// per context), and every later frame paid for starting the engine. Raster painting of a
// few lines of text costs well under a millisecond. Only the tiles of the image that hold
// something are uploaded and blended, so a frame does not pay for blending a whole view of
// transparent pixels. Only tiles that changed are uploaded, into a texture the frame before
// did not read: llvmpipe makes an upload wait until every queued draw that reads the
// texture is done (30 ms a frame in a turning 3D view when one texture was uploaded every
// frame).
#include <QImage>
#include <QOpenGLTextureBlitter>
#include <QRect>
#include <QSize>
#include <vector>

class QOpenGLFunctions_3_3_Core;

namespace shallot::render {

class PaintedOverlay {
public:
    // Side of the square tiles that are uploaded and blended when they hold a pixel.
    static constexpr int kTilePixels = 64;

    // The image to paint into: `pixels` in size, for `ratio` device pixels per unit, clear.
    QImage& begin(const QSize& pixels, qreal ratio);
    // Uploads the painted tiles and blends them (premultiplied alpha) over the bound
    // framebuffer, whose size is the image's. Leaves blending and depth testing off.
    // Call with the view's context current.
    void draw(QOpenGLFunctions_3_3_Core& gl);
    // Deletes the texture and the blitter; call with the context current.
    void release(QOpenGLFunctions_3_3_Core& gl);
    // Tiles blended by the last draw (for tests).
    int tilesDrawn() const { return tilesDrawn_; }

private:
    struct Texture {
        unsigned id = 0;
        QImage uploaded; // what the texture holds where the image had paint when uploaded
    };
    // The runs of painted tiles along each row of tiles, in pixels, y down.
    void findRuns();
    // True when the texture's copy of `run` differs from the image (or it has none).
    bool changedSince(const Texture& texture, const QRect& run) const;
    // Brings the texture's runs up to date with the image (made at the image's size first).
    void upload(QOpenGLFunctions_3_3_Core& gl, Texture& texture);

    QImage image_;
    Texture textures_[2];
    int current_ = 0; // the texture the last frame blended
    QOpenGLTextureBlitter blitter_;
    int tilesDrawn_ = 0;
    std::vector<QRect> runs_;
};

} // namespace shallot::render

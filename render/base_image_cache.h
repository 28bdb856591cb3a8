#pragma once
// The picture of a view's base layers (background, grid, brushes, selection outlines:
// everything opaque that an overlay never changes), kept in a framebuffer with its depth.
// A frame whose base is unchanged (a compile result, a ray drag, a pose switch) copies it
// instead of drawing every brush again, then draws the overlays over it with depth testing
// against the brushes as before. On a large map under llvmpipe the brushes take 8-15 ms
// per view and frame; the copy takes about 1.
//
// Whether the picture is still right is decided by an exact key: the bytes of everything
// the base drawing depends on (camera matrix, size, colours, grid vertices, the uploaded
// layers' versions), assembled by the view. No hashing, so no false hit.
#include <QOpenGLFramebufferObject>
#include <QOpenGLShaderProgram>
#include <QOpenGLTextureBlitter>
#include <QOpenGLVertexArrayObject>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <memory>
#include <vector>

class QOpenGLFunctions_3_3_Core;

namespace shallot::render {

class BaseImageCache {
public:
    // Appends raw bytes of a value to a key.
    template <class T>
    static void append(std::vector<char>& key, const T& value) {
        const char* p = reinterpret_cast<const char*>(&value);
        key.insert(key.end(), p, p + sizeof(T));
    }
    // True when the stored picture was drawn for this key at this size.
    bool matches(const std::vector<char>& key, const QSize& size) const;
    // True when it was drawn at this size for a key that starts with `prefix` (the same
    // camera, whatever the layers were).
    bool drawnFor(const std::vector<char>& prefix, const QSize& size) const;
    // Binds the cache's framebuffer (made at `size` if needed) for drawing the base into;
    // the picture counts as drawn for `key` from now on.
    void beginDrawing(std::vector<char> key, const QSize& size);
    // A picture drawn in parts, while the stored one is still shown: beginPartial binds a
    // second framebuffer for `key` (made at `size` if needed), continuePartial binds it
    // again for the next part, finishPartial makes it the stored picture. partialKey is
    // empty when none is being drawn.
    void beginPartial(std::vector<char> key, const QSize& size);
    void continuePartial();
    void finishPartial();
    void dropPartial() { partialKey_.clear(); }
    // The stored picture moved by `offset` pixels (x right, y up: a 2D view panned) into the
    // second framebuffer, which is left bound for the caller to draw the uncovered strips;
    // finishPartial then makes it the stored picture, for `key`.
    void beginShifted(QOpenGLFunctions_3_3_Core& gl, std::vector<char> key, QPoint offset);
    // The key of the stored picture (empty when there is none).
    const std::vector<char>& key() const { return key_; }
    const std::vector<char>& partialKey() const { return partialKey_; }
    // Copies the picture's colour, and its depth when `withDepth`, over the whole of
    // framebuffer `target`, then leaves it bound with the viewport at the picture's size,
    // blending off and depth testing as `withDepth` (depth function LEQUAL). Drawn by a
    // shader, not blitted: under llvmpipe a framebuffer blit into a window is a flipped
    // copy, which its blitter does with shaders it compiles on first use in each context
    // (50-80 ms, once per view, while the level opens); this shader costs a few.
    void copyTo(QOpenGLFunctions_3_3_Core& gl, unsigned target, bool withDepth);
    // Stretches the picture's colour over `where` (pixels, y up; it may reach outside) of
    // framebuffer `target`, whose size is the picture's, filtered, then leaves it bound: a
    // preview of a zoomed 2D view. Drawn, not blitted, as copyTo.
    void stretchTo(QOpenGLFunctions_3_3_Core& gl, unsigned target, const QRect& where);
    // Forgets the picture; call with the context current.
    void release();

private:
    // A framebuffer whose colour and depth-stencil are textures (the copy reads both).
    struct Picture {
        std::unique_ptr<QOpenGLFramebufferObject> fbo; // its colour; the depth is attached
        unsigned depthStencil = 0;                      // texture, DEPTH24_STENCIL8
        QOpenGLFramebufferObject* operator->() const { return fbo.get(); }
        explicit operator bool() const { return bool(fbo); }
    };
    static void makeAtSize(Picture& picture, const QSize& size);
    static void freePicture(Picture& picture);

    Picture fbo_, partial_;
    std::unique_ptr<QOpenGLShaderProgram> copyPrograms_[2]; // colour alone (2D), with depth (3D)
    QOpenGLVertexArrayObject copyVertices_;             // none: the core profile wants one bound
    QOpenGLTextureBlitter stretcher_;                   // for stretchTo
    std::vector<char> key_, partialKey_;
};

} // namespace shallot::render

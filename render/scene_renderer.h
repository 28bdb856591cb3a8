#pragma once
// Draws a RenderScene in one OpenGL context (one per viewport): owns the shader program
// and the uploaded batches, re-uploading a layer only when its version changed.
#include "gpu_batch.h"
#include "render_scene.h"

#include <QMatrix4x4>
#include <QOpenGLShaderProgram>
#include <array>
#include <limits>
#include <memory>
#include <optional>

namespace shallot::render {

class SceneRenderer {
public:
    // Call once with the context current (QOpenGLWidget::initializeGL).
    bool initialize(QOpenGLFunctions_3_3_Core& gl);
    enum class UploadState {
        Unchanged, // every layer shown is the scene's
        Uploading, // what is shown is unchanged; call again for the rest
        Swapped,   // the changed layers are now shown (draw them)
    };
    // Uploads the layers that changed, a bounded number of vertices per call (so a huge
    // overlay never stalls the UI), into a second set. The changed layers replace the shown
    // ones together once all are complete: each frame of a view that keeps its overlays in
    // a picture (a 2D view of a large map: over 100 ms to draw) then redraws it once per
    // scene change, not once per layer.
    UploadState upload(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene);
    // Vertices one upload call takes at most (0: the default; tests make it small).
    void setUploadVerticesPerCall(size_t n) { uploadVerticesPerCall_ = n; }
    // Draws one group of the uploaded layers for a 3D or a 2D view (render_scene.h,
    // LayerGroup): the base, which a view may keep as a picture (base_image_cache.h), or the
    // rest, the base first. `eye` is the 3D camera position (for the overlays' range); chunks
    // outside the view volume are skipped, and in 3D the runs of leaves (or brushes) not
    // seen from the eye.
    // With `part`, only the chunk draws from part->next on are made, until part->vertexBudget
    // vertices are drawn; part->next and part->done say where it stopped. Calls with the same
    // scene, uploaded layers and camera go on where the last one stopped (a 2D view's
    // picture drawn over several passes of the event loop).
    // With `cullMvp`, chunks are skipped when they lie outside its view volume instead of
    // mvp's (a strip of the view drawn with the view's own matrix, under a scissor).
    struct Part {
        size_t next = 0;
        size_t vertexBudget = 0;
        bool done = false;
    };
    void drawLayers(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene, const QMatrix4x4& mvp, bool view3d,
                    const Vec3& eye, LayerGroup group, Part* part = nullptr, const QMatrix4x4* cullMvp = nullptr);
    // The version of a layer as uploaded and drawn (it lags the scene's while uploading).
    uint64_t shownVersion(Layer l) const { return shown_[size_t(l)].version; }
    // Whether this view draws the layer: shown, and meant for this kind of view (a 2D view
    // draws no 3D-only overlay, nor another axis's section). Only those are uploaded.
    bool draws(const SceneLayer& layer) const { return layer.visible && layer.drawnIn(looksAlong_); }
    // Whether every layer this view draws is shown at the scene's version.
    bool showsCurrent(const RenderScene& scene) const;
    // A digest of what this view draws of the scene (the versions and looks of the layers it
    // draws): equal digests, equal pixels.
    uint64_t drawnDigest(const RenderScene& scene) const;
    // Where the shown version of a layer differs from its version `version`, as the scene
    // said when it was uploaded (SceneLayer::recent); nothing when that is not known.
    std::optional<std::vector<Aabb>> shownChangesSince(Layer l, uint64_t version) const;
    // Chunk uploads a new version of a layer took over from the version shown (the same
    // vertices: SceneLayer::changes), for tests and benchmarks.
    quint64 chunksKept() const { return chunksKept_; }
    // A 2D view looking along world axis `axis` (-1: a 3D view): it uploads what draws its
    // pixels (batchForAxisView). Changing it uploads every layer again.
    void setViewAxis(int axis);
    // The axis a 2D view looks along, whatever setViewAxis says: it draws the layers meant
    // for that view alone (SceneLayer::onlyAxis).
    void setLooksAlong(int axis) { looksAlong_ = axis; }
    // Uploads every layer again; what is shown stays until then (tests compare the chunks
    // a new version kept with a fresh upload).
    void uploadAgain();
    // Off: drawLayers draws the leaf runs of every leaf (on by default).
    void setLeafCulling(bool on) { leafCulling_ = on; }
    // With `cullMvp` (a 2D view's rectangle), the pieces of a batch uploaded with pieces
    // that lie entirely outside its clip volume are left out.
    void drawBatch(QOpenGLFunctions_3_3_Core& gl, GpuBatch& batch, const QMatrix4x4& mvp,
                   const std::vector<bool>* seenLeaves = nullptr, const QMatrix4x4* cullMvp = nullptr);
    void release();

private:
    void useProgram(const QMatrix4x4& mvp, const GpuBatch& batch);

    // Batches with an outline (3D brush faces) and the rest: two programs, so that the rest
    // pay nothing for the outline (scene.frag).
    struct Program {
        std::unique_ptr<QOpenGLShaderProgram> shader;
        int mvp = -1, lit = -1, outline = -1, brightness = -1;
        bool build(const QString& fragmentShader);
    };
    Program outlined_, plain_;
    float brightness_ = 1.0f; // of the layer being drawn (SceneLayer::brightness2d)
    bool leafCulling_ = true;
    int viewAxis_ = -1;
    int looksAlong_ = -1;
    size_t uploadVerticesPerCall_ = 0;
    quint64 chunksKept_ = 0;
    struct UploadedLayer {
        // Shared: a chunk alike in the next version is taken over by it (upload()).
        std::vector<std::shared_ptr<GpuBatch>> batches;
        std::vector<Aabb> bounds;
        std::shared_ptr<const LeafVisibility> visibility; // of the uploaded chunks
        uint64_t version = 0;
        std::vector<LayerChange> recent;
        void destroy();
    };
    std::array<UploadedLayer, kLayerCount> shown_, pending_;
    // What the portal searches gave for the last view (camera matrix and eye), per tree and
    // per brush sight; weak, so a tree replaced since never matches.
    struct SeenFromView {
        QMatrix4x4 mvp;
        Vec3 eye = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
        std::vector<std::pair<std::weak_ptr<const LeafVisibility>, std::vector<bool>>> leaves;
        std::vector<std::pair<std::weak_ptr<const LeafBrushes>, std::vector<bool>>> brushes;
    };
    SeenFromView seen_;
};

} // namespace shallot::render

#pragma once
// A MeshBatch uploaded to one OpenGL context (vertex array + buffer).
#include "batch_pieces.h"
#include "mesh_batch.h"

#include <QOpenGLBuffer>
#include <QOpenGLVertexArrayObject>
#include <memory>

class QOpenGLFunctions_3_3_Core;

namespace shallot::render {

class GpuBatch {
public:
    // Replaces the contents; call with the owning context current.
    void upload(QOpenGLFunctions_3_3_Core& gl, const MeshBatch& batch) { upload(gl, batch, batch.leafRuns); }
    // The same with other leaf runs over the batch's vertices (a MeshChunk's); with
    // `pieces`, the batch keeps its BatchPieces for rangesInside.
    void upload(QOpenGLFunctions_3_3_Core& gl, const MeshBatch& batch, std::vector<LeafRun> runs, bool pieces = false);
    // A batch drawing this one's vertices with other leaf runs (the same vertices after an
    // update renumbered the leaves): it shares the buffer instead of uploading it again.
    std::shared_ptr<GpuBatch> withRuns(std::vector<LeafRun> runs) const;
    // The vertex ranges to draw: every vertex, or with `seenLeaves` only the leaf runs of
    // seen leaves (and those of no leaf, or of a leaf past its end), adjacent runs joined.
    // Empty when there is nothing to draw.
    using Ranges = VertexRanges;
    Ranges ranges(const std::vector<bool>* seenLeaves) const;
    bool hasPieces() const { return !pieces_.empty(); }
    // The vertices of the pieces for which `outside(bounds)` is false (BatchPieces::inside).
    template <class Outside>
    Ranges rangesInside(const Outside& outside) const { return pieces_.inside(outside); }
    void draw(QOpenGLFunctions_3_3_Core& gl, const Ranges& ranges) const;
    void draw(QOpenGLFunctions_3_3_Core& gl) const { draw(gl, ranges(nullptr)); }
    bool empty() const { return count_ == 0; }
    int vertexCount() const { return count_; }
    bool lit() const { return lit_; }
    bool lines() const { return primitive_ == Primitive::Lines; }
    const QColor& outline() const { return outline_; }
    // Frees the buffer unless a batch made by withRuns still draws it; call with the
    // owning context current.
    void destroy();

private:
    struct Buffers {
        QOpenGLVertexArrayObject vao;
        QOpenGLBuffer vbo{QOpenGLBuffer::VertexBuffer};
    };
    std::shared_ptr<Buffers> buffers_;
    int count_ = 0;
    Primitive primitive_ = Primitive::Triangles;
    bool lit_ = true;
    QColor outline_;
    std::vector<LeafRun> runs_;
    BatchPieces pieces_;
};

} // namespace shallot::render

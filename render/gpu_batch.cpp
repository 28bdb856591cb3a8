#include "gpu_batch.h"

#include <QOpenGLFunctions_3_3_Core>
#include <cstddef>

namespace shallot::render {

void GpuBatch::upload(QOpenGLFunctions_3_3_Core& gl, const MeshBatch& batch) {
    if (!vao_.isCreated()) vao_.create();
    if (!vbo_.isCreated()) vbo_.create();
    vao_.bind();
    vbo_.bind();
    vbo_.setUsagePattern(QOpenGLBuffer::DynamicDraw);
    vbo_.allocate(batch.vertices.data(), int(batch.vertices.size() * sizeof(Vertex)));
    gl.glEnableVertexAttribArray(0);
    gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, position)));
    gl.glEnableVertexAttribArray(1);
    gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, normal)));
    gl.glEnableVertexAttribArray(2);
    gl.glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, colour)));
    gl.glEnableVertexAttribArray(3);
    gl.glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, edge)));
    vao_.release();
    vbo_.release();
    count_ = int(batch.vertices.size());
    primitive_ = batch.primitive;
    lit_ = batch.lit;
    outline_ = batch.outline;
    runs_ = batch.leafRuns;
}

void GpuBatch::draw(QOpenGLFunctions_3_3_Core& gl, const std::vector<bool>* seenLeaves) const {
    if (count_ == 0) return;
    QOpenGLVertexArrayObject::Binder bind(const_cast<QOpenGLVertexArrayObject*>(&vao_));
    const GLenum mode = primitive_ == Primitive::Lines ? GL_LINES : GL_TRIANGLES;
    if (!seenLeaves || runs_.empty()) {
        gl.glDrawArrays(mode, 0, count_);
        return;
    }
    // One range per stretch of consecutive drawn runs, all in one call.
    std::vector<GLint> firsts;
    std::vector<GLsizei> counts;
    if (runs_.front().first > 0) {
        firsts.push_back(0);
        counts.push_back(GLsizei(runs_.front().first));
    }
    for (size_t r = 0; r < runs_.size(); ++r) {
        const int32_t leaf = runs_[r].leaf;
        if (leaf >= 0 && size_t(leaf) < seenLeaves->size() && !(*seenLeaves)[size_t(leaf)]) continue;
        const GLint first = GLint(runs_[r].first);
        const GLint end = r + 1 < runs_.size() ? GLint(runs_[r + 1].first) : count_;
        if (!firsts.empty() && firsts.back() + counts.back() == first) {
            counts.back() += end - first;
        } else {
            firsts.push_back(first);
            counts.push_back(end - first);
        }
    }
    if (!firsts.empty()) gl.glMultiDrawArrays(mode, firsts.data(), counts.data(), GLsizei(firsts.size()));
}

void GpuBatch::destroy() {
    vbo_.destroy();
    vao_.destroy();
    count_ = 0;
}

} // namespace shallot::render

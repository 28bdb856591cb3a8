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
}

void GpuBatch::draw(QOpenGLFunctions_3_3_Core& gl) const {
    if (count_ == 0) return;
    QOpenGLVertexArrayObject::Binder bind(const_cast<QOpenGLVertexArrayObject*>(&vao_));
    gl.glDrawArrays(primitive_ == Primitive::Lines ? GL_LINES : GL_TRIANGLES, 0, count_);
}

void GpuBatch::destroy() {
    vbo_.destroy();
    vao_.destroy();
    count_ = 0;
}

} // namespace shallot::render

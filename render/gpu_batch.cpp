#include "gpu_batch.h"

#include <QOpenGLFunctions_3_3_Core>
#include <cstddef>

namespace shallot::render {

void GpuBatch::upload(QOpenGLFunctions_3_3_Core& gl, const MeshBatch& batch, std::vector<LeafRun> runs, bool pieces) {
    if (!buffers_ || buffers_.use_count() > 1) buffers_ = std::make_shared<Buffers>(); // others draw the old one
    QOpenGLVertexArrayObject& vao = buffers_->vao;
    QOpenGLBuffer& vbo = buffers_->vbo;
    if (!vao.isCreated()) vao.create();
    if (!vbo.isCreated()) vbo.create();
    vao.bind();
    vbo.bind();
    vbo.setUsagePattern(QOpenGLBuffer::DynamicDraw);
    vbo.allocate(batch.vertices.data(), int(batch.vertices.size() * sizeof(Vertex)));
    gl.glEnableVertexAttribArray(0);
    gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, position)));
    gl.glEnableVertexAttribArray(1);
    gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, normal)));
    gl.glEnableVertexAttribArray(2);
    gl.glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, colour)));
    gl.glEnableVertexAttribArray(3);
    gl.glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, edge)));
    vao.release();
    vbo.release();
    count_ = int(batch.vertices.size());
    primitive_ = batch.primitive;
    lit_ = batch.lit;
    outline_ = batch.outline;
    runs_ = std::move(runs);
    pieces_ = pieces ? BatchPieces(batch) : BatchPieces();
}

std::shared_ptr<GpuBatch> GpuBatch::withRuns(std::vector<LeafRun> runs) const {
    auto out = std::make_shared<GpuBatch>(*this);
    out->runs_ = std::move(runs);
    return out;
}

GpuBatch::Ranges GpuBatch::ranges(const std::vector<bool>* seenLeaves) const {
    Ranges out;
    if (count_ == 0) return out;
    if (!seenLeaves || runs_.empty()) {
        out.firsts.push_back(0);
        out.counts.push_back(count_);
        return out;
    }
    auto add = [&](int first, int end) { out.add(first, end); };
    if (runs_.front().first > 0) add(0, int(runs_.front().first));
    for (size_t r = 0; r < runs_.size(); ++r) {
        const int32_t leaf = runs_[r].leaf;
        if (leaf >= 0 && size_t(leaf) < seenLeaves->size() && !(*seenLeaves)[size_t(leaf)]) continue;
        add(int(runs_[r].first), r + 1 < runs_.size() ? int(runs_[r + 1].first) : count_);
    }
    return out;
}

void GpuBatch::draw(QOpenGLFunctions_3_3_Core& gl, const Ranges& ranges) const {
    if (ranges.firsts.empty()) return;
    QOpenGLVertexArrayObject::Binder bind(&buffers_->vao);
    const GLenum mode = primitive_ == Primitive::Lines ? GL_LINES : GL_TRIANGLES;
    if (ranges.firsts.size() == 1) gl.glDrawArrays(mode, ranges.firsts[0], ranges.counts[0]);
    else gl.glMultiDrawArrays(mode, ranges.firsts.data(), ranges.counts.data(), GLsizei(ranges.firsts.size()));
}

void GpuBatch::destroy() {
    if (buffers_ && buffers_.use_count() == 1) {
        buffers_->vbo.destroy();
        buffers_->vao.destroy();
    }
    buffers_.reset();
    count_ = 0;
}

} // namespace shallot::render

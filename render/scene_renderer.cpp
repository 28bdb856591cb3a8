#include "scene_renderer.h"

#include <QOpenGLFunctions_3_3_Core>

namespace shallot::render {

bool SceneRenderer::initialize(QOpenGLFunctions_3_3_Core&) {
    program_ = std::make_unique<QOpenGLShaderProgram>();
    const bool ok = program_->addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/scene.vert") &&
                    program_->addShaderFromSourceFile(QOpenGLShader::Fragment, ":/shaders/scene.frag") &&
                    program_->link();
    if (!ok) qWarning("shallot: shader build failed: %s", qPrintable(program_->log()));
    return ok;
}

void SceneRenderer::useProgram(const QMatrix4x4& mvp, bool lit) {
    program_->bind();
    program_->setUniformValue("mvp", mvp);
    program_->setUniformValue("lit", lit);
}

void SceneRenderer::drawBatch(QOpenGLFunctions_3_3_Core& gl, GpuBatch& batch, const QMatrix4x4& mvp) {
    if (batch.empty()) return;
    useProgram(mvp, batch.lit());
    batch.draw(gl);
}

namespace {

// True when the box is entirely outside one of the clip volume's planes.
bool outsideView(const QMatrix4x4& mvp, const Aabb& box) {
    int outside[6] = {};
    for (int c = 0; c < 8; ++c) {
        const QVector4D p = mvp.map(QVector4D(float((c & 1) ? box.maxs.x() : box.mins.x()),
                                              float((c & 2) ? box.maxs.y() : box.mins.y()),
                                              float((c & 4) ? box.maxs.z() : box.mins.z()), 1.0f));
        outside[0] += p.x() < -p.w();
        outside[1] += p.x() > p.w();
        outside[2] += p.y() < -p.w();
        outside[3] += p.y() > p.w();
        outside[4] += p.z() < -p.w();
        outside[5] += p.z() > p.w();
    }
    for (int k = 0; k < 6; ++k)
        if (outside[k] == 8) return true;
    return false;
}

double distanceTo(const Aabb& box, const Vec3& p) {
    return (p.cwiseMax(box.mins).cwiseMin(box.maxs) - p).norm();
}

} // namespace

void SceneRenderer::draw(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene, const QMatrix4x4& mvp, bool view3d,
                         const Vec3& eye) {
    for (size_t i = 0; i < kLayerCount; ++i) {
        const SceneLayer& layer = scene.layer(Layer(i));
        if (uploaded_[i] == layer.version) continue;
        std::vector<std::unique_ptr<GpuBatch>>& gpu = batches_[i];
        while (gpu.size() > layer.chunks.size()) {
            gpu.back()->destroy();
            gpu.pop_back();
        }
        while (gpu.size() < layer.chunks.size()) gpu.push_back(std::make_unique<GpuBatch>());
        bounds_[i].clear();
        for (size_t c = 0; c < layer.chunks.size(); ++c) {
            gpu[c]->upload(gl, layer.chunks[c].batch);
            bounds_[i].push_back(layer.chunks[c].bounds);
        }
        uploaded_[i] = layer.version;
    }
    // Opaque layers with depth, then translucent ones blended without depth writes.
    for (bool translucentPass : {false, true}) {
        if (translucentPass) {
            gl.glEnable(GL_BLEND);
            // Keep the framebuffer's alpha at 1: Qt composes the widget with it.
            gl.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
            gl.glDepthMask(GL_FALSE);
        }
        for (size_t i = 0; i < kLayerCount; ++i) {
            const SceneLayer& layer = scene.layer(Layer(i));
            if (!layer.visible || layer.translucent != translucentPass || !(view3d ? layer.in3d : layer.in2d)) continue;
            for (size_t c = 0; c < batches_[i].size(); ++c) {
                const Aabb& box = bounds_[i][c];
                if (view3d && layer.range3d > 0 && distanceTo(box, eye) > layer.range3d) continue;
                if (outsideView(mvp, box)) continue;
                drawBatch(gl, *batches_[i][c], mvp);
            }
        }
        if (translucentPass) {
            gl.glDepthMask(GL_TRUE);
            gl.glDisable(GL_BLEND);
        }
    }
    program_->release();
}

void SceneRenderer::release() {
    for (auto& layer : batches_)
        for (auto& b : layer) b->destroy();
    uploaded_.fill(0);
    program_.reset();
}

} // namespace shallot::render

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

void SceneRenderer::draw(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene, const QMatrix4x4& mvp, bool view3d) {
    for (size_t i = 0; i < kLayerCount; ++i) {
        const SceneLayer& layer = scene.layer(Layer(i));
        if (uploaded_[i] != layer.version) {
            batches_[i].upload(gl, layer.batch);
            uploaded_[i] = layer.version;
        }
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
            drawBatch(gl, batches_[i], mvp);
        }
        if (translucentPass) {
            gl.glDepthMask(GL_TRUE);
            gl.glDisable(GL_BLEND);
        }
    }
    program_->release();
}

void SceneRenderer::release() {
    for (GpuBatch& b : batches_) b.destroy();
    uploaded_.fill(0);
    program_.reset();
}

} // namespace shallot::render

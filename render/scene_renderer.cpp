#include "scene_renderer.h"

#include "axis_view_batch.h"

#include <QOpenGLFunctions_3_3_Core>
#include <algorithm>
#include <cstring>
#include <vector>

namespace shallot::render {

bool SceneRenderer::Program::build(const QString& fragmentShader) {
    shader = std::make_unique<QOpenGLShaderProgram>();
    const bool ok = shader->addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/scene.vert") &&
                    shader->addShaderFromSourceFile(QOpenGLShader::Fragment, fragmentShader) && shader->link();
    if (!ok) qWarning("shallot: shader build failed (%s): %s", qPrintable(fragmentShader), qPrintable(shader->log()));
    mvp = shader->uniformLocation("mvp");
    lit = shader->uniformLocation("lit");
    brightness = shader->uniformLocation("brightness");
    outline = shader->uniformLocation("outline");
    return ok;
}

bool SceneRenderer::initialize(QOpenGLFunctions_3_3_Core&) {
    const bool plain = plain_.build(":/shaders/scene.frag");
    return outlined_.build(":/shaders/outlined.frag") && plain;
}

void SceneRenderer::useProgram(const QMatrix4x4& mvp, const GpuBatch& batch) {
    const QColor& o = batch.outline();
    const bool outlined = o.isValid() && o.alpha() > 0;
    Program& p = outlined ? outlined_ : plain_;
    p.shader->bind();
    p.shader->setUniformValue(p.mvp, mvp);
    p.shader->setUniformValue(p.lit, batch.lit());
    p.shader->setUniformValue(p.brightness, brightness_);
    if (outlined) p.shader->setUniformValue(p.outline, QVector4D(o.redF(), o.greenF(), o.blueF(), o.alphaF()));
}

namespace {

// Vertices uploaded per draw call at most (about 8 MB): large overlays arrive over a few
// frames instead of stalling one.
constexpr size_t kUploadVerticesPerDraw = 300000;

// In 3D, lines are drawn this much nearer the eye (in normalised device depth, -1 to 1):
// a polygon offset moves only filled polygons, and lines on the very faces they outline
// (the expanded world of the point pose lies on the walls) would show dashed.
constexpr float kLineDepthBias = 2e-5f;

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

void SceneRenderer::drawBatch(QOpenGLFunctions_3_3_Core& gl, GpuBatch& batch, const QMatrix4x4& mvp,
                              const std::vector<bool>* seenLeaves, const QMatrix4x4* cullMvp) {
    // A chunk with nothing seen costs no draw call (llvmpipe's are not cheap).
    const GpuBatch::Ranges ranges = cullMvp && batch.hasPieces()
                                        ? batch.rangesInside([&](const Aabb& box) { return outsideView(*cullMvp, box); })
                                        : batch.ranges(seenLeaves);
    if (ranges.firsts.empty()) return;
    useProgram(mvp, batch);
    batch.draw(gl, ranges);
}

void SceneRenderer::UploadedLayer::destroy() {
    for (auto& b : batches)
        if (b.use_count() == 1) b->destroy(); // else the other set of layers draws it still
    batches.clear();
    bounds.clear();
    visibility = nullptr;
    version = 0;
    recent.clear();
}

std::optional<std::vector<Aabb>> SceneRenderer::shownChangesSince(Layer l, uint64_t version) const {
    const UploadedLayer& shown = shown_[size_t(l)];
    std::vector<Aabb> boxes;
    uint64_t at = shown.version;
    for (auto change = shown.recent.rbegin(); change != shown.recent.rend() && change->to == at; ++change) {
        boxes.insert(boxes.end(), change->boxes.begin(), change->boxes.end());
        at = change->from;
        if (at == version) return boxes;
    }
    return std::nullopt;
}

void SceneRenderer::setViewAxis(int axis) {
    if (axis == viewAxis_) return;
    viewAxis_ = axis;
    uploadAgain();
}

void SceneRenderer::uploadAgain() {
    // What is shown stays until its replacement is uploaded (upload() drops the pending
    // parts, with the context current). No scene version is all ones.
    for (size_t i = 0; i < kLayerCount; ++i) shown_[i].version = pending_[i].version = ~uint64_t(0);
}

SceneRenderer::UploadState SceneRenderer::upload(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene) {
    size_t budget = uploadVerticesPerCall_ ? uploadVerticesPerCall_ : kUploadVerticesPerDraw;
    bool complete = true;
    bool changed = false;
    for (size_t i = 0; i < kLayerCount; ++i) {
        const SceneLayer& layer = scene.layer(Layer(i));
        if (!draws(layer)) {
            // Not drawn here: uploaded when it is (a 2D view uploaded every cell, portal and
            // union chunk of each edit's overlays, which only the 3D view draws).
            if (shown_[i].version != 0) shown_[i].destroy();
            if (pending_[i].version != 0) pending_[i].destroy();
            continue;
        }
        if (shown_[i].version == layer.version) continue;
        changed = true;
        UploadedLayer& pending = pending_[i];
        if (pending.version != layer.version) {
            pending.destroy();
            pending.version = layer.version;
            pending.visibility = layer.visibility;
            pending.recent = layer.recent;
        }
        // Chunks with the same vertices as one of the shown version it changed from are
        // taken over (in a 2D view, whose batches have no leaf runs, or with the same runs).
        const std::vector<MeshChunk>& chunks = layer.chunkList();
        const bool fromShown = layer.changedFrom() != 0 && layer.changedFrom() == shown_[i].version &&
                               layer.changes.keptFrom.size() == chunks.size();
        while (pending.batches.size() < chunks.size() && budget > 0) {
            const size_t k = pending.batches.size();
            const MeshChunk& chunk = chunks[k];
            const int32_t kept = fromShown ? layer.changes.keptFrom[k] : -1;
            if (kept >= 0 && size_t(kept) < shown_[i].batches.size()) {
                // The same vertices: the same batch, or in 3D with the chunk's leaf runs.
                const std::shared_ptr<GpuBatch>& shownBatch = shown_[i].batches[size_t(kept)];
                const bool sameBatch = viewAxis_ >= 0 || layer.changes.sameRuns[k];
                pending.batches.push_back(sameBatch ? shownBatch : shownBatch->withRuns(chunk.leafRuns));
                pending.bounds.push_back(chunk.bounds);
                ++chunksKept_;
                continue;
            }
            pending.batches.push_back(std::make_shared<GpuBatch>());
            if (viewAxis_ >= 0) pending.batches.back()->upload(gl, batchForAxisView(*chunk.geometry, viewAxis_, !layer.translucent), {}, true);
            else pending.batches.back()->upload(gl, *chunk.geometry, chunk.leafRuns);
            pending.bounds.push_back(chunk.bounds);
            budget -= std::min(budget, chunk.vertexCount());
        }
        complete = complete && pending.batches.size() == chunks.size();
    }
    if (!changed) return UploadState::Unchanged;
    if (!complete) return UploadState::Uploading;
    for (size_t i = 0; i < kLayerCount; ++i) {
        if (!draws(scene.layer(Layer(i))) || shown_[i].version == scene.layer(Layer(i)).version) continue;
        std::swap(shown_[i], pending_[i]);
        pending_[i].destroy();
    }
    return UploadState::Swapped;
}

bool SceneRenderer::showsCurrent(const RenderScene& scene) const {
    for (size_t i = 0; i < kLayerCount; ++i)
        if (draws(scene.layer(Layer(i))) && shown_[i].version != scene.layer(Layer(i)).version) return false;
    return true;
}

uint64_t SceneRenderer::drawnDigest(const RenderScene& scene) const {
    uint64_t digest = 1469598103934665603ull; // FNV-1a over the drawn layers' states
    auto add = [&](uint64_t v) { digest = (digest ^ v) * 1099511628211ull; };
    for (size_t i = 0; i < kLayerCount; ++i) {
        const SceneLayer& layer = scene.layer(Layer(i));
        if (!draws(layer)) continue;
        add(i);
        add(layer.version);
        uint32_t brightness = 0;
        std::memcpy(&brightness, &layer.brightness2d, sizeof brightness);
        add(brightness);
    }
    return digest;
}

void SceneRenderer::drawLayers(QOpenGLFunctions_3_3_Core& gl, const RenderScene& scene, const QMatrix4x4& mvp, bool view3d,
                               const Vec3& eye, LayerGroup group, Part* part, const QMatrix4x4* cullMvp) {
    size_t step = 0, drawnVertices = 0; // chunk draws met, vertices drawn by this call
    // The leaves seen from the eye, once per tree the layers name (usually one), and once per
    // view: a frame's base and the rest are drawn by two calls.
    if (seen_.mvp != mvp || seen_.eye != eye) seen_ = SeenFromView{mvp, eye, {}, {}};
    auto seenLeaves = [&](const std::shared_ptr<const LeafVisibility>& v) -> const std::vector<bool>* {
        if (!view3d || !leafCulling_ || !v || !v->usable()) return nullptr;
        auto it = std::find_if(seen_.leaves.begin(), seen_.leaves.end(), [&](const auto& s) { return s.first.lock() == v; });
        if (it == seen_.leaves.end()) {
            const Eigen::Matrix4d clip = Eigen::Map<const Eigen::Matrix4f>(mvp.constData()).cast<double>();
            it = seen_.leaves.insert(seen_.leaves.end(), {v, v->seenFrom(eye, clip)});
        }
        return it->second.empty() ? nullptr : &it->second;
    };
    // The brushes near the seen leaves, for a layer whose runs name brushes.
    auto seenBrushes = [&](const SceneLayer& layer, const UploadedLayer& uploaded) -> const std::vector<bool>* {
        if (layer.sightVersion != uploaded.version) return nullptr; // drawn whole until a compile of these brushes
        const std::vector<bool>* leaves = seenLeaves(layer.visibility);
        if (!leaves) return nullptr;
        auto& list = seen_.brushes;
        auto it = std::find_if(list.begin(), list.end(), [&](const auto& s) { return s.first.lock() == layer.brushes; });
        if (it == list.end()) it = list.insert(list.end(), {layer.brushes, layer.brushes->seenBrushes(*leaves)});
        return &it->second;
    };
    // Opaque layers with depth, then translucent ones blended without depth writes.
    for (bool translucentPass : {false, true}) {
        if (translucentPass) {
            gl.glEnable(GL_BLEND);
            // Keep the framebuffer's alpha at 1: Qt composes the widget with it.
            gl.glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
            gl.glDepthMask(GL_FALSE);
            // Overlays lie on the world's faces (a cell face on a wall, the selection tint on
            // its brush): pulled towards the eye they show whole instead of in stripes where
            // the two triangulations round differently.
            gl.glEnable(GL_POLYGON_OFFSET_FILL);
            gl.glPolygonOffset(-1.0f, -2.0f);
        }
        for (size_t i = 0; i < kLayerCount; ++i) {
            const SceneLayer& layer = scene.layer(Layer(i));
            if (!layer.visible || layer.translucent != translucentPass || !layer.drawnIn(view3d ? -1 : looksAlong_)) continue;
            if (!inGroup(Layer(i), layer.translucent, group, view3d)) continue;
            const UploadedLayer& uploaded = shown_[i];
            if (view3d && layer.cullBackFaces) gl.glEnable(GL_CULL_FACE);
            else gl.glDisable(GL_CULL_FACE);
            const std::vector<bool>* leaves = layer.brushes ? seenBrushes(layer, uploaded) : seenLeaves(uploaded.visibility);
            QMatrix4x4 linesMvp;  // z' = z - bias w: the depth in NDC less the bias
            linesMvp(2, 3) = view3d ? -kLineDepthBias : 0.0f;
            linesMvp *= mvp;
            std::vector<std::pair<double, size_t>> inView; // (distance from the eye, chunk)
            for (size_t c = 0; c < uploaded.batches.size(); ++c) {
                const Aabb& box = uploaded.bounds[c];
                const double distance = view3d ? distanceTo(box, eye) : 0.0;
                if (layer.range3d > 0 && distance > layer.range3d) continue;
                if (outsideView(cullMvp ? *cullMvp : mvp, box)) continue;
                inView.emplace_back(distance, c);
            }
            // Opaque chunks near to far: what a near chunk hides then fails the depth test
            // before it is shaded, which llvmpipe's early depth test makes cheap.
            if (!layer.translucent) std::sort(inView.begin(), inView.end());
            for (const auto& [distance, c] : inView) {
                const size_t thisStep = step++;
                if (part && (thisStep < part->next || drawnVertices >= part->vertexBudget)) continue;
                GpuBatch& batch = *uploaded.batches[c];
                brightness_ = view3d ? 1.0f : layer.brightness2d;
                drawBatch(gl, batch, batch.lines() ? linesMvp : mvp, leaves, cullMvp);
                brightness_ = 1.0f;
                drawnVertices += size_t(batch.vertexCount());
                if (part) part->next = thisStep + 1;
            }
        }
        if (translucentPass) {
            gl.glDepthMask(GL_TRUE);
            gl.glDisable(GL_BLEND);
            gl.glDisable(GL_POLYGON_OFFSET_FILL);
        }
    }
    gl.glDisable(GL_CULL_FACE);
    gl.glUseProgram(0);
    if (part) part->done = part->next >= step;
}

void SceneRenderer::release() {
    for (UploadedLayer& l : shown_) l.destroy();
    for (UploadedLayer& l : pending_) l.destroy();
    outlined_.shader.reset();
    plain_.shader.reset();
}

} // namespace shallot::render

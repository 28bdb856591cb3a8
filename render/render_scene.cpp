#include "render_scene.h"

#include <algorithm>

namespace shallot::render {

RenderScene::RenderScene() {
    layers_[size_t(Layer::BrushFaces)].in2d = false;
    layers_[size_t(Layer::BrushFaces)].cullBackFaces = true;
    layers_[size_t(Layer::LitFaces)].in2d = false;
    layers_[size_t(Layer::LitFaces)].cullBackFaces = true;
    // The 3D view draws outlines with the faces (scene.frag): no lines there.
    layers_[size_t(Layer::BrushEdges)].in3d = false;
    layers_[size_t(Layer::SelectedEdges)].in3d = false;
    layers_[size_t(Layer::SelectedFaces)].in2d = false;
    layers_[size_t(Layer::SelectedFaces)].translucent = true;
    layers_[size_t(Layer::EntityFaces)].in2d = false;
    layers_[size_t(Layer::EntityFaces)].cullBackFaces = true;
    // See-through: a camera at a player start stands inside its box, and entities should
    // not hide the brushes and overlays behind them.
    layers_[size_t(Layer::EntityFaces)].translucent = true;
    layers_[size_t(Layer::EntityEdges)].in3d = false;
    layers_[size_t(Layer::LeafCells)].translucent = true;
    layers_[size_t(Layer::Reach)].translucent = true;
    layers_[size_t(Layer::Visible)].translucent = true;
    layers_[size_t(Layer::ViewWeight)].translucent = true;
    layers_[size_t(Layer::Walkable)].translucent = true;
    layers_[size_t(Layer::TooDark)].translucent = true;
    layers_[size_t(Layer::TooDark)].visible = false;
    layers_[size_t(Layer::Quake3Refusals)].visible = false;
    layers_[size_t(Layer::MoverVolumes)].translucent = true;
    // A round pose's expanded world is closed surfaces (round_surface_batch.h); a box
    // pose's is lines, which culling leaves alone.
    layers_[size_t(Layer::UnionWire)].cullBackFaces = true;
    layers_[size_t(Layer::MoverSwept)].translucent = true;
    layers_[size_t(Layer::Agents)].translucent = true;
    // Step and drop arrows seen from the side are a forest of vertical lines: 3D only.
    layers_[size_t(Layer::WalkableLinks)].in2d = false;
    for (Layer l : {Layer::LeafCells, Layer::Portals, Layer::UnionWire, Layer::Reach, Layer::Visible, Layer::ViewWeight,
                    Layer::Walkable, Layer::WalkableLinks, Layer::WalkableTravel})
        layers_[size_t(l)].range3d = kOverlayRange3d;
    for (int axis = 0; axis < 3; ++axis) {
        for (Layer l : {sectionFills(axis), sectionLines(axis)}) {
            layers_[size_t(l)].in3d = false;
            layers_[size_t(l)].onlyAxis = axis;
        }
        layers_[size_t(sectionFills(axis))].translucent = true;
    }
}

void RenderScene::set(Layer l, MeshBatch batch) {
    const SceneLayer& layer = layers_[size_t(l)];
    auto chunks = std::make_shared<const std::vector<MeshChunk>>(splitIntoChunks(std::move(batch)));
    ChunkChanges changes = chunkChanges(layer.chunkList(), *chunks);
    // The same drawing again (sections, walkable meshes, problems redone after an edit
    // elsewhere): the layer keeps its version, so no view uploads it or redraws a picture.
    const bool same = changes.boxes.empty() && chunks->size() == layer.chunkList().size() &&
                      std::all_of(changes.sameRuns.begin(), changes.sameRuns.end(), [](bool b) { return b; });
    if (same && !layer.visibility && !layer.brushes) return;
    setChunks(l, std::move(chunks), nullptr, layer.chunks.get(), std::move(changes));
}

void RenderScene::setChunks(Layer l, ChunkList chunks, std::shared_ptr<const LeafVisibility> visibility,
                            const std::vector<MeshChunk>* changedFrom, ChunkChanges changes) {
    SceneLayer& layer = layers_[size_t(l)];
    const bool known = changedFrom && changedFrom == layer.chunks.get();
    layer.changes = known ? std::move(changes) : ChunkChanges{};
    const uint64_t version = revision_ + 1;
    if (!known) layer.recent.clear();
    else layer.recent.push_back({layer.version, version, layer.changes.boxes});
    if (layer.recent.size() > kRememberedChanges) layer.recent.erase(layer.recent.begin());
    layer.chunks = std::move(chunks);
    layer.visibility = std::move(visibility);
    layer.brushes = nullptr;
    layer.version = ++revision_;
}

void RenderScene::setBrushSight(Layer l, std::shared_ptr<const LeafVisibility> visibility, std::shared_ptr<const LeafBrushes> brushes) {
    SceneLayer& layer = layers_[size_t(l)];
    layer.visibility = std::move(visibility);
    layer.brushes = std::move(brushes);
    layer.sightVersion = layer.version;
}

void RenderScene::setVisible(Layer l, bool visible) {
    layers_[size_t(l)].visible = visible;
    ++revision_;
}

void RenderScene::setBrightness2d(Layer l, float brightness) {
    if (layers_[size_t(l)].brightness2d == brightness) return;
    layers_[size_t(l)].brightness2d = brightness;
    ++revision_;
}

void RenderScene::setIn2d(Layer l, bool in2d) {
    if (layers_[size_t(l)].in2d == in2d) return;
    layers_[size_t(l)].in2d = in2d;
    ++revision_;
}

} // namespace shallot::render

#include "document/editor_document.h"

#include <algorithm>

namespace shallot {

EditorDocument::EditorDocument(QObject* parent) : QObject(parent) {}

void EditorDocument::reset(DocumentData data, const QString& filePath, bool compiled) {
    data_ = std::move(data);
    selection_.clear();
    entitySelection_.clear();
    undo_.clear();
    ++worldRevision_;
    setFilePath(filePath);
    emit documentReset();
    emit brushesChanged();
    emit posesChanged();
    emit gameChanged();
    emit raysChanged();
    emit entitiesChanged();
    emit entityDefinitionsChanged();
    emit selectionChanged();
    emit gridSizeChanged(data_.gridSize);
    emit worldReplaced(compiled);
}

void EditorDocument::setFilePath(const QString& path) {
    filePath_ = path;
    emit filePathChanged(path);
}

void EditorDocument::removeBrushes(const std::vector<int>& ascendingIndices) {
    auto& brushes = data_.world.brushes;
    for (auto it = ascendingIndices.rbegin(); it != ascendingIndices.rend(); ++it)
        brushes.erase(brushes.begin() + *it);
    // Selection indices shift down past each removed brush.
    std::vector<int> kept;
    for (int s : selection_) {
        if (std::binary_search(ascendingIndices.begin(), ascendingIndices.end(), s)) continue;
        const int below = int(std::lower_bound(ascendingIndices.begin(), ascendingIndices.end(), s) - ascendingIndices.begin());
        kept.push_back(s - below);
    }
    selection_ = kept;
    ++worldRevision_;
    emit brushesChanged();
    emit selectionChanged();
    emit worldChanged();
}

void EditorDocument::insertBrushes(const std::vector<std::pair<int, Brush>>& ascendingPositions) {
    auto& brushes = data_.world.brushes;
    for (const auto& [index, brush] : ascendingPositions) {
        for (int& s : selection_)
            if (s >= index) ++s;
        brushes.insert(brushes.begin() + index, brush);
    }
    ++worldRevision_;
    emit brushesChanged();
    emit selectionChanged();
    emit worldChanged();
}

void EditorDocument::setPoses(std::vector<Pose> poses) {
    data_.world.poses = std::move(poses);
    ++worldRevision_;
    emit posesChanged();
    emit worldChanged();
}

void EditorDocument::setGame(Game game) {
    data_.game = game;
    emit gameChanged();
}

void EditorDocument::setRays(std::vector<TestRay> rays) {
    data_.rays = std::move(rays);
    emit raysChanged();
}

void EditorDocument::setGridSize(int size) {
    size = std::clamp(size, 1, 256);
    if (size == data_.gridSize) return;
    data_.gridSize = size;
    emit gridSizeChanged(size);
}

void EditorDocument::setViewWeightLimit(uint32_t limit) {
    limit = std::max<uint32_t>(limit, 1);
    if (limit == data_.viewWeightLimit) return;
    data_.viewWeightLimit = limit;
    emit viewWeightLimitChanged(limit);
}

void EditorDocument::setDarkLimit(int limit) {
    limit = std::clamp(limit, 1, 255);
    if (limit == data_.darkLimit) return;
    data_.darkLimit = limit;
    emit darkLimitChanged(limit);
}

void EditorDocument::setLightBounces(int bounces) {
    bounces = std::clamp(bounces, 0, kMaxEditorLightBounces);
    if (bounces == data_.lightBounces) return;
    data_.lightBounces = bounces;
    emit lightBouncesChanged(bounces);
}

namespace {

// Adds `delta` to every entity number from `first` up, in the brushes that name one.
void renumberEntities(DocumentData& data, int first, int delta) {
    auto shift = [&](Brush& b) {
        if (b.source.entity >= first) b.source.entity += delta;
    };
    for (Brush& b : data.world.brushes) shift(b);
    for (MapEntity& e : data.entities)
        for (Brush& b : e.brushes) shift(b);
}

} // namespace

void EditorDocument::removeEntities(const std::vector<int>& ascendingIndices) {
    auto& entities = data_.entities;
    for (auto it = ascendingIndices.rbegin(); it != ascendingIndices.rend(); ++it) {
        entities.erase(entities.begin() + *it);
        renumberEntities(data_, *it + 2, -1); // entity i is number i + 1
    }
    std::vector<int> kept;
    for (int s : entitySelection_) {
        if (std::binary_search(ascendingIndices.begin(), ascendingIndices.end(), s)) continue;
        const int below = int(std::lower_bound(ascendingIndices.begin(), ascendingIndices.end(), s) - ascendingIndices.begin());
        kept.push_back(s - below);
    }
    entitySelection_ = kept;
    emit entitiesChanged();
    emit selectionChanged();
}

void EditorDocument::insertEntities(const std::vector<std::pair<int, MapEntity>>& ascendingPositions) {
    auto& entities = data_.entities;
    for (const auto& [index, entity] : ascendingPositions) {
        for (int& s : entitySelection_)
            if (s >= index) ++s;
        renumberEntities(data_, index + 1, 1);
        entities.insert(entities.begin() + index, entity);
    }
    emit entitiesChanged();
    emit selectionChanged();
}

void EditorDocument::setEntityDefinitions(QString path, std::string text) {
    data_.entityDefinitionsPath = path.toStdString();
    data_.entityDefinitions = std::move(text);
    emit entityDefinitionsChanged();
}

bool EditorDocument::isEntitySelected(int entity) const {
    return std::binary_search(entitySelection_.begin(), entitySelection_.end(), entity);
}

void EditorDocument::setEntitySelection(std::vector<int> entities) {
    std::sort(entities.begin(), entities.end());
    entities.erase(std::unique(entities.begin(), entities.end()), entities.end());
    entities.erase(std::remove_if(entities.begin(), entities.end(),
                                  [&](int e) { return e < 0 || e >= int(data_.entities.size()); }),
                   entities.end());
    if (entities == entitySelection_) return;
    entitySelection_ = std::move(entities);
    emit selectionChanged();
}

namespace {

std::vector<int> toggled(std::vector<int> sorted, int i) {
    const auto at = std::lower_bound(sorted.begin(), sorted.end(), i);
    if (at != sorted.end() && *at == i) sorted.erase(at);
    else sorted.insert(at, i);
    return sorted;
}

} // namespace

void EditorDocument::toggleSelected(int brush) { setSelection(toggled(selection_, brush)); }

void EditorDocument::toggleEntitySelected(int entity) { setEntitySelection(toggled(entitySelection_, entity)); }

bool EditorDocument::isSelected(int brush) const {
    return std::binary_search(selection_.begin(), selection_.end(), brush);
}

void EditorDocument::setSelection(std::vector<int> brushes) {
    std::sort(brushes.begin(), brushes.end());
    brushes.erase(std::unique(brushes.begin(), brushes.end()), brushes.end());
    brushes.erase(std::remove_if(brushes.begin(), brushes.end(),
                                 [&](int b) { return b < 0 || b >= int(data_.world.brushes.size()); }),
                  brushes.end());
    if (brushes == selection_) return;
    selection_ = std::move(brushes);
    emit selectionChanged();
}

} // namespace shallot

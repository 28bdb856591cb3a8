#pragma once
// Entities as render batches: a point entity as the box of its class in its category's
// colour, a brush entity (door, trigger...) as its brushes, tinted apart from the world's.
#include "io/map_file.h"
#include "mesh_batch.h"
#include "world/entity_class.h"

#include <array>
#include <vector>

namespace shallot::render {

struct EntityDrawOptions {
    std::array<bool, kEntityCategoryCount> categoryVisible{true, true, true, true, true};
    std::vector<int> problems; // sorted positions in the entity list: drawn red (spawn problems)
};

struct EntityBatches {
    MeshBatch faces; // 3D: boxes and brushes, outlined
    MeshBatch edges; // 2D: their outlines
};

// Where a point entity is drawn: origin + its class's box (16 units for a class without a
// size). Empty for an entity with brushes or without a usable origin.
Aabb entityDisplayBox(const MapEntity& entity, const EntityClassTable& classes);

EntityBatches buildEntityBatches(const std::vector<MapEntity>& entities, const EntityClassTable& classes,
                                 const EntityDrawOptions& options);

// The selected entities' boxes (`boxes`, empty ones skipped) as bright lines: a layer of
// their own, so that selecting among 100,000 entities rebuilds only these.
MeshBatch buildEntitySelection(const std::vector<Aabb>& boxes);

// Polylines (leak paths: from a start through portal centres to the world box) in red,
// with a small cross at each corner so the path reads in 2D where it runs along the view.
MeshBatch buildProblemPaths(const std::vector<std::vector<Vec3>>& paths);

// The colours the views use for an entity: selected, with a problem, or its category's.
QColor entityColour(const EntityClass& cls, bool selected, bool problem);

} // namespace shallot::render

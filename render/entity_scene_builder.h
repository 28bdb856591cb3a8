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
    std::vector<int> selected; // sorted positions in the entity list
    std::vector<int> problems; // sorted: drawn red (spawn check problems)
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

// The colours the views use for an entity: selected, with a problem, or its category's.
QColor entityColour(const EntityClass& cls, bool selected, bool problem);

} // namespace shallot::render

#pragma once
// Entities as render batches: a point entity as the box of its class in its category's
// colour, a brush entity (door, trigger...) as its brushes, tinted apart from the world's.
#include "io/map_file.h"
#include "mesh_batch.h"
#include "world/brush_geometry.h"
#include "world/entity_class.h"

#include <array>
#include <vector>

namespace shallot::render {

struct EntityDrawOptions {
    std::array<bool, kEntityCategoryCount> categoryVisible{true, true, true, true, true};
    std::vector<int> problems; // sorted positions in the entity list: drawn red (spawn problems)
};

struct EntityBatches {
    MeshBatch faces; // 3D: boxes and brushes, outlined; its runs name the shapes' positions
    MeshBatch edges; // 2D: their outlines
};

// What the views draw and pick of one entity, worked out once per entity edit (the editor
// keeps one per entity: a selection or a repaint does not look up 100,000 classes).
struct EntityShape {
    // A point entity: origin + its class's box (16 units for a class without a size); a
    // brush entity: its valid brushes' bounds. Empty: drawn nowhere (no usable origin).
    Aabb box;
    EntityCategory category = EntityCategory::Other;
    uint32_t colour = 0xffffffffu;      // its class's, RGBA
    std::vector<BrushGeometry> brushes; // a brush entity's valid brushes
};
EntityShape entityShape(const MapEntity& entity, const EntityClassTable& classes, const Aabb& worldBounds);

EntityBatches buildEntityBatches(const std::vector<EntityShape>& shapes, const EntityDrawOptions& options);

// The selected entities' boxes (`boxes`, empty ones skipped) as bright lines: a layer of
// their own, so that selecting among 100,000 entities rebuilds only these.
MeshBatch buildEntitySelection(const std::vector<Aabb>& boxes);

// Polylines (leak paths: from a start through portal centres to the world box) in
// kProblemColour,
// with a small cross at each corner so the path reads in 2D where it runs along the view.
// paths[selected], if any, is drawn in kSelectionColour with the edges of
// `selectedHole` (where it leaves the level; skipped when empty).
MeshBatch buildProblemPaths(const std::vector<std::vector<Vec3>>& paths, int selected = -1,
                            const Aabb& selectedHole = {});

// The colours the views use for an entity: selected, with a problem, or its class's.
QColor entityColour(uint32_t classColour, bool selected, bool problem);

} // namespace shallot::render

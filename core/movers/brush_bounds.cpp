#include "movers/brush_bounds.h"

#include "world/brush_geometry.h"
#include "world/map_points.h"
#include "world/world.h"

namespace shallot {

Aabb brushesBounds(const std::vector<Brush>& brushes) {
    Aabb bounds;
    for (const Brush& brush : brushes)
        if (const BrushGeometryResult built = buildBrushGeometry(brush, defaultWorldBounds()); built.geometry)
            bounds.add(built.geometry->bounds);
    if (!bounds.empty()) bounds = {withoutIntegerNoise(bounds.mins), withoutIntegerNoise(bounds.maxs)};
    return bounds;
}

} // namespace shallot

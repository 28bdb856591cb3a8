#include "objects/collision_object.h"

#include "world/brush_geometry.h"

#include <algorithm>
#include <cmath>

namespace shallot {

CollisionObject compileCollisionObject(std::vector<Brush> brushes, const std::vector<Pose>& poses,
                                       const Aabb& worldBounds) {
    CollisionObject object;
    std::vector<Vec3> vertices;
    for (const Brush& b : brushes) {
        // Only what blocks some pose can be hit (an illusionary brush never is).
        if (std::none_of(poses.begin(), poses.end(), [&](const Pose& p) { return blocks(b, p); })) continue;
        if (const auto g = buildBrushGeometry(b, worldBounds).geometry) {
            object.bounds.add(g->bounds);
            vertices.insert(vertices.end(), g->vertices.begin(), g->vertices.end());
        }
    }
    if (!object.bounds.empty()) {
        object.centre = 0.5 * (object.bounds.mins + object.bounds.maxs);
        for (const Vec3& v : vertices) object.radius = std::max(object.radius, (v - object.centre).norm());
    }
    World world;
    world.brushes = std::move(brushes);
    world.poses = poses;
    world.bounds = worldBounds;
    CompileResult compiled = compileWorld(world);
    object.tree = std::move(compiled.onion);
    object.problems = std::move(compiled.problems);
    if (object.tree.leafSolid.empty()) { // the compile failed as a whole: nothing to hit
        object.tree = BspTree{};
        object.tree.poses = poses;
        object.tree.leafSolid.assign(1, 0);
        object.tree.leaves.resize(1);
        object.bounds = Aabb{};
        object.radius = 0.0;
    }
    return object;
}

Brush translatedBrush(const Brush& brush, const Vec3& offset) {
    Brush moved = brush;
    for (BrushSide& side : moved.sides) {
        side.plane.dist += side.plane.normal.dot(offset);
        for (Vec3& p : side.points) p += offset;
    }
    return moved;
}

} // namespace shallot

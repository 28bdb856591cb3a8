#include "check/near_brushes.h"

#include "compile/brush_expansion.h"
#include "world/brush_geometry.h"

#include <algorithm>
#include <cmath>

namespace shallot {

NearBrushes::NearBrushes(const World& world) : world_(world), entries_(world.brushes.size()) {
    for (size_t i = 0; i < world.brushes.size(); ++i) {
        const Brush& brush = world.brushes[i];
        Entry& e = entries_[i];
        e.bounds = world.bounds;
        if (brush.contents == BrushContents::NonSolid) {
            e.built = true; // blocks nothing
            continue;
        }
        // The brush lies behind each of its planes: an axial side bounds it on its axis.
        for (const BrushSide& side : brush.sides) {
            const Vec3& n = side.plane.normal;
            for (int k = 0; k < 3; ++k) {
                const int a = (k + 1) % 3, b = (k + 2) % 3;
                if (n[a] != 0.0 || n[b] != 0.0 || !std::isfinite(side.plane.dist)) continue;
                if (n[k] == 1.0) e.bounds.maxs[k] = std::min(e.bounds.maxs[k], side.plane.dist);
                if (n[k] == -1.0) e.bounds.mins[k] = std::max(e.bounds.mins[k], -side.plane.dist);
            }
        }
    }
}

void NearBrushes::build(size_t index) {
    Entry& e = entries_[index];
    e.built = true;
    const Brush& brush = world_.brushes[index];
    BrushGeometryResult g = buildBrushGeometry(brush, world_.bounds);
    if (!g.geometry) return;
    Pose point;
    point.name = "point";
    const std::vector<Plane> planes = expandedPlanes(*g.geometry, point);
    e.usable = true;
    e.bounds = g.geometry->bounds;
    e.brush.worldIndex = int32_t(index);
    e.brush.contents = brush.contents;
    e.brush.bounds = g.geometry->bounds;
    e.brush.firstPlane = uint32_t(planes_.size());
    e.brush.planeCount = uint32_t(planes.size());
    planes_.insert(planes_.end(), planes.begin(), planes.end());
}

const BoxTraceWorld& NearBrushes::traceWorld() {
    if (!traceWorld_) traceWorld_ = BoxTraceWorld::build(world_);
    return *traceWorld_;
}

} // namespace shallot

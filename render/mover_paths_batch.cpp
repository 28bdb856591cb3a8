#include "mover_paths_batch.h"

#include "palette.h"

#include <array>

namespace shallot::render {

namespace {

// The six faces of a box, facing out.
void addBox(MeshBatch& out, const Aabb& box, const QColor& colour) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            std::array<Vec3, 4> quad;
            for (int k = 0; k < 4; ++k) {
                Vec3 p;
                p[axis] = side ? box.maxs[axis] : box.mins[axis];
                p[u] = (k == 1 || k == 2) ? box.maxs[u] : box.mins[u];
                p[v] = (k >= 2) ? box.maxs[v] : box.mins[v];
                quad[size_t(k)] = p;
            }
            out.addPolygon(quad, (side ? 1.0 : -1.0) * Vec3::Unit(axis), colour);
        }
}

} // namespace

MoverPathBatches buildMoverPathBatches(const LevelMovers& movers) {
    MoverPathBatches out;
    out.volumes.lit = false;
    out.outlines.primitive = Primitive::Lines;
    out.outlines.lit = false;
    QColor ghost = kMoverPathColour;
    ghost.setAlpha(45);
    for (const Mover& m : movers.movers) {
        if (m.kind == MoverKind::Static || m.bounds.empty() || m.motion.stops.size() < 2) continue;
        addBox(out.volumes, m.sweptBounds(), ghost);
        for (size_t s = 1; s < m.motion.stops.size(); ++s) {
            const Vec3& at = m.motion.stops[s];
            out.outlines.addBoxEdges(m.bounds.mins + at, m.bounds.maxs + at, kMoverPathColour);
        }
        const Vec3 centre = 0.5 * (m.bounds.mins + m.bounds.maxs);
        for (size_t s = 0; s + 1 < m.motion.stops.size(); ++s)
            out.outlines.addLine(centre + m.motion.stops[s], centre + m.motion.stops[s + 1], kMoverPathColour);
        if (m.motion.loopsTo >= 0)
            out.outlines.addLine(centre + m.motion.stops.back(), centre + m.motion.stops[size_t(m.motion.loopsTo)], kMoverPathColour);
    }
    return out;
}

} // namespace shallot::render

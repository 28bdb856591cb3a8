#include "mover_paths_batch.h"

#include "palette.h"

namespace shallot::render {

MoverPathBatches buildMoverPathBatches(const LevelMovers& movers) {
    MoverPathBatches out;
    out.volumes.lit = false;
    out.outlines.primitive = Primitive::Lines;
    out.outlines.lit = false;
    QColor ghost = kMoverPathColour;
    ghost.setAlpha(45);
    for (const Mover& m : movers.movers) {
        if (m.kind == MoverKind::Static || m.bounds.empty() || m.motion.stops.size() < 2) continue;
        out.volumes.addBoxFaces(m.sweptBounds(), ghost);
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

#include "objects/placed_move_spaces.h"

#include "objects/collision_scene.h"

namespace shallot {

Aabb placedReach(const Aabb& bounds, const Vec3& agentMins, const Vec3& agentMaxs, const Vec3& offset) {
    const Vec3 margin = Vec3::Constant(kQueryRegionMargin);
    return Aabb{bounds.mins - agentMaxs - margin + offset, bounds.maxs - agentMins + margin + offset};
}

bool PlacedMoveSpaces::isSolid(const Vec3& p) const {
    if (base_.isSolid(p)) return true;
    for (const PlacedSpace& part : parts_)
        if (part.reach.contains(p) && part.space->isSolid(p - part.offset)) return true;
    return false;
}

PlacedMoveSpaces::Answer PlacedMoveSpaces::traceWhich(const Vec3& from, const Vec3& to) const {
    Answer a{base_.trace(from, to), -1};
    const Aabb region{from.cwiseMin(to), from.cwiseMax(to)};
    for (size_t i = 0; i < parts_.size(); ++i) {
        const PlacedSpace& part = parts_[i];
        if (!part.reach.overlaps(region)) continue;
        TraceResult o = part.space->trace(from - part.offset, to - part.offset);
        o.point = o.startSolid ? from : from + o.t * (to - from); // exactly on the segment, as the base's
        o.plane = -1;
        if (combineTraces(a.result, o)) a.part = int(i);
    }
    return a;
}

} // namespace shallot

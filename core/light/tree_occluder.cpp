#include "light/tree_occluder.h"

#include "query/trace.h"

namespace shallot {

int pointPoseIndex(const std::vector<Pose>& poses) {
    for (size_t i = 0; i < poses.size(); ++i)
        if (poses[i].isPoint() && !poses[i].shape.isRound()) return int(i);
    return -1;
}

bool TreeOccluder::blocked(const Vec3& from, const Vec3& to) const {
    const TraceResult r = traceSegment(tree_, pose_, from, to);
    return r.startSolid || r.hit;
}

bool TreeOccluder::reachesSky(const Vec3& from, const Vec3& direction) const {
    if (sky_.empty()) return false;
    const TraceResult r = traceSegment(tree_, pose_, from, from + direction * kSunRayLength);
    return r.hit && sky_.isSkyHit(r.point, direction);
}

double TreeOccluder::openDistance(const Vec3& from, const Vec3& direction, double length) const {
    const TraceResult r = traceSegment(tree_, pose_, from, from + direction * length);
    if (r.startSolid) return 0.0;
    if (!r.hit || (!sky_.empty() && sky_.isSkyHit(r.point, direction))) return length;
    return r.t * length;
}

} // namespace shallot

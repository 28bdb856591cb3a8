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

bool TreeOccluder::nearSolid(const Vec3& p, double margin) const {
    const auto solid = [&](const Vec3& q) { return (tree_.solidityAt(q) >> pose_) & 1u; };
    if (solid(p)) return true;
    for (int axis = 0; axis < 3; ++axis)
        for (double side : {-margin, margin}) {
            Vec3 q = p;
            q[axis] += side;
            if (solid(q)) return true;
        }
    return false;
}

} // namespace shallot

#include "query/round_pose_queries.h"

#include "world/round_pose_boxes.h"

#include <algorithm>
#include <stdexcept>

namespace shallot {

RoundPoseQueries::RoundPoseQueries(const RoundPoseWorld& exact, const BspTree& tree) : exact_(exact), tree_(tree) {
    const Pose& pose = exact.pose();
    bounding_ = tree.poseIndex(pose.name);
    inscribed_ = tree.poseIndex(inscribedPoseName(pose.name));
    const auto sameBox = [&](int index, const Pose& box) {
        if (index < 0) return false;
        const Pose& p = tree.poses[size_t(index)];
        return p.mins == box.mins && p.maxs == box.maxs && p.blockingSet() == box.blockingSet();
    };
    if (!sameBox(bounding_, boundingBoxPose(pose)) || !sameBox(inscribed_, inscribedBoxPose(pose)))
        throw std::invalid_argument("the tree does not hold the boxes of round pose '" + pose.name +
                                    "' (compile the world's treePoses)");
}

bool RoundPoseQueries::isSolid(const Vec3& p) const {
    if (!p.allFinite()) return true;
    const uint64_t bits = tree_.solidityAt(p);
    if (!((bits >> bounding_) & 1u)) {
        classifySettled_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    if ((bits >> inscribed_) & 1u) {
        classifySettled_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    classifyExact_.fetch_add(1, std::memory_order_relaxed);
    return exact_.isSolid(p);
}

TraceResult RoundPoseQueries::traceTreeFirst(const Vec3& from, const Vec3& to) const {
    if (!from.allFinite() || !to.allFinite()) return exact_.trace(from, to);
    const TraceResult outer = traceSegment(tree_, bounding_, from, to);
    if (!outer.startSolid && !outer.hit) {
        traceSettled_.fetch_add(1, std::memory_order_relaxed);
        return outer;
    }
    traceExact_.fetch_add(1, std::memory_order_relaxed);
    const double length = (to - from).norm();
    if (outer.startSolid || length == 0.0) return exact_.trace(from, to);
    const double margin = kRoundTreeMargin / length;
    const double t0 = std::max(0.0, outer.t - margin);
    double t1 = 1.0;
    const TraceResult inner = traceSegment(tree_, inscribed_, from, to);
    if (inner.hit && !inner.startSolid) t1 = std::min(1.0, inner.t + margin);
    TraceResult r = exact_.tracePart(from, to, t0, t1);
    // A box answer off by more than the margin (never seen): the whole segment, exactly.
    if ((r.startSolid && t0 > 0.0) || (!r.hit && !r.startSolid && t1 < 1.0)) return exact_.trace(from, to);
    return r;
}

} // namespace shallot

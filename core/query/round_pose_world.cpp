#include "query/round_pose_world.h"

#include "query/round_shape_overlap.h"
#include "query/round_shape_trace.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace shallot {

RoundPoseWorld::RoundPoseWorld(const World& world, const Pose& pose) : pose_(pose) {
    if (!pose.shape.isRound()) throw std::invalid_argument("pose '" + pose.name + "' is not round");
    if (const std::string e = poseShapeProblem(pose.shape); !e.empty())
        throw std::invalid_argument("pose '" + pose.name + "': " + e);
    frame_ = RoundShapeFrame::of(pose.shape);
    boxes_ = BoxTraceWorld::build(world);
    round_.resize(boxes_.brushes.size());
    made_ = std::make_unique<std::once_flag[]>(boxes_.brushes.size());
    blocking_.resize(boxes_.brushes.size());
    for (size_t i = 0; i < boxes_.brushes.size(); ++i)
        blocking_[i] = blocks(world.brushes[size_t(boxes_.brushes[i].worldIndex)], pose);
}

RoundPoseWorld::RoundPoseWorld(const RoundPoseWorld& other)
    : MoveSpace(other), pose_(other.pose_), frame_(other.frame_), boxes_(other.boxes_), round_(other.round_.size()),
      made_(std::make_unique<std::once_flag[]>(other.round_.size())), blocking_(other.blocking_) {}

RoundPoseWorld& RoundPoseWorld::operator=(const RoundPoseWorld& other) {
    if (this != &other) *this = RoundPoseWorld(other);
    return *this;
}

const RoundBrush& RoundPoseWorld::roundBrush(uint32_t b) const {
    std::call_once(made_[b], [&] { round_[b] = RoundBrush::of(boxes_.geometry[b], frame_); });
    return round_[b];
}

size_t RoundPoseWorld::blockingBrushCount() const { return size_t(std::count(blocking_.begin(), blocking_.end(), true)); }

template <class Visit>
void RoundPoseWorld::forEachNear(const Aabb& box, const Visit& visit) const {
    if (boxes_.nodes.empty()) return;
    uint32_t stack[64];
    int depth = 0;
    stack[depth++] = 0;
    std::vector<uint32_t> overflow; // an AABB tree deeper than 64 (never seen)
    while (depth > 0 || !overflow.empty()) {
        uint32_t self = 0;
        if (!overflow.empty()) {
            self = overflow.back();
            overflow.pop_back();
        } else {
            self = stack[--depth];
        }
        const BoxTraceNode& node = boxes_.nodes[self];
        if (!box.overlaps(node.bounds)) continue;
        if (node.count == 0) {
            for (const uint32_t child : {node.second, self + 1}) {
                if (depth < 64) stack[depth++] = child;
                else overflow.push_back(child);
            }
            continue;
        }
        for (uint32_t i = node.first; i < node.first + node.count; ++i) {
            const uint32_t b = boxes_.order[i];
            if (blocking_[b] && box.overlaps(boxes_.brushes[b].bounds)) visit(roundBrush(b));
        }
    }
}

bool RoundPoseWorld::isSolid(const Vec3& p) const {
    if (!p.allFinite()) return true;
    const double band = contactBandOf(frame_);
    const Vec3 centre = frame_.toShape(p);
    bool solid = false;
    forEachNear({p + pose_.mins, p + pose_.maxs}, [&](const RoundBrush& b) {
        if (!solid && roundShapeClearance(frame_, b, centre) < -band) solid = true;
    });
    return solid;
}

TraceResult RoundPoseWorld::trace(const Vec3& from, const Vec3& to) const { return tracePart(from, to, 0.0, 1.0); }

TraceResult RoundPoseWorld::tracePart(const Vec3& from, const Vec3& to, double t0, double t1) const {
    TraceResult r;
    r.point = from;
    if (!from.allFinite() || !to.allFinite()) {
        r.startSolid = r.allSolid = true;
        r.t = 0.0;
        return r;
    }
    const Vec3 delta = to - from;
    const Vec3 start = from + t0 * delta, end = from + t1 * delta;
    Aabb swept{start.cwiseMin(end) + pose_.mins, start.cwiseMax(end) + pose_.maxs};
    const Vec3 startShape = frame_.toShape(start), deltaShape = frame_.toShape(end - start);
    // A part that starts later starts clear (the caller knows): no contact band there.
    const double band = t0 == 0.0 ? contactBandOf(frame_) : 0.0;
    // Bound every brush near the part, then finish them by their earliest possible
    // contact, up to the first contact found.
    struct Pending {
        double earliest;
        const RoundBrush* brush;
        RoundSweepBound bound;
    };
    thread_local std::vector<Pending> pending;
    pending.clear();
    forEachNear(swept, [&](const RoundBrush& b) {
        const RoundSweepBound bound = boundRoundSweep(frame_, b, startShape, deltaShape, band);
        if (!bound.missed) pending.push_back({bound.startClear ? bound.earliest : 0.0, &b, bound});
    });
    std::sort(pending.begin(), pending.end(),
              [](const Pending& x, const Pending& y) { return x.earliest < y.earliest; });
    bool startSolid = false, hit = false;
    double first = 1.0;
    Vec3 normal = Vec3::Zero();
    for (const Pending& p : pending) {
        if (p.earliest > first) break;
        const RoundSweep s = finishRoundSweep(frame_, *p.brush, startShape, deltaShape, band, p.bound);
        if (s.startSolid) {
            startSolid = true;
            break;
        }
        if (s.hit && s.t < first) {
            hit = true;
            first = s.t;
            normal = s.normal;
        }
    }
    if (startSolid) {
        r.startSolid = true;
        r.t = t0;
        r.point = start;
        r.allSolid = t0 == 0.0 && t1 == 1.0 && allSolid(from, to);
        return r;
    }
    if (start == end) {
        r.t = t1;
        r.point = end;
        return r;
    }
    if (!hit) {
        r.t = t1;
        r.point = t1 == 1.0 ? to : end;
        return r;
    }
    r.hit = true;
    r.t = t0 + first * (t1 - t0);
    r.point = from + r.t * delta;
    r.normal = frame_.normalToWorld(normal);
    return r;
}

// Does every point of from -> to overlap some brush? Each brush's stretch of the line is
// one interval (its grown set is convex): from the entry going forwards to the entry going
// backwards; the stretches must cover [0, 1].
bool RoundPoseWorld::allSolid(const Vec3& from, const Vec3& to) const {
    const Vec3 o = frame_.toShape(from), d = frame_.toShape(to) - o;
    if (d.squaredNorm() == 0.0) return true;
    std::vector<std::pair<double, double>> stretches;
    forEachNear({from.cwiseMin(to) + pose_.mins, from.cwiseMax(to) + pose_.maxs}, [&](const RoundBrush& b) {
        const auto in = lineEntry(frame_, b, o, d);
        const auto out = lineEntry(frame_, b, o, -d);
        if (in && out) stretches.emplace_back(in->t, -out->t);
    });
    std::sort(stretches.begin(), stretches.end());
    double covered = 0.0;
    for (const auto& [lo, hi] : stretches) {
        if (lo > covered) return false;
        covered = std::max(covered, hi);
        if (covered >= 1.0) return true;
    }
    return false;
}

} // namespace shallot

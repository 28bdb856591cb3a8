#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace shallot {

namespace {

// The segment end: a span ending here was not cut by any split plane.
constexpr PlaneId kSegmentEnd = -1;

// The part [ta, tb] of the segment (parameters along from -> to) that lies in the subtree
// `node`; `exit` is the split plane that cut the span's end off (kSegmentEnd if none).
struct Span {
    ChildRef node;
    PlaneId exit;
    double ta, tb;
};

// The pending spans, kept sorted so that pop() returns the one starting first. Without
// coplanar spans every push is already in order (the far half of a straddled span starts
// after everything still to be visited in its near half), so the insertion loop is idle.
class SpanStack {
public:
    bool empty() const { return size_ == 0; }
    Span pop() { return data_[--size_]; }
    // By fields, inlined: a Span built on the caller's stack and read back whole stalled
    // the load on the stores of its parts (a seventh of a lighting's time in a profile).
    [[gnu::always_inline]] void push(ChildRef node, PlaneId exit, double ta, double tb) {
        if (size_ == capacity_) grow();
        size_t i = size_;
        for (; i > 0 && data_[i - 1].ta < ta; --i) data_[i] = data_[i - 1];
        data_[i].node = node;
        data_[i].exit = exit;
        data_[i].ta = ta;
        data_[i].tb = tb;
        ++size_;
    }

private:
    void grow() {
        if (data_ == local_) heap_.assign(local_, local_ + size_);
        heap_.resize(capacity_ * 2);
        data_ = heap_.data();
        capacity_ = heap_.size();
    }
    static constexpr size_t kLocal = 64;
    Span local_[kLocal];
    std::vector<Span> heap_;
    Span* data_ = local_;
    size_t size_ = 0, capacity_ = kLocal;
};

// How far from the start the segment is covered by empty leaves.
struct Coverage {
    bool covered = false;     // some empty leaf contains the start
    double reach = 0.0;       // [0, reach] is empty (the boundary points included)
    PlaneId exit = kSegmentEnd; // the plane where the empty stretch ends
};

// A point of the segment is solid when every leaf cell whose closure holds it is solid,
// i.e. when it is in the interior of the solid. So the first contact is the end of the run
// of empty leaf spans that starts at t = 0. Spans are visited in order of their start, and
// a span that starts beyond the run's reach proves a gap: the run ends there.
// Where the segment starts on a split plane (within kTraceOnPlaneEpsilon) and leaves it,
// the side it leaves is visited at the start point alone (a zero-length span), so a start
// touching a surface is not solid and moving into the surface hits at t = 0. A segment in
// a split plane (both ends on it) is passed down both sides, as in Listing 5.
Coverage emptyRun(const BspTree& tree, uint64_t poseBit, const Vec3& from, const Vec3& delta) {
    Coverage c;
    SpanStack stack;
    stack.push(tree.root, kSegmentEnd, 0.0, 1.0);
    while (!stack.empty()) {
        Span s = stack.pop();
        if (s.ta > c.reach) break;
        if (c.covered && s.tb <= c.reach) continue;
        while (!isLeaf(s.node)) {
            const BspNode& node = tree.nodes[size_t(s.node)];
            const Plane& plane = tree.planes[size_t(node.plane)];
            const double d0 = plane.signedDistance(from), dd = plane.normal.dot(delta);
            const double da = d0 + s.ta * dd, db = d0 + s.tb * dd;
            const bool aOn = std::abs(da) <= kTraceOnPlaneEpsilon, bOn = std::abs(db) <= kTraceOnPlaneEpsilon;
            if (aOn && bOn) { // in the plane: both sides
                stack.push(node.back, s.exit, s.ta, s.tb);
                s.node = node.front;
            } else if (aOn) { // leaving the plane: touch the other side at the start first
                const bool toFront = db > 0.0;
                stack.push(toFront ? node.front : node.back, s.exit, s.ta, s.tb);
                s = {toFront ? node.back : node.front, node.plane, s.ta, s.ta};
            } else if (bOn || (da > 0.0) == (db > 0.0)) { // one side
                s.node = da > 0.0 ? node.front : node.back;
            } else { // straddling: near half now, far half later
                const double tm = std::clamp(-d0 / dd, s.ta, s.tb);
                stack.push(da > 0.0 ? node.back : node.front, s.exit, tm, s.tb);
                s = {da > 0.0 ? node.front : node.back, node.plane, s.ta, tm};
            }
        }
        if (tree.leafSolid[size_t(leafIndex(s.node))] & poseBit) continue;
        if (!c.covered || s.tb > c.reach) {
            c.covered = true;
            c.reach = s.tb;
            c.exit = s.exit;
            if (s.exit == kSegmentEnd) break; // empty to the end
        }
    }
    return c;
}

// Is any stretch of positive length of the segment empty?
bool anyEmptyStretch(const BspTree& tree, uint64_t poseBit, const Vec3& from, const Vec3& delta) {
    SpanStack stack;
    stack.push(tree.root, kSegmentEnd, 0.0, 1.0);
    while (!stack.empty()) {
        Span s = stack.pop();
        while (!isLeaf(s.node)) {
            const BspNode& node = tree.nodes[size_t(s.node)];
            const Plane& plane = tree.planes[size_t(node.plane)];
            const double d0 = plane.signedDistance(from), dd = plane.normal.dot(delta);
            const double da = d0 + s.ta * dd, db = d0 + s.tb * dd;
            const bool aOn = std::abs(da) <= kTraceOnPlaneEpsilon, bOn = std::abs(db) <= kTraceOnPlaneEpsilon;
            if (aOn && bOn) {
                stack.push(node.back, s.exit, s.ta, s.tb);
                s.node = node.front;
            } else if (aOn || bOn || (da > 0.0) == (db > 0.0)) {
                s.node = (aOn ? db : da) > 0.0 ? node.front : node.back;
            } else {
                const double tm = std::clamp(-d0 / dd, s.ta, s.tb);
                stack.push(da > 0.0 ? node.back : node.front, s.exit, tm, s.tb);
                s = {da > 0.0 ? node.front : node.back, node.plane, s.ta, tm};
            }
        }
        if (!(tree.leafSolid[size_t(leafIndex(s.node))] & poseBit) && s.tb > s.ta) return true;
    }
    return false;
}

TraceResult contact(const BspTree& tree, const Vec3& from, const Vec3& delta, double t, PlaneId plane) {
    TraceResult r;
    r.hit = true;
    r.t = t;
    r.point = from + t * delta;
    if (tree.planes[size_t(plane)].normal.dot(delta) > 0.0) plane ^= 1; // face the mover
    r.plane = plane;
    r.normal = tree.planes[size_t(plane)].normal;
    return r;
}

} // namespace

TraceResult traceSegment(const BspTree& tree, int pose, const Vec3& from, const Vec3& to) {
    const uint64_t poseBit = uint64_t(1) << pose;
    const Vec3 delta = to - from;
    TraceResult r;
    r.point = to;
    const Coverage c = emptyRun(tree, poseBit, from, delta);
    if (c.covered) return c.exit == kSegmentEnd ? r : contact(tree, from, delta, c.reach, c.exit);

    const double length = delta.norm();
    if (length > 0.0) {
        // The article's retry: a start that reads solid may be on a boundary.
        const Vec3 nudged = from - (kStartSolidNudge / length) * delta;
        const Coverage retry = emptyRun(tree, poseBit, nudged, to - nudged);
        if (retry.covered) {
            if (retry.exit == kSegmentEnd) return r;
            const Vec3 c2 = nudged + retry.reach * (to - nudged);
            const double t = std::clamp((c2 - from).dot(delta) / (length * length), 0.0, 1.0);
            return contact(tree, from, delta, t, retry.exit);
        }
    }
    r.startSolid = true;
    r.allSolid = length == 0.0 || !anyEmptyStretch(tree, poseBit, from, delta);
    r.t = 0.0;
    r.point = from;
    return r;
}

} // namespace shallot

#include "portal/leaf_visibility.h"

#include <algorithm>

namespace shallot {

namespace {

// An eye nearer than this to a portal's plane sees through it whatever its projection
// (which degenerates there): the leaf beyond inherits the whole rectangle.
constexpr double kOnPortalDistance = 1e-3;
// Portal polygons are clipped to w >= this in clip space before the divide (in front of
// the eye; the view's near plane is farther, so nothing in view is lost).
constexpr double kMinClipW = 1e-6;
// A leaf whose rectangle has grown this often is seen through the whole screen.
constexpr uint8_t kMaxRectGrowths = 16;
// A rectangle grown by less than this (in normalised device coordinates, the screen being
// 2 wide) is not grown: it keeps the flood from creeping by rounding errors.
constexpr double kRectSlack = 1e-9;

using Rect = ScreenRect;

bool contains(const Rect& outer, const Rect& r) {
    return r.x0 >= outer.x0 - kRectSlack && r.x1 <= outer.x1 + kRectSlack && r.y0 >= outer.y0 - kRectSlack &&
           r.y1 <= outer.y1 + kRectSlack;
}

Rect intersection(const Rect& a, const Rect& b) {
    return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0), std::min(a.y1, b.y1)};
}

Rect bounding(const Rect& a, const Rect& b) {
    if (a.empty()) return b;
    return {std::min(a.x0, b.x0), std::max(a.x1, b.x1), std::min(a.y0, b.y0), std::max(a.y1, b.y1)};
}

// The screen rectangle of a polygon: its part in front of the eye, projected. (No
// allocation: it runs for every portal the search crosses, 10^5 a frame from outside a level.)
Rect screenRect(std::span<const Vec3> polygon, const Eigen::Matrix4d& clip) {
    Rect r;
    const size_t n = polygon.size();
    if (n == 0) return r;
    auto add = [&](const Eigen::Vector4d& v) {
        const double x = v.x() / v.w(), y = v.y() / v.w();
        r = bounding(r, {x, x, y, y});
    };
    const Eigen::Vector4d first = clip * polygon[0].homogeneous();
    Eigen::Vector4d a = first;
    for (size_t i = 0; i < n; ++i) {
        const Eigen::Vector4d b = i + 1 < n ? Eigen::Vector4d(clip * polygon[i + 1].homogeneous()) : first;
        if (a.w() >= kMinClipW) add(a);
        // An edge crossing w = kMinClipW adds the crossing.
        if ((a.w() >= kMinClipW) != (b.w() >= kMinClipW)) add(a + (b - a) * ((kMinClipW - a.w()) / (b.w() - a.w())));
        a = b;
    }
    return r;
}

} // namespace

int sightPose(const std::vector<Pose>& poses) {
    for (size_t p = 0; p < poses.size() && p < 64; ++p)
        if (poses[p].isPoint() && poses[p].mins == Vec3::Zero()) return int(p);
    return -1;
}

int sightPose(const BspTree& tree) { return sightPose(tree.poses); }

LeafVisibility::LeafVisibility(std::shared_ptr<const BspTree> tree) : tree_(std::move(tree)), pose_(sightPose(*tree_)) {
    const size_t leaves = tree_->leafCount();
    first_.assign(leaves + 1, 0);
    if (pose_ < 0) return;
    auto open = [&](const Portal& p) {
        return ((p.poses >> pose_) & 1u) && size_t(p.front) < leaves && size_t(p.back) < leaves;
    };
    for (const Portal& p : tree_->portals) {
        if (!open(p)) continue;
        ++first_[size_t(p.front) + 1];
        ++first_[size_t(p.back) + 1];
    }
    for (size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
    portals_.resize(first_.back());
    std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
    for (uint32_t i = 0; i < tree_->portals.size(); ++i) {
        const Portal& p = tree_->portals[i];
        if (!open(p)) continue;
        portals_[next[size_t(p.front)]++] = i;
        portals_[next[size_t(p.back)]++] = i;
    }
}

std::vector<bool> LeafVisibility::seenFrom(const Vec3& eye, const Eigen::Matrix4d& clip) const {
    const BspTree& t = *tree_;
    if (pose_ < 0 || t.nodes.empty() || !eye.allFinite()) return {};
    const int32_t start = t.findLeaf(eye);
    if ((t.leafSolid[size_t(start)] >> pose_) & 1u) return {};
    std::lock_guard lock(scratchMutex_);
    Scratch& s = scratch_;
    const size_t leaves = t.leafCount();
    const std::vector<bool>* inPvs = nullptr;
    if (pvs_) {
        if (s.pvsLeaf != start) {
            s.pvsMask = pvs_->visibleFrom(start);
            s.pvsLeaf = start;
        }
        inPvs = &s.pvsMask;
    }
    for (int32_t leaf : s.touched) { // an earlier search's
        s.rects[size_t(leaf)] = {};
        s.growths[size_t(leaf)] = 0;
        s.queued[size_t(leaf)] = 0;
    }
    s.touched.clear();
    if (s.rects.size() != leaves) {
        s.rects.assign(leaves, {});
        s.growths.assign(leaves, 0);
        s.queued.assign(leaves, 0);
    }
    auto grow = [&](int32_t leaf, const Rect& r) {
        uint8_t& growths = s.growths[size_t(leaf)];
        if (growths == 0) s.touched.push_back(leaf);
        // Growing again and again (rectangles reaching a leaf over many paths, as from the
        // open space around a level) it is seen through the whole screen: conservative,
        // and the search stays within a few passes over the portals.
        Rect& rect = s.rects[size_t(leaf)];
        rect = ++growths > kMaxRectGrowths ? Rect{-1, 1, -1, 1} : bounding(rect, r);
    };
    // First in, first out: a leaf is usually reached by all its near paths before it
    // passes its rectangle on, so it passes it on fewer times than depth first.
    s.queue.assign(1, start);
    grow(start, {-1, 1, -1, 1});
    s.queued[size_t(start)] = 1;
    for (size_t head = 0; head < s.queue.size(); ++head) {
        const int32_t leaf = s.queue[head];
        s.queued[size_t(leaf)] = 0;
        const Rect seenThrough = s.rects[size_t(leaf)];
        for (uint32_t k = first_[size_t(leaf)]; k < first_[size_t(leaf) + 1]; ++k) {
            const Portal& p = t.portals[portals_[k]];
            const bool fromFront = p.front == leaf;
            const int32_t beyond = fromFront ? p.back : p.front;
            // Looking from the leaf through the portal needs the eye on the leaf's side.
            const double d = t.planes[size_t(p.plane)].signedDistance(eye) * (fromFront ? 1.0 : -1.0);
            if (d < -kOnPortalDistance || (inPvs && !(*inPvs)[size_t(beyond)])) continue;
            const Rect r =
                d <= kOnPortalDistance ? seenThrough : intersection(screenRect(t.portals.vertices(p), clip), seenThrough);
            if (r.empty() || contains(s.rects[size_t(beyond)], r)) continue;
            grow(beyond, r);
            if (!s.queued[size_t(beyond)]) {
                s.queued[size_t(beyond)] = 1;
                s.queue.push_back(beyond);
            }
        }
    }
    std::vector<bool> seen(leaves);
    for (int32_t leaf : s.touched) seen[size_t(leaf)] = !s.rects[size_t(leaf)].empty();
    return seen;
}

void LeafVisibility::restrictTo(std::shared_ptr<const SightPvs> pvs) const {
    if (pvs && pvs->onion().leafCount() != tree_->leafCount()) return;
    std::lock_guard lock(scratchMutex_);
    pvs_ = std::move(pvs);
    scratch_.pvsLeaf = -1;
}

bool LeafVisibility::restricted() const {
    std::lock_guard lock(scratchMutex_);
    return pvs_ != nullptr;
}

} // namespace shallot

#include "light/bounce_pvs.h"

#include "portal/sight_pvs.h"
#include "portal/tree_pvs.h"

#include <algorithm>

namespace shallot {

BouncePvs BouncePvs::of(const BspTree& tree, const TreePvs& pvs) {
    return BouncePvs(tree, pvs.pose, [&pvs](int32_t a, int32_t b) { return pvs.visible(a, b); });
}

BouncePvs BouncePvs::of(const BspTree& tree, const SightPvs& pvs) {
    return BouncePvs(tree, pvs.pose(), [&pvs](int32_t a, int32_t b) { return pvs.onion().visible(a, b); });
}

std::vector<int32_t> BouncePvs::leavesAround(const Vec3& centre) const {
    std::vector<int32_t> out;
    // Outside the box the tree partitions the leaves say nothing of the level.
    if (!tree_.bounds.contains(centre, -kBounceLeafReach)) return out;
    std::vector<ChildRef> pending{tree_.root};
    while (!pending.empty()) {
        const ChildRef r = pending.back();
        pending.pop_back();
        if (isLeaf(r)) {
            const int32_t leaf = leafIndex(r);
            if (!((tree_.leafSolid[size_t(leaf)] >> pose_) & 1u)) out.push_back(leaf);
            continue;
        }
        const BspNode& n = tree_.nodes[size_t(r)];
        const Plane& plane = tree_.planes[size_t(n.plane)];
        // The box reaches this far along the plane's normal either way.
        const double reach = kBounceLeafReach * plane.normal.cwiseAbs().sum();
        const double d = plane.signedDistance(centre);
        if (d > -reach) pending.push_back(n.front);
        if (d < reach) pending.push_back(n.back);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool BouncePvs::mayReach(const std::vector<int32_t>& from, const std::vector<int32_t>& to) const {
    if (from.empty() || to.empty()) return true;
    for (const int32_t a : from)
        for (const int32_t b : to)
            if (visible_(a, b)) return true;
    return false;
}

} // namespace shallot

#include "light/bounce_pvs.h"

#include "portal/sight_pvs.h"
#include "portal/tree_pvs.h"

#include <algorithm>

namespace shallot {

BouncePvs BouncePvs::of(const BspTree& tree, const TreePvs& pvs) {
    return BouncePvs(tree, pvs.pose, [&pvs](int32_t leaf) { return pvs.clustersOf(leaf); }, pvs.clusterPvs);
}

BouncePvs BouncePvs::of(const BspTree& tree, const SightPvs& pvs) {
    return BouncePvs(tree, pvs.pose(), [&pvs](int32_t leaf) { return pvs.onion().clustersOf(leaf); }, pvs.clusterPvs());
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

std::vector<int32_t> BouncePvs::clustersAround(const Vec3& centre) const {
    std::vector<int32_t> out;
    for (const int32_t leaf : leavesAround(centre))
        for (const int32_t c : clustersOf_(leaf)) out.push_back(c);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<uint64_t> BouncePvs::seenFrom(const std::vector<int32_t>& clusters) const {
    if (clusters.empty()) return {};
    std::vector<uint64_t> seen(clusterPvs_.words(), 0);
    for (const int32_t c : clusters) {
        const uint64_t* row = clusterPvs_.row(c);
        for (size_t w = 0; w < seen.size(); ++w) seen[w] |= row[w];
    }
    return seen;
}

} // namespace shallot

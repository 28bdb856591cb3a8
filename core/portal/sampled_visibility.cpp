#include "portal/sampled_visibility.h"

#include "compile/parallel_for.h"
#include "portal/reachability.h"
#include "query/trace.h"

namespace shallot {

PotentiallyVisibleSet sampledPvs(const BspTree& tree, const SampledPvsSettings& settings) {
    const size_t leaves = tree.leafCount();
    const int pose = settings.pose;
    const std::vector<bool> outside = reachableFromOutside(tree, pose);
    // Each leaf's samples: on every portal open for the pose, moved into the leaf.
    std::vector<std::vector<Vec3>> samples(leaves);
    for (size_t i = 0; i < tree.portals.size(); ++i) {
        const Portal& p = tree.portals[i];
        if (!((p.poses >> pose) & 1u) || outside[size_t(p.front)] || outside[size_t(p.back)]) continue;
        const std::span<const Vec3> v = tree.portals.vertices(i);
        Vec3 centre = Vec3::Zero();
        for (const Vec3& x : v) centre += x;
        centre /= double(v.size());
        const Vec3& n = tree.planes[size_t(p.plane)].normal; // towards the front leaf
        std::vector<Vec3> on{centre};
        for (const Vec3& x : v) on.push_back(x + settings.vertexPull * (centre - x));
        // A sample that lands in another leaf (a portal thinner than the move) is dropped.
        for (const Vec3& x : on) {
            if (const Vec3 f = x + kSampleIntoLeaf * n; tree.findLeaf(f) == p.front) samples[size_t(p.front)].push_back(f);
            if (const Vec3 b = x - kSampleIntoLeaf * n; tree.findLeaf(b) == p.back) samples[size_t(p.back)].push_back(b);
        }
    }
    PotentiallyVisibleSet pvs(leaves);
    std::vector<int32_t> inside;
    for (size_t leaf = 0; leaf < leaves; ++leaf) {
        if ((tree.leafSolid[leaf] >> pose) & 1u) continue;
        pvs.set(int32_t(leaf), int32_t(leaf));
        if (!outside[leaf]) inside.push_back(int32_t(leaf));
    }
    // Row a is written by job a only; pairs (a, b > a) are traced once and set both ways
    // after the pass, from a's row.
    parallelFor(inside.size(), settings.threads, [&](size_t ia) {
        throwIfCancelled(settings.cancel);
        const int32_t a = inside[ia];
        for (size_t ib = ia + 1; ib < inside.size(); ++ib) {
            const int32_t b = inside[ib];
            bool seen = false;
            for (const Vec3& from : samples[size_t(a)]) {
                for (const Vec3& to : samples[size_t(b)]) {
                    const TraceResult t = traceSegment(tree, pose, from, to);
                    if (!t.startSolid && !t.hit) {
                        seen = true;
                        break;
                    }
                }
                if (seen) break;
            }
            if (seen) pvs.set(a, b);
        }
    });
    for (const int32_t a : inside)
        for (const int32_t b : pvs.leavesFrom(a)) pvs.set(b, a);
    return pvs;
}

} // namespace shallot

#include "query/point_visibility.h"

#include "query/trace_batch.h"

namespace shallot {

namespace {

PointVisibility visibilityOf(const BspTree& tree, int sight, const TreePvs* pvs, const Vec3& from, const Vec3& to,
                             const TraceResult& trace) {
    PointVisibility v;
    v.fromLeaf = tree.findLeaf(from);
    v.toLeaf = tree.findLeaf(to);
    v.clear = !trace.startSolid && !trace.hit;
    const auto solid = [&](int32_t leaf) { return (tree.leafSolid[size_t(leaf)] >> sight) & 1u; };
    v.pvsKnown = pvs && !solid(v.fromLeaf) && !solid(v.toLeaf);
    if (v.pvsKnown) v.pvs = pvs->visible(v.fromLeaf, v.toLeaf);
    return v;
}

} // namespace

PointVisibility pointVisibility(const BspTree& tree, int sight, const TreePvs* pvs, const Vec3& from, const Vec3& to) {
    return visibilityOf(tree, sight, pvs, from, to, traceSegment(tree, sight, from, to));
}

std::vector<PointVisibility> pointVisibilityBatch(const BspTree& tree, int sight, const TreePvs* pvs,
                                                  std::span<const Vec3> from, std::span<const Vec3> to, int threads) {
    std::vector<TraceRequest> requests(from.size());
    for (size_t i = 0; i < from.size(); ++i) requests[i] = {sight, from[i], to[i]};
    const std::vector<TraceResult> traces = traceBatch(tree, requests, threads);
    std::vector<PointVisibility> out(from.size());
    for (size_t i = 0; i < from.size(); ++i) out[i] = visibilityOf(tree, sight, pvs, from[i], to[i], traces[i]);
    return out;
}

} // namespace shallot

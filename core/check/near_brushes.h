#pragma once
// The brushes near a box, with the planes the exact per-brush tests of the spawn checks
// need, prepared only for the brushes a query comes near.
#include "query/box_trace.h"
#include "world/world.h"

#include <optional>
#include <vector>

namespace shallot {

// Gives, for a box in world coordinates, the valid solid and clip brushes whose bounds
// overlap it, as BoxTraceBrush (its planes are expandedPlanes(geometry, point pose), so
// adding poseSupport(box, normal) gives the planes of any box, as in box_trace.h).
//
// With a compiled tree, only the few entities the tree puts in solid need brushes; building
// every brush's geometry (BoxTraceWorld::build, about 20 ms on a 3,000-brush level) would
// cost more than all the checks. So the first queries scan cheap bounds (from a brush's
// axial sides; the world box on an axis without one) and build only the brushes they meet.
// After kLinearQueries queries, or when traceWorld() is asked for (box sweeps without a
// tree), the whole BoxTraceWorld is built and its AABB tree answers instead.
class NearBrushes {
public:
    static constexpr int kLinearQueries = 64;

    explicit NearBrushes(const World& world);

    // visit(const BoxTraceBrush&, const Plane* planes): planes[b.firstPlane ...].
    template <class Visit>
    void forEach(const Aabb& box, const Visit& visit);

    const BoxTraceWorld& traceWorld(); // built on first use

private:
    struct Entry {
        Aabb bounds;          // cheap bounds until built, then the brush's own
        bool built = false;
        bool usable = false;  // valid, and solid or clip
        BoxTraceBrush brush;  // when built and usable; planes in planes_
    };
    void build(size_t index);

    const World& world_;
    std::vector<Entry> entries_;
    std::vector<Plane> planes_;
    std::optional<BoxTraceWorld> traceWorld_;
    int queries_ = 0;
};

template <class Visit>
void NearBrushes::forEach(const Aabb& box, const Visit& visit) {
    if (!traceWorld_ && ++queries_ > kLinearQueries) traceWorld();
    if (traceWorld_) {
        const BoxTraceWorld& w = *traceWorld_;
        if (w.nodes.empty()) return;
        std::vector<uint32_t> stack{0};
        while (!stack.empty()) {
            const uint32_t self = stack.back();
            const BoxTraceNode& node = w.nodes[self];
            stack.pop_back();
            if (!box.overlaps(node.bounds)) continue;
            if (node.count == 0) {
                stack.push_back(node.second);
                stack.push_back(self + 1);
                continue;
            }
            for (uint32_t i = node.first; i < node.first + node.count; ++i) {
                const BoxTraceBrush& b = w.brushes[w.order[i]];
                if (box.overlaps(b.bounds)) visit(b, w.planes.data());
            }
        }
        return;
    }
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (!box.overlaps(entries_[i].bounds)) continue;
        if (!entries_[i].built) {
            build(i);
            if (!box.overlaps(entries_[i].bounds)) continue;
        }
        if (entries_[i].usable) visit(entries_[i].brush, planes_.data());
    }
}

} // namespace shallot

#include "query/point_classify.h"

#include <cassert>

namespace shallot {

void classifyPoints(const BspTree& tree, std::span<const Vec3> points, std::span<uint64_t> out) {
    assert(out.size() == points.size());
    const size_t count = points.size();
    if (isLeaf(tree.root)) {
        for (size_t i = 0; i < count; ++i) out[i] = tree.leafSolid[size_t(leafIndex(tree.root))];
        return;
    }
    const BspNode* nodes = tree.nodes.data();
    const Plane* planes = tree.planes.data();
    ChildRef at[kClassifyLanes];
    size_t point[kClassifyLanes];
    int active = 0;
    size_t next = 0;
    for (; active < kClassifyLanes && next < count; ++active, ++next) {
        at[active] = tree.root;
        point[active] = next;
    }
    while (active > 0) {
        for (int lane = 0; lane < active;) {
            const BspNode& n = nodes[size_t(at[lane])];
            const ChildRef child = childAt(n, planes[size_t(n.plane)].signedDistance(points[point[lane]]));
            if (!isLeaf(child)) {
                at[lane++] = child;
                continue;
            }
            out[point[lane]] = tree.leafSolid[size_t(leafIndex(child))];
            if (next < count) { // the lane takes the next point
                at[lane] = tree.root;
                point[lane++] = next++;
            } else { // no points left: the last active lane moves here
                --active;
                at[lane] = at[active];
                point[lane] = point[active];
            }
        }
    }
}

} // namespace shallot

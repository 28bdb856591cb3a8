#include "compile/bsp_tree.h"

#include <algorithm>

namespace shallot {

int BspTree::depth() const {
    int deepest = 0;
    for (const LeafInfo& l : leaves) deepest = std::max(deepest, int(l.depth));
    return deepest;
}

size_t BspTree::bytes() const {
    size_t b = planes.size() * sizeof(Plane) + nodes.size() * sizeof(BspNode) +
               leafSolid.size() * sizeof(uint64_t) + leaves.size() * sizeof(LeafInfo) + polygons.bytes();
    return b;
}

Aabb BspTree::polygonBounds() const {
    Aabb box;
    for (const LeafPolygon& p : polygons)
        for (const Vec3& v : polygons.vertices(p)) box.add(v);
    return box;
}

} // namespace shallot

#include "compile/bsp_builder.h"

#include "geometry/tolerances.h"

namespace shallot {

namespace {

struct Builder {
    const std::vector<Plane>& planes;
    const LeafSolidity& leafSolidity;
    const SplitterParams& params;
    const CancelToken* cancel;
    bool carryCells;
    BspTree& tree;
    BuildStats stats;

    ChildRef makeLeaf(std::vector<BuildPolygon>& polygons, const ConvexPolyhedron& cell, bool fromBack, int depth) {
        LeafInfo info;
        info.depth = uint16_t(depth);
        info.firstPolygon = uint32_t(tree.polygons.size());
        info.polygonCount = uint32_t(polygons.size());
        for (BuildPolygon& p : polygons)
            tree.polygons.push_back({std::move(p.polygon), p.plane, p.pose, p.brush});
        const uint64_t solid = leafSolidity({carryCells ? &cell : nullptr, fromBack, depth}, info);
        tree.leafSolid.push_back(solid);
        tree.leaves.push_back(info);
        return leafRef(int32_t(tree.leaves.size() - 1));
    }

    ChildRef build(std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth) {
        throwIfCancelled(cancel);
        if (depth > kMaxTreeDepth) throw TreeTooDeep();
        const std::optional<PlaneId> splitter = chooseSplitter(polygons, planes, params);
        if (!splitter) return makeLeaf(polygons, cell, fromBack, depth);

        ConvexPolyhedron frontCell, backCell;
        if (carryCells) {
            SplitPolyhedron s = split(cell, planes[size_t(*splitter)], *splitter, kOnPlaneEpsilon);
            if (s.front.empty() || s.back.empty()) {
                // The plane misses the cell (its polygons lie on the cell's boundary): a
                // node here would only add an empty leaf. Retire the plane and go on.
                for (BuildPolygon& p : polygons)
                    if (sameSurface(p.plane, *splitter)) p.splitCandidate = false;
                return build(std::move(polygons), std::move(cell), fromBack, depth);
            }
            frontCell = std::move(s.front);
            backCell = std::move(s.back);
            cell = {};
        }
        Partition parts = partition(std::move(polygons), *splitter, planes);
        stats.splits += parts.splits;
        const int32_t index = int32_t(tree.nodes.size());
        tree.nodes.push_back({*splitter, 0, 0});
        const ChildRef front = build(std::move(parts.front), std::move(frontCell), false, depth + 1);
        const ChildRef back = build(std::move(parts.back), std::move(backCell), true, depth + 1);
        tree.nodes[size_t(index)].front = front;
        tree.nodes[size_t(index)].back = back;
        return index;
    }
};

} // namespace

BspTree buildBspTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, std::vector<Pose> poses,
                     const Aabb& bounds, bool carryCells, const LeafSolidity& leafSolidity,
                     const SplitterParams& params, const CancelToken* cancel, BuildStats* stats) {
    BspTree tree;
    tree.poses = std::move(poses);
    tree.planes = planes;
    tree.bounds = bounds;
    Builder b{planes, leafSolidity, params, cancel, carryCells, tree, {}};
    ConvexPolyhedron root = carryCells ? boxPolyhedron(bounds, -1) : ConvexPolyhedron{};
    tree.root = b.build(std::move(polygons), std::move(root), false, 0);
    if (stats) stats->splits += b.stats.splits;
    return tree;
}

} // namespace shallot

#include "portal/leaf_cells.h"

#include "geometry/tolerances.h"
#include "world/world.h"

#include <algorithm>

namespace shallot {

Aabb treeBox(const BspTree& tree) { return tree.bounds.empty() ? defaultWorldBounds() : tree.bounds; }

void visitCells(const BspTree& tree, const CellVisitor& visitor) {
    std::vector<bool> visited(tree.nodes.size(), false);
    std::vector<std::pair<ChildRef, ConvexPolyhedron>> stack;
    stack.emplace_back(tree.root, boxPolyhedron(treeBox(tree), kWorldBoxFace));
    while (!stack.empty()) {
        auto [ref, cell] = std::move(stack.back());
        stack.pop_back();
        if (isLeaf(ref)) {
            if (visitor.leaf) visitor.leaf(leafIndex(ref), std::move(cell));
            continue;
        }
        if (visited[size_t(ref)]) continue;
        visited[size_t(ref)] = true;
        const BspNode& n = tree.nodes[size_t(ref)];
        // The same epsilon as the builder's, so a compiled tree's cells come out exactly
        // as they were when its leaves were classified.
        SplitPolyhedron halves = split(cell, tree.planes[size_t(n.plane)], n.plane, kOnPlaneEpsilon);
        Polygon section;
        // split() tags both caps with the plane id; the front cap faces along the flip.
        auto cap = [&](ConvexPolyhedron& half) {
            auto it = std::find_if(half.faces.rbegin(), half.faces.rend(),
                                   [&](const ConvexFace& f) { return f.tag == n.plane; });
            return it == half.faces.rend() ? nullptr : &*it;
        };
        if (!halves.front.empty() && !halves.back.empty()) {
            if (ConvexFace* f = cap(halves.back)) section = f->polygon;
            if (ConvexFace* f = cap(halves.front)) f->tag = n.plane ^ 1;
        }
        if (visitor.node) visitor.node(ref, cell, section);
        stack.emplace_back(n.back, std::move(halves.back));
        stack.emplace_back(n.front, std::move(halves.front)); // popped first: pre-order
    }
}

LeafCellList leafCells(const BspTree& tree) {
    std::vector<ConvexPolyhedron> cells(tree.leaves.size());
    visitCells(tree, {nullptr, [&](int32_t leaf, ConvexPolyhedron&& cell) {
                          if (size_t(leaf) < cells.size()) cells[size_t(leaf)] = std::move(cell);
                      }});
    LeafCellList list;
    list.reserve(cells.size());
    for (ConvexPolyhedron& c : cells) list.push_back(std::move(c));
    return list;
}

} // namespace shallot

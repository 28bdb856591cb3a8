#include "compile/node_portals.h"

#include "compile/parallel_for.h"
#include "geometry/tolerances.h"
#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"

#include <algorithm>

namespace shallot {

namespace {

// With several threads the top levels are walked first, down to about this many subtrees
// per thread, which are then walked in parallel.
constexpr size_t kSubtreesPerThread = 16;

// Splits a node's cell as visitCells does: the halves for its children (the front cap
// tagged with the flipped plane) and the section on its plane.
struct CellSplit {
    ConvexPolyhedron front, back;
    Polygon section;
};
CellSplit splitCell(const BspTree& tree, int32_t node, const ConvexPolyhedron& cell) {
    const BspNode& n = tree.nodes[size_t(node)];
    SplitPolyhedron halves = split(cell, tree.planes[size_t(n.plane)], n.plane, kOnPlaneEpsilon);
    CellSplit out;
    auto cap = [&](ConvexPolyhedron& half) {
        auto it = std::find_if(half.faces.rbegin(), half.faces.rend(), [&](const ConvexFace& f) { return f.tag == n.plane; });
        return it == half.faces.rend() ? nullptr : &*it;
    };
    if (!halves.front.empty() && !halves.back.empty()) {
        if (ConvexFace* f = cap(halves.back)) out.section = f->polygon;
        if (ConvexFace* f = cap(halves.front)) f->tag = n.plane ^ 1;
    }
    out.front = std::move(halves.front);
    out.back = std::move(halves.back);
    return out;
}

class PortalWalk {
public:
    PortalWalk(const BspTree& tree, const std::vector<int32_t>* nodeSource)
        : tree_(tree), nodeSource_(nodeSource), byNode_(tree.nodes.size()) {}

    void run(int threads) {
        if (isLeaf(tree_.root)) return;
        std::vector<Task> tasks{{tree_.root, boxPolyhedron(treeBox(tree_), kWorldBoxFace)}};
        const size_t wanted = threads > 1 ? size_t(threads) * kSubtreesPerThread : 1;
        // Breadth first until there are enough subtrees to share out.
        for (size_t i = 0; i < tasks.size() && tasks.size() - i < wanted; ++i) {
            Task t = std::move(tasks[i]);
            tasks[i].ref = leafRef(0); // done
            expand(std::move(t), tasks);
        }
        std::erase_if(tasks, [](const Task& t) { return isLeaf(t.ref); });
        parallelFor(tasks.size(), threads, [&](size_t i) {
            std::vector<Task> stack{std::move(tasks[i])};
            while (!stack.empty()) {
                Task t = std::move(stack.back());
                stack.pop_back();
                expand(std::move(t), stack);
            }
        });
    }

    std::vector<std::vector<Portal>>& byNode() { return byNode_; }

private:
    struct Task {
        ChildRef ref;
        ConvexPolyhedron cell;
    };

    bool generated(ChildRef r) const { return !isLeaf(r) && (!nodeSource_ || (*nodeSource_)[size_t(r)] < 0); }

    // The node's portals; its children to generate are added to `more`.
    void expand(Task t, std::vector<Task>& more) {
        if (!generated(t.ref)) return;
        CellSplit s = splitCell(tree_, t.ref, t.cell);
        appendNodePortals(tree_, t.ref, s.section, byNode_[size_t(t.ref)]);
        const BspNode& n = tree_.nodes[size_t(t.ref)];
        if (generated(n.back)) more.push_back({n.back, std::move(s.back)});
        if (generated(n.front)) more.push_back({n.front, std::move(s.front)});
    }

    const BspTree& tree_;
    const std::vector<int32_t>* nodeSource_;
    std::vector<std::vector<Portal>> byNode_;
};

std::vector<Portal> concatenate(std::vector<std::vector<Portal>>& byNode, std::vector<uint32_t>& first) {
    std::vector<Portal> out;
    first.assign(byNode.size(), 0);
    size_t total = 0;
    for (const auto& v : byNode) total += v.size();
    out.reserve(total);
    for (size_t n = 0; n < byNode.size(); ++n) {
        first[n] = uint32_t(out.size());
        std::move(byNode[n].begin(), byNode[n].end(), std::back_inserter(out));
    }
    return out;
}

} // namespace

std::vector<Portal> generateNodePortals(const BspTree& tree, int threads, std::vector<uint32_t>& first) {
    PortalWalk walk(tree, nullptr);
    walk.run(threads);
    return concatenate(walk.byNode(), first);
}

std::vector<Portal> updateNodePortals(const BspTree& tree, const PortalReuse& reuse, int threads,
                                      std::vector<uint32_t>& first) {
    PortalWalk walk(tree, &reuse.nodeSource);
    walk.run(threads);
    std::vector<std::vector<Portal>>& byNode = walk.byNode();
    for (size_t n = 0; n < tree.nodes.size(); ++n) {
        const int32_t old = reuse.nodeSource[n];
        if (old < 0) continue;
        const size_t begin = reuse.first[size_t(old)];
        const size_t end = size_t(old) + 1 < reuse.first.size() ? reuse.first[size_t(old) + 1] : reuse.portals.size();
        for (size_t i = begin; i < end; ++i) {
            Portal p = std::move(reuse.portals[i]);
            p.front = reuse.leafOfOld[size_t(p.front)];
            p.back = reuse.leafOfOld[size_t(p.back)];
            byNode[n].push_back(std::move(p));
        }
    }
    return concatenate(byNode, first);
}

} // namespace shallot

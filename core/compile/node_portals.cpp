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

// Room reserved for a one-thread walk's single list, so that it never regrows (see
// kLeafPolygonReserve in bsp_builder.cpp): the Quake maps have 3.8 portals per node and 4
// vertices per portal; pages never written cost no memory.
constexpr size_t kPortalsPerNode = 6, kPortalVertices = 6;

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

// Generates the portals of the nodes to generate, in jobs that each write their own list.
// With several threads the top levels are split first, down to enough subtrees to share
// out; the portals of those top nodes (the root's section crosses the whole map, and an
// update makes every ancestor of an edit again) are jobs of their own, run in parallel with
// the subtrees'. A subtree's job walks it depth first, front child first, i.e. in node order.
class PortalWalk {
public:
    // Where a node's portals are: lists()[list], items begin..end.
    struct Where {
        uint32_t list = 0, begin = 0, end = 0;
    };

    PortalWalk(const BspTree& tree, const std::vector<int32_t>* nodeSource)
        : tree_(tree), nodeSource_(nodeSource), where_(tree.nodes.size()) {}

    void run(int threads) {
        // Below the root only children to generate are queued (split), so this is the one
        // check: a root kept from the previous tree leaves nothing to generate.
        if (!generated(tree_.root)) return;
        std::vector<Task> tasks{{tree_.root, boxPolyhedron(treeBox(tree_), kWorldBoxFace)}};
        std::vector<Section> sections; // of the top nodes
        const size_t wanted = threads > 1 ? size_t(threads) * kSubtreesPerThread : 1;
        if (wanted > 1) {
            // The largest subtree is split until there are enough: subtrees of like sizes
            // share out evenly. Then the largest go first, so none is left to run alone at
            // the end.
            const std::vector<uint32_t> sizes = generatedSubtreeSizes();
            auto larger = [&](const Task& a, const Task& b) { return sizes[size_t(a.ref)] > sizes[size_t(b.ref)]; };
            while (!tasks.empty() && tasks.size() < wanted) {
                const auto largest = std::min_element(tasks.begin(), tasks.end(), larger);
                if (sizes[size_t(largest->ref)] < 2) break;
                Task t = std::move(*largest);
                tasks.erase(largest);
                sections.push_back({t.ref, split(std::move(t), tasks)});
            }
            std::stable_sort(tasks.begin(), tasks.end(), larger);
        }
        lists_.resize(sections.size() + tasks.size());
        if (lists_.size() == 1 && !nodeSource_) // a whole tree's portals, in one list
            lists_[0].reserve(kPortalsPerNode * tree_.nodes.size(), kPortalVertices * kPortalsPerNode * tree_.nodes.size());
        parallelFor(lists_.size(), threads, [&](size_t job) {
            if (job < sections.size()) {
                generate(sections[job].node, sections[job].polygon, job);
                return;
            }
            std::vector<Task> stack{std::move(tasks[job - sections.size()])};
            while (!stack.empty()) {
                Task t = std::move(stack.back());
                stack.pop_back();
                const int32_t node = t.ref;
                const Polygon section = split(std::move(t), stack);
                generate(node, section, job);
            }
        });
    }

    // Per node, the nodes to generate in its subtree (children come after their parent).
    std::vector<uint32_t> generatedSubtreeSizes() const {
        std::vector<uint32_t> sizes(tree_.nodes.size(), 0);
        for (size_t n = tree_.nodes.size(); n-- > 0;) {
            if (!generated(int32_t(n))) continue;
            const BspNode& node = tree_.nodes[n];
            sizes[n] = 1;
            for (ChildRef c : {node.front, node.back})
                if (!isLeaf(c)) sizes[n] += sizes[size_t(c)];
        }
        return sizes;
    }

    bool generated(ChildRef r) const { return !isLeaf(r) && (!nodeSource_ || (*nodeSource_)[size_t(r)] < 0); }
    const Where& where(size_t node) const { return where_[node]; }
    std::vector<Portals>& lists() { return lists_; }

private:
    struct Task {
        ChildRef ref;
        ConvexPolyhedron cell;
    };
    struct Section {
        int32_t node;
        Polygon polygon;
    };

    // Splits the node's cell: its children to generate are added to `more`; returns the
    // section on its plane.
    Polygon split(Task t, std::vector<Task>& more) const {
        CellSplit s = splitCell(tree_, t.ref, t.cell);
        const BspNode& n = tree_.nodes[size_t(t.ref)];
        if (generated(n.back)) more.push_back({n.back, std::move(s.back)});
        if (generated(n.front)) more.push_back({n.front, std::move(s.front)});
        return std::move(s.section);
    }

    void generate(int32_t node, const Polygon& section, size_t list) {
        Portals& out = lists_[list];
        const uint32_t begin = uint32_t(out.size());
        appendNodePortals(tree_, node, section, out);
        where_[size_t(node)] = {uint32_t(list), begin, uint32_t(out.size())};
    }

    const BspTree& tree_;
    const std::vector<int32_t>* nodeSource_;
    std::vector<Where> where_;
    std::vector<Portals> lists_;
};

// With one list holding every node's portals in node order (one thread, nothing reused),
// that list is the result: copying it would hold the portals twice at the compile's peak.
bool inNodeOrder(const PortalWalk& walk, size_t nodes, size_t listSize) {
    uint32_t next = 0;
    for (size_t n = 0; n < nodes; ++n) {
        const PortalWalk::Where& w = walk.where(n);
        if (!walk.generated(int32_t(n)) || w.list != 0 || w.begin != next) return false;
        next = w.end;
    }
    return next == listSize;
}

// The portals of every node in node order: those generated, or for a node that copies a
// previous one (reuse), that node's with their leaves renumbered.
Portals concatenate(PortalWalk& walk, size_t nodes, const PortalReuse* reuse, std::vector<uint32_t>& first) {
    std::vector<Portals>& lists = walk.lists();
    first.assign(nodes, 0);
    if (!reuse && lists.size() == 1 && inNodeOrder(walk, nodes, lists[0].size())) {
        for (size_t n = 0; n < nodes; ++n) first[n] = walk.where(n).begin;
        return std::move(lists[0]);
    }
    auto source = [&](size_t n, const Portals*& from) -> std::pair<size_t, size_t> {
        if (walk.generated(int32_t(n))) {
            const PortalWalk::Where& w = walk.where(n);
            from = &lists[w.list];
            return {w.begin, w.end};
        }
        // Not generated: a copy of the previous node old (so reuse is given).
        const size_t old = size_t(reuse->nodeSource[n]);
        from = &reuse->portals;
        const size_t end = old + 1 < reuse->first.size() ? reuse->first[old + 1] : reuse->portals.size();
        return {reuse->first[old], end};
    };
    size_t portals = 0, vertices = 0;
    for (size_t n = 0; n < nodes; ++n) {
        const Portals* from = nullptr;
        const auto [begin, end] = source(n, from);
        vertices += from->vertexTotal(begin, end - begin);
        portals += end - begin;
    }
    Portals out;
    out.reserve(portals, vertices);
    for (size_t n = 0; n < nodes; ++n) {
        first[n] = uint32_t(out.size());
        const Portals* from = nullptr;
        const auto [begin, end] = source(n, from);
        out.appendRange(*from, begin, end - begin);
        if (walk.generated(int32_t(n))) continue;
        for (size_t i = first[n]; i < out.size(); ++i) {
            out[i].front = reuse->leafOfOld[size_t(out[i].front)];
            out[i].back = reuse->leafOfOld[size_t(out[i].back)];
        }
    }
    return out;
}

} // namespace

Portals generateNodePortals(const BspTree& tree, int threads, std::vector<uint32_t>& first) {
    PortalWalk walk(tree, nullptr);
    walk.run(threads);
    return concatenate(walk, tree.nodes.size(), nullptr, first);
}

Portals updateNodePortals(const BspTree& tree, const PortalReuse& reuse, int threads, std::vector<uint32_t>& first) {
    PortalWalk walk(tree, &reuse.nodeSource);
    walk.run(threads);
    return concatenate(walk, tree.nodes.size(), &reuse, first);
}

} // namespace shallot

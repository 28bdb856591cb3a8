#include "compile/bsp_builder.h"

#include "compile/parallel_for.h"
#include "geometry/tolerances.h"

#include <algorithm>
#include <memory>
#include <thread>

namespace shallot {

namespace {

// With several threads the top of the tree is built first, down to subtrees of at most
// total / (threads * kSubtreesPerThread) polygons (and at least kMinSubtreePolygons), so
// that each thread gets several subtrees and an unlucky large one does not leave the
// others idle.
constexpr size_t kSubtreesPerThread = 8;
constexpr size_t kMinSubtreePolygons = 256;

struct NodeSplit {
    PlaneId plane;
    ConvexPolyhedron front, back; // the cell's halves (when cells are carried)
};

class Builder {
public:
    Builder(const BuildContext& context, BspTree& tree, TreeRecord* record)
        : ctx_(context), tree_(tree), record_(record) {}

    // The node's splitter and its cell's halves, or nothing when the node is a leaf. A plane
    // that misses the cell (its polygons lie on the cell's boundary) would only add an empty
    // leaf: it is retired and the choice made again.
    std::optional<NodeSplit> chooseSplit(std::vector<BuildPolygon>& polygons, const ConvexPolyhedron& cell,
                                         int depth) const {
        for (;;) {
            throwIfCancelled(ctx_.cancel);
            if (depth > kMaxTreeDepth) throw TreeTooDeep();
            const std::optional<PlaneId> splitter = chooseSplitter(polygons, ctx_.planes, ctx_.params);
            if (!splitter) return std::nullopt;
            if (!ctx_.carryCells) return NodeSplit{*splitter, {}, {}};
            SplitPolyhedron s = split(cell, ctx_.planes[size_t(*splitter)], *splitter, kOnPlaneEpsilon);
            if (!s.front.empty() && !s.back.empty()) return NodeSplit{*splitter, std::move(s.front), std::move(s.back)};
            for (BuildPolygon& p : polygons) {
                if (!p.splitCandidate || !sameSurface(p.plane, *splitter)) continue;
                p.splitCandidate = false;
                p.retiredDepth = uint16_t(depth);
            }
        }
    }

    ChildRef build(std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth) {
        std::optional<NodeSplit> s = chooseSplit(polygons, cell, depth);
        if (!s) return makeLeaf(polygons, std::move(cell), fromBack, depth);
        cell = {};
        Partition parts = partition(std::move(polygons), s->plane, ctx_.planes, depth);
        stats.splits += parts.splits;
        const int32_t index = addNode(s->plane, parts.support);
        const ChildRef front = build(std::move(parts.front), std::move(s->front), false, depth + 1);
        const ChildRef back = build(std::move(parts.back), std::move(s->back), true, depth + 1);
        tree_.nodes[size_t(index)].front = front;
        tree_.nodes[size_t(index)].back = back;
        return index;
    }

    int32_t addNode(PlaneId plane, std::vector<PolygonSource>& support) {
        if (record_) {
            std::sort(support.begin(), support.end());
            support.erase(std::unique(support.begin(), support.end()), support.end());
            record_->supportFirst.push_back(uint32_t(record_->support.size()));
            record_->support.insert(record_->support.end(), support.begin(), support.end());
        }
        tree_.nodes.push_back({plane, 0, 0});
        return int32_t(tree_.nodes.size() - 1);
    }

    BuildStats stats;

private:
    ChildRef makeLeaf(std::vector<BuildPolygon>& polygons, ConvexPolyhedron&& cell, bool fromBack, int depth) {
        LeafInfo info;
        info.depth = uint16_t(depth);
        info.firstPolygon = uint32_t(tree_.polygons.size());
        info.polygonCount = uint32_t(polygons.size());
        for (BuildPolygon& p : polygons) {
            tree_.polygons.push_back({std::move(p.polygon), p.plane, p.pose, p.brush});
            if (record_) record_->retiredDepth.push_back(p.retiredDepth);
        }
        tree_.leafSolid.push_back(ctx_.leafSolidity({ctx_.carryCells ? &cell : nullptr, fromBack, depth}, info));
        tree_.leaves.push_back(info);
        if (record_ && record_->keepCells) record_->leafCells.push_back(std::move(cell));
        return leafRef(int32_t(tree_.leaves.size() - 1));
    }

    const BuildContext& ctx_;
    BspTree& tree_;
    TreeRecord* record_;
};

// Appends `part` (a tree of its own, with its record) to `tree`; returns its root there.
ChildRef appendTree(BspTree& tree, TreeRecord* record, BspTree&& part, TreeRecord&& partRecord, ChildRef root) {
    const int32_t nodeOffset = int32_t(tree.nodes.size()), leafOffset = int32_t(tree.leaves.size());
    const uint32_t polygonOffset = uint32_t(tree.polygons.size());
    auto shift = [&](ChildRef r) { return isLeaf(r) ? leafRef(leafIndex(r) + leafOffset) : r + nodeOffset; };
    for (const BspNode& n : part.nodes) tree.nodes.push_back({n.plane, shift(n.front), shift(n.back)});
    for (LeafInfo& l : part.leaves) {
        l.firstPolygon += polygonOffset;
        tree.leaves.push_back(l);
    }
    tree.leafSolid.insert(tree.leafSolid.end(), part.leafSolid.begin(), part.leafSolid.end());
    std::move(part.polygons.begin(), part.polygons.end(), std::back_inserter(tree.polygons));
    if (record) {
        const uint32_t supportOffset = uint32_t(record->support.size());
        for (uint32_t first : partRecord.supportFirst) record->supportFirst.push_back(first + supportOffset);
        record->support.insert(record->support.end(), partRecord.support.begin(), partRecord.support.end());
        record->retiredDepth.insert(record->retiredDepth.end(), partRecord.retiredDepth.begin(),
                                    partRecord.retiredDepth.end());
        record->leafCells.append(partRecord.leafCells);
    }
    return shift(root);
}

// The top of a tree built before its subtrees, as pieces: nodes, and subtrees built on
// the thread pool into trees of their own, then stitched together in pre-order.
struct TopPiece {
    // A node: its splitter and children.
    PlaneId plane = 0;
    std::vector<PolygonSource> support;
    std::unique_ptr<TopPiece> front, back;
    size_t splits = 0;
    // A subtree: its inputs, then its tree.
    std::vector<BuildPolygon> polygons;
    ConvexPolyhedron cell;
    bool fromBack = false;
    int depth = 0;
    BspTree tree;
    TreeRecord record;
    ChildRef root = 0;

    bool isNode() const { return front != nullptr; }
};

class ParallelBuild {
public:
    ParallelBuild(const BuildContext& context, BspTree& tree, TreeRecord* record, size_t subtreePolygons)
        : ctx_(context), tree_(tree), record_(record), subtreePolygons_(subtreePolygons),
          chooser_(context, tree, nullptr) {}

    ChildRef run(std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, int threads) {
        const std::unique_ptr<TopPiece> root = splitTop(std::move(polygons), std::move(cell), false, 0, threads);
        std::vector<TopPiece*> subtrees;
        collect(*root, subtrees);
        // Largest first, so that the last jobs to start are short ones.
        std::stable_sort(subtrees.begin(), subtrees.end(),
                         [](const TopPiece* a, const TopPiece* b) { return a->polygons.size() > b->polygons.size(); });
        std::vector<BuildStats> subtreeStats(subtrees.size());
        parallelFor(subtrees.size(), threads, [&](size_t i) {
            TopPiece& piece = *subtrees[i];
            piece.record.keepCells = record_ && record_->keepCells;
            Builder b(ctx_, piece.tree, record_ ? &piece.record : nullptr);
            piece.root = b.build(std::move(piece.polygons), std::move(piece.cell), piece.fromBack, piece.depth);
            subtreeStats[i] = b.stats;
        });
        for (const BuildStats& s : subtreeStats) stats.splits += s.splits;
        return emit(*root);
    }

    BuildStats stats;

private:
    // Splits down to subtrees of at most subtreePolygons_. With forks > 1 the two halves of
    // a node are split on two threads (the top's first levels are most of its work).
    std::unique_ptr<TopPiece> splitTop(std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack,
                                       int depth, int forks) {
        auto piece = std::make_unique<TopPiece>();
        std::optional<NodeSplit> s;
        if (polygons.size() > subtreePolygons_) s = chooser_.chooseSplit(polygons, cell, depth);
        if (!s) {
            piece->polygons = std::move(polygons);
            piece->cell = std::move(cell);
            piece->fromBack = fromBack;
            piece->depth = depth;
            return piece;
        }
        cell = {};
        Partition parts = partition(std::move(polygons), s->plane, ctx_.planes, depth);
        piece->plane = s->plane;
        piece->support = std::move(parts.support);
        piece->splits = parts.splits;
        auto front = [&, forks] {
            return splitTop(std::move(parts.front), std::move(s->front), false, depth + 1, forks / 2);
        };
        auto back = [&, forks] {
            return splitTop(std::move(parts.back), std::move(s->back), true, depth + 1, forks - forks / 2);
        };
        if (forks <= 1) {
            piece->front = front();
            piece->back = back();
            return piece;
        }
        std::exception_ptr frontError;
        std::thread other([&] {
            try {
                piece->front = front();
            } catch (...) {
                frontError = std::current_exception();
            }
        });
        try {
            piece->back = back();
        } catch (...) {
            other.join();
            throw;
        }
        other.join();
        if (frontError) std::rethrow_exception(frontError);
        return piece;
    }

    void collect(TopPiece& piece, std::vector<TopPiece*>& subtrees) {
        if (!piece.isNode()) {
            subtrees.push_back(&piece);
            return;
        }
        stats.splits += piece.splits;
        collect(*piece.front, subtrees);
        collect(*piece.back, subtrees);
    }

    ChildRef emit(TopPiece& piece) {
        if (!piece.isNode()) return appendTree(tree_, record_, std::move(piece.tree), std::move(piece.record), piece.root);
        Builder node(ctx_, tree_, record_);
        const int32_t at = node.addNode(piece.plane, piece.support);
        const ChildRef front = emit(*piece.front);
        const ChildRef back = emit(*piece.back);
        tree_.nodes[size_t(at)].front = front;
        tree_.nodes[size_t(at)].back = back;
        return at;
    }

    const BuildContext& ctx_;
    BspTree& tree_;
    TreeRecord* record_;
    size_t subtreePolygons_;
    Builder chooser_; // for chooseSplit only (const, safe on several threads)
};

} // namespace

ChildRef buildSubtree(const BuildContext& context, BspTree& tree, TreeRecord* record,
                      std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth,
                      BuildStats* stats) {
    Builder b(context, tree, record);
    const ChildRef root = b.build(std::move(polygons), std::move(cell), fromBack, depth);
    if (stats) stats->splits += b.stats.splits;
    return root;
}

BspTree buildBspTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, std::vector<Pose> poses,
                     const Aabb& bounds, bool carryCells, const LeafSolidity& leafSolidity,
                     const SplitterParams& params, const CancelToken* cancel, BuildStats* stats, int threads,
                     TreeRecord* record) {
    BspTree tree;
    tree.poses = std::move(poses);
    tree.planes = planes;
    tree.bounds = bounds;
    const BuildContext context{planes, leafSolidity, params, cancel, carryCells};
    ConvexPolyhedron root = carryCells ? boxPolyhedron(bounds, -1) : ConvexPolyhedron{};
    const size_t subtreePolygons =
        std::max(kMinSubtreePolygons, polygons.size() / (size_t(std::max(1, threads)) * kSubtreesPerThread));
    if (threads <= 1 || polygons.size() <= subtreePolygons) {
        tree.root = buildSubtree(context, tree, record, std::move(polygons), std::move(root), false, 0, stats);
        return tree;
    }
    ParallelBuild build(context, tree, record, subtreePolygons);
    tree.root = build.run(std::move(polygons), std::move(root), threads);
    if (stats) stats->splits += build.stats.splits;
    return tree;
}

} // namespace shallot

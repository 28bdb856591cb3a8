#include "compile/bsp_builder.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

namespace shallot {

namespace {

// With several threads a tree is split into pieces down to subtrees of at most
// total / (threads * kSubtreesPerThread) polygons (and at least kMinSubtreePolygons), so
// that each thread gets several subtrees and an unlucky large one does not leave the
// others idle.
constexpr size_t kSubtreesPerThread = 8;
constexpr size_t kMinSubtreePolygons = 256;

// A tree's leaf polygons are its input polygons cut by the splitters: about 1.5 times as
// many on the Quake maps. Their arrays are reserved for kLeafPolygonReserve times the input
// so that they never regrow while the tree is built: regrown, the arrays left behind stay
// with tcmalloc, which keeps freed blocks (id_e1m1's compile peaked at 69 MB instead of
// 64). Pages never written cost no memory.
constexpr size_t kLeafPolygonReserve = 2;

void reserveLeafPolygons(BspTree& tree, const std::vector<BuildPolygon>& input) {
    size_t vertices = 0;
    for (const BuildPolygon& p : input) vertices += p.polygon.vertices.size();
    tree.polygons.reserve(kLeafPolygonReserve * input.size(), kLeafPolygonReserve * vertices);
}

// The node counts of a greedy subtree counted by a lookahead, and of every subtree in it:
// entries in pre-order, one per node (its subtree's node count) and one per leaf (0). No
// entries: not counted.
struct GreedyCounts {
    std::shared_ptr<const std::vector<uint32_t>> entries;
    size_t at = 0;

    bool counted() const { return entries && (*entries)[at] > 0; }
    size_t nodes() const { return (*entries)[at]; }
    GreedyCounts front() const { return {entries, at + 1}; }
    GreedyCounts back() const { return {entries, at + 2 + 2 * size_t((*entries)[at + 1])}; }
};

struct NodeSplit {
    PlaneId plane;
    ConvexPolyhedron front, back; // the cell's halves (when cells are carried)
    // The greedy subtrees on either side, when a lookahead counted them.
    GreedyCounts frontCounts, backCounts;
};

class Builder {
public:
    Builder(const BuildContext& context, BspTree& tree, TreeRecord* record)
        : ctx_(context), tree_(tree), record_(record) {}

    // The node's splitter and its cell's halves, or nothing when the node is a leaf. A plane
    // that misses the cell (its polygons lie on the cell's boundary) would only add an empty
    // leaf: it is retired and the choice made again.
    //
    // Nodes with few live polygons (SplitterParams::lookaheadBelow) look ahead: of the best
    // few splitters by score, the one whose children's greedy subtrees have the fewest nodes
    // wins (a pilot method; the score alone is myopic). `greedy`, when given, is this node's
    // greedy subtree as an ancestor's lookahead counted it: its first splitter's count is known.
    std::optional<NodeSplit> chooseSplit(std::vector<BuildPolygon>& polygons, const ConvexPolyhedron& cell, int depth,
                                         GreedyCounts greedy = {}) const {
        for (;;) {
            throwIfCancelled(ctx_.cancel);
            if (depth > kMaxTreeDepth) throw TreeTooDeep();
            // (liveCount walks the polygons: only when the lookahead is on.)
            const bool lookahead = ctx_.carryCells && ctx_.params.lookaheadBelow > 0 &&
                                   ctx_.params.lookaheadCandidates > 1 &&
                                   liveCount(polygons) <= ctx_.params.lookaheadBelow;
            const std::vector<PlaneId> ranked =
                rankSplitters(polygons, ctx_.planes, ctx_.params, depth, lookahead ? ctx_.params.lookaheadCandidates : 1);
            if (ranked.empty()) return std::nullopt;
            if (!ctx_.carryCells) return NodeSplit{ranked[0], {}, {}, {}, {}};
            SplitPolyhedron halves = split(cell, ctx_.planes[size_t(ranked[0])], ranked[0], kOnPlaneEpsilon);
            if (halves.front.empty() || halves.back.empty()) {
                for (BuildPolygon& p : polygons) {
                    if (!p.splitCandidate || !sameSurface(p.plane, ranked[0])) continue;
                    p.splitCandidate = false;
                    p.retiredDepth = uint16_t(depth);
                }
                greedy = {};
                continue;
            }
            NodeSplit best{ranked[0], std::move(halves.front), std::move(halves.back), {}, {}};
            if (ranked.size() > 1) lookAhead(best, polygons, ranked, cell, depth, greedy);
            return best;
        }
    }

    // Replaces `best` (the best-scored splitter, ranked[0]) by the ranked splitter whose
    // greedy subtree has the fewest nodes (the first of equals), with those subtrees' counts.
    void lookAhead(NodeSplit& best, const std::vector<BuildPolygon>& polygons, const std::vector<PlaneId>& ranked,
                   const ConvexPolyhedron& cell, int depth, const GreedyCounts& greedy) const {
        size_t bestNodes = std::numeric_limits<size_t>::max();
        size_t first = 0;
        if (greedy.counted()) { // ranked[0]'s subtree, counted already
            bestNodes = greedy.nodes();
            best.frontCounts = greedy.front();
            best.backCounts = greedy.back();
            first = 1;
        }
        for (size_t i = first; i < ranked.size(); ++i) {
            const GreedyCounts counts = countWithSplitter(polygons, ranked[i], depth, bestNodes);
            if (!counts.counted()) continue;
            if (i > 0) {
                SplitPolyhedron h = split(cell, ctx_.planes[size_t(ranked[i])], ranked[i], kOnPlaneEpsilon);
                if (h.front.empty() || h.back.empty()) continue;
                best = NodeSplit{ranked[i], std::move(h.front), std::move(h.back), {}, {}};
            }
            bestNodes = counts.nodes();
            best.frontCounts = counts.front();
            best.backCounts = counts.back();
        }
    }

    static size_t liveCount(const std::vector<BuildPolygon>& polygons) {
        size_t n = 0;
        for (const BuildPolygon& p : polygons) n += p.splitCandidate;
        return n;
    }

    // The greedy subtree with `splitter` at its root, counted, when it has fewer than `limit`
    // nodes (else not counted).
    GreedyCounts countWithSplitter(const std::vector<BuildPolygon>& polygons, PlaneId splitter, int depth,
                                   size_t limit) const {
        if (limit <= 1) return {};
        auto entries = std::make_shared<std::vector<uint32_t>>(1, 0);
        Partition parts = partition(std::vector<BuildPolygon>(polygons), splitter, ctx_.planes, depth);
        size_t nodes = 1 + countNodes(std::move(parts.front), depth + 1, limit - 1, *entries);
        if (nodes >= limit) return {};
        nodes += countNodes(std::move(parts.back), depth + 1, limit - nodes, *entries);
        if (nodes >= limit) return {};
        (*entries)[0] = uint32_t(nodes);
        return GreedyCounts{std::move(entries), 0};
    }

    // Nodes of the greedy subtree (no lookahead; cells not carried, which changes the count
    // only where a splitter grazes the cell), its counts appended to `entries`; or some
    // count >= limit once it reaches it (the entries are then incomplete).
    size_t countNodes(std::vector<BuildPolygon> polygons, int depth, size_t limit, std::vector<uint32_t>& entries) const {
        const size_t at = entries.size();
        entries.push_back(0);
        const std::optional<PlaneId> s = chooseSplitter(polygons, ctx_.planes, ctx_.params, depth);
        if (!s) return 0;
        Partition parts = partition(std::move(polygons), *s, ctx_.planes, depth);
        size_t nodes = 1;
        if (nodes >= limit) return nodes;
        nodes += countNodes(std::move(parts.front), depth + 1, limit - nodes, entries);
        if (nodes >= limit) return nodes;
        nodes += countNodes(std::move(parts.back), depth + 1, limit - nodes, entries);
        entries[at] = uint32_t(nodes);
        return nodes;
    }

    ChildRef build(std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth,
                   GreedyCounts greedy = {}) {
        std::optional<NodeSplit> s = chooseSplit(polygons, cell, depth, std::move(greedy));
        if (!s) return makeLeaf(polygons, std::move(cell), fromBack, depth);
        cell = {};
        Partition parts = partition(std::move(polygons), s->plane, ctx_.planes, depth);
        stats.splits += parts.splits;
        const int32_t index = addNode(s->plane, parts.support);
        const ChildRef front = build(std::move(parts.front), std::move(s->front), false, depth + 1, std::move(s->frontCounts));
        const ChildRef back = build(std::move(parts.back), std::move(s->back), true, depth + 1, std::move(s->backCounts));
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
            tree_.polygons.add({p.plane, p.pose, p.brush}, p.polygon.vertices);
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

// Appends `piece` (a tree of its own, with its record) to `tree`; returns its root there.
ChildRef appendTree(BspTree& tree, TreeRecord* record, BspTree&& piece, TreeRecord&& partRecord, ChildRef root) {
    const BspTree part = std::move(piece); // freed on return: the pieces' polygons would double the peak
    const int32_t nodeOffset = int32_t(tree.nodes.size()), leafOffset = int32_t(tree.leaves.size());
    const uint32_t polygonOffset = uint32_t(tree.polygons.size());
    auto shift = [&](ChildRef r) { return isLeaf(r) ? leafRef(leafIndex(r) + leafOffset) : r + nodeOffset; };
    for (const BspNode& n : part.nodes) tree.nodes.push_back({n.plane, shift(n.front), shift(n.back)});
    for (LeafInfo l : part.leaves) {
        l.firstPolygon += polygonOffset;
        tree.leaves.push_back(l);
    }
    tree.leafSolid.insert(tree.leafSolid.end(), part.leafSolid.begin(), part.leafSolid.end());
    tree.polygons.append(part.polygons);
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

// A tree built in pieces on a pool of threads: the top nodes one piece each, and below
// them subtrees built whole into trees of their own, then stitched together in pre-order.
struct TreePiece {
    // Inputs: the polygons inside the piece's cell.
    std::vector<BuildPolygon> polygons;
    ConvexPolyhedron cell;
    bool fromBack = false;
    int depth = 0;
    // A node: its splitter and children.
    PlaneId plane = 0;
    std::vector<PolygonSource> support;
    std::unique_ptr<TreePiece> front, back;
    // A subtree: its tree (root `root`) and record.
    BspTree tree;
    TreeRecord record;
    ChildRef root = 0;
    BuildStats stats;

    bool isNode() const { return front != nullptr; }
};

// One tree of a shared build: its inputs, its piece tree, and the size down to which its
// pieces are split further rather than built whole.
struct PiecedTree {
    BuildContext context;
    BspTree& tree;
    TreeRecord* record;
    size_t subtreePolygons;
    TreePiece root;
};

// Builds the pieces of one or more trees on `threads` threads. Each thread takes the
// waiting piece with the most polygons: a piece above its tree's subtree size is split
// (its halves join the queue), a smaller one is built whole. No thread waits for another
// while pieces are waiting, and trees built together (the poses' map trees) share the
// threads, so one tree's first splits overlap another's subtrees.
class PieceBuild {
public:
    explicit PieceBuild(std::vector<PiecedTree>& trees) : trees_(trees) {
        for (size_t t = 0; t < trees_.size(); ++t) waiting_.push_back({t, &trees_[t].root});
        std::make_heap(waiting_.begin(), waiting_.end(), smaller);
        unfinished_ = waiting_.size();
    }

    void run(int threads) {
        std::vector<std::thread> helpers;
        for (int t = 1; t < threads; ++t) helpers.emplace_back([this] { work(); });
        work();
        for (std::thread& t : helpers) t.join();
        if (error_) std::rethrow_exception(error_);
    }

private:
    struct Task {
        size_t tree;
        TreePiece* piece;
    };
    static bool smaller(const Task& a, const Task& b) { return a.piece->polygons.size() < b.piece->polygons.size(); }

    void work() {
        for (;;) {
            Task task;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return !waiting_.empty() || unfinished_ == 0 || error_; });
                if (error_ || waiting_.empty()) return;
                std::pop_heap(waiting_.begin(), waiting_.end(), smaller);
                task = waiting_.back();
                waiting_.pop_back();
            }
            try {
                build(task);
            } catch (...) {
                std::lock_guard lock(mutex_);
                if (!error_) error_ = std::current_exception();
                ready_.notify_all();
                return;
            }
            std::lock_guard lock(mutex_);
            if (--unfinished_ == 0) ready_.notify_all();
        }
    }

    void build(const Task& task) {
        PiecedTree& t = trees_[task.tree];
        TreePiece& piece = *task.piece;
        std::optional<NodeSplit> s;
        if (piece.polygons.size() > t.subtreePolygons) {
            const Builder chooser(t.context, t.tree, nullptr); // chooseSplit is const
            s = chooser.chooseSplit(piece.polygons, piece.cell, piece.depth);
        }
        if (!s) {
            piece.record.keepCells = t.record && t.record->keepCells;
            Builder b(t.context, piece.tree, t.record ? &piece.record : nullptr);
            piece.root = b.build(std::move(piece.polygons), std::move(piece.cell), piece.fromBack, piece.depth);
            piece.stats = b.stats;
            return;
        }
        piece.cell = {};
        Partition parts = partition(std::move(piece.polygons), s->plane, t.context.planes, piece.depth);
        piece.plane = s->plane;
        piece.support = std::move(parts.support);
        piece.stats.splits = parts.splits;
        piece.front = std::make_unique<TreePiece>();
        piece.front->polygons = std::move(parts.front);
        piece.front->cell = std::move(s->front);
        piece.front->depth = piece.depth + 1;
        piece.back = std::make_unique<TreePiece>();
        piece.back->polygons = std::move(parts.back);
        piece.back->cell = std::move(s->back);
        piece.back->fromBack = true;
        piece.back->depth = piece.depth + 1;
        std::lock_guard lock(mutex_);
        for (TreePiece* half : {piece.front.get(), piece.back.get()}) {
            waiting_.push_back({task.tree, half});
            std::push_heap(waiting_.begin(), waiting_.end(), smaller);
        }
        unfinished_ += 2;
        ready_.notify_all();
    }

    std::vector<PiecedTree>& trees_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::vector<Task> waiting_; // a heap, most polygons on top
    size_t unfinished_ = 0;     // pieces waiting or being built
    std::exception_ptr error_;
};

// Appends the built pieces to `t.tree` in pre-order; returns the root there.
ChildRef emitPieces(PiecedTree& t, TreePiece& piece, BuildStats& stats) {
    stats.splits += piece.stats.splits;
    if (!piece.isNode()) return appendTree(t.tree, t.record, std::move(piece.tree), std::move(piece.record), piece.root);
    Builder node(t.context, t.tree, t.record);
    const int32_t at = node.addNode(piece.plane, piece.support);
    const ChildRef front = emitPieces(t, *piece.front, stats);
    const ChildRef back = emitPieces(t, *piece.back, stats);
    t.tree.nodes[size_t(at)].front = front;
    t.tree.nodes[size_t(at)].back = back;
    return at;
}

} // namespace

ChildRef buildSubtree(const BuildContext& context, BspTree& tree, TreeRecord* record,
                      std::vector<BuildPolygon> polygons, ConvexPolyhedron cell, bool fromBack, int depth,
                      BuildStats* stats) {
    Builder b(context, tree, record);
    const ChildRef root = b.build(std::move(polygons), std::move(cell), fromBack, depth);
    if (stats) stats->splits += b.stats.splits;
    return root;
}

std::vector<BspTree> buildBspTrees(std::vector<TreeBuildInput> inputs, const std::vector<Plane>& planes,
                                   const Aabb& bounds, const SplitterParams& params, const CancelToken* cancel,
                                   int threads) {
    std::vector<BspTree> trees(inputs.size());
    std::vector<BuildContext> contexts;
    contexts.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        trees[i].poses = std::move(inputs[i].poses);
        trees[i].planes = planes;
        trees[i].bounds = bounds;
        reserveLeafPolygons(trees[i], inputs[i].polygons);
        contexts.push_back({planes, *inputs[i].leafSolidity, params, cancel, inputs[i].carryCells});
    }
    auto rootCell = [&](size_t i) { return inputs[i].carryCells ? boxPolyhedron(bounds, -1) : ConvexPolyhedron{}; };
    if (threads <= 1) {
        for (size_t i = 0; i < inputs.size(); ++i)
            trees[i].root = buildSubtree(contexts[i], trees[i], inputs[i].record, std::move(inputs[i].polygons),
                                         rootCell(i), false, 0, inputs[i].stats);
        return trees;
    }
    std::vector<PiecedTree> pieced;
    pieced.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        const size_t subtreePolygons =
            std::max(kMinSubtreePolygons, inputs[i].polygons.size() / (size_t(threads) * kSubtreesPerThread));
        pieced.push_back({contexts[i], trees[i], inputs[i].record, subtreePolygons, {}});
        pieced.back().root.polygons = std::move(inputs[i].polygons);
        pieced.back().root.cell = rootCell(i);
    }
    PieceBuild(pieced).run(threads);
    for (size_t i = 0; i < pieced.size(); ++i) {
        BuildStats stats;
        trees[i].root = emitPieces(pieced[i], pieced[i].root, stats);
        if (inputs[i].stats) inputs[i].stats->splits += stats.splits;
    }
    return trees;
}

BspTree buildBspTree(std::vector<BuildPolygon> polygons, const std::vector<Plane>& planes, std::vector<Pose> poses,
                     const Aabb& bounds, bool carryCells, const LeafSolidity& leafSolidity,
                     const SplitterParams& params, const CancelToken* cancel, BuildStats* stats, int threads,
                     TreeRecord* record) {
    std::vector<TreeBuildInput> input(1);
    input[0] = {std::move(polygons), std::move(poses), carryCells, &leafSolidity, stats, record};
    return std::move(buildBspTrees(std::move(input), planes, bounds, params, cancel, threads)[0]);
}

} // namespace shallot

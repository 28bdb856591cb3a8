#include "incremental/tree_update.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <stdexcept>

namespace shallot {

namespace {

class TreeUpdater {
public:
    TreeUpdater(const BspTree& old, BspTree& out, TreeRecord& oldRecord, TreeEdit& edit, const BuildContext& context,
                BuildStats* stats)
        : old_(old), out_(out), oldRecord_(oldRecord), edit_(edit), ctx_(context), stats_(stats) {
        out_ = BspTree{};
        out_.poses = old.poses;
        out_.planes = context.planes;
        out_.bounds = old.bounds;
        outRecord_.keepCells = oldRecord.keepCells;
        // Most of the tree is usually copied: room for all of it saves regrowing the arrays.
        out_.nodes.reserve(old.nodes.size());
        out_.leaves.reserve(old.leaves.size());
        out_.leafSolid.reserve(old.leaves.size());
        out_.polygons.reserve(old.polygons.size(), old.polygons.vertexTotal());
        outRecord_.retiredDepth.reserve(oldRecord.retiredDepth.size());
        if (outRecord_.keepCells) outRecord_.leafCells.reserve(old.leaves.size());
        result_.leafOfOld.assign(old.leaves.size(), -1);
        markTouched();
        markBlocks();
    }

    TreeUpdate run() {
        ConvexPolyhedron root = ctx_.carryCells ? boxPolyhedron(old_.bounds, -1) : ConvexPolyhedron{};
        out_.root = walk(old_.root, std::move(edit_.added), std::move(root), false, 0);
        oldRecord_ = std::move(outRecord_);
        return std::move(result_);
    }

private:
    bool removed(PolygonSource source) const {
        const int32_t brush = int32_t(uint32_t(source));
        const int pose = edit_.mapTreePose >= 0 ? edit_.mapTreePose : int(source >> 32);
        return brush >= 0 && size_t(brush) < edit_.removedPoses.size() && ((edit_.removedPoses[size_t(brush)] >> pose) & 1);
    }

    PolygonSource renumbered(PolygonSource source) const {
        return sourceOf(uint8_t(source >> 32), edit_.newOfOld[size_t(uint32_t(source))]);
    }

    // touched_: per previous node, its subtree holds a removed polygon (nodes come after
    // their parent, so a backward sweep sees children first).
    void markTouched() {
        leafTouched_.assign(old_.leaves.size(), 0);
        for (size_t l = 0; l < old_.leaves.size(); ++l) {
            const LeafInfo& info = old_.leaves[l];
            for (uint32_t i = 0; i < info.polygonCount && !leafTouched_[l]; ++i) {
                const LeafPolygon& p = old_.polygons[info.firstPolygon + i];
                leafTouched_[l] = removed(sourceOf(p.pose, p.brush));
            }
        }
        touched_.assign(old_.nodes.size(), 0);
        for (size_t n = old_.nodes.size(); n-- > 0;)
            touched_[n] = isTouched(old_.nodes[n].front) || isTouched(old_.nodes[n].back);
    }
    bool isTouched(ChildRef r) const { return isLeaf(r) ? leafTouched_[size_t(leafIndex(r))] : touched_[size_t(r)]; }

    // Trees are built and updated in one layout: nodes in pre-order, front first, leaves in
    // the order the walk meets them, leaf polygons in leaf order. So every subtree's nodes,
    // leaves and polygons each fill one run of the arrays, and a subtree is copied run by
    // run (copyBlock). blocks_[n]: the leaves of node n's subtree.
    struct LeafRun {
        int32_t first = -1; // -1: the subtree is not laid out so
        uint32_t count = 0;
    };
    LeafRun leafRun(ChildRef r) const { return isLeaf(r) ? LeafRun{leafIndex(r), 1} : blocks_[size_t(r)]; }

    void markBlocks() {
        blocks_.assign(old_.nodes.size(), LeafRun{});
        uint32_t nextPolygon = 0;
        bool inLeafOrder = true;
        for (const LeafInfo& info : old_.leaves) {
            inLeafOrder = inLeafOrder && info.firstPolygon == nextPolygon;
            nextPolygon += info.polygonCount;
        }
        for (size_t n = old_.nodes.size(); inLeafOrder && n-- > 0;) {
            const BspNode& node = old_.nodes[n];
            const LeafRun front = leafRun(node.front), back = leafRun(node.back);
            // A front subtree of k leaves holds k - 1 nodes: the back subtree starts at n + k.
            const bool nodesInRun = (isLeaf(node.front) || size_t(node.front) == n + 1) &&
                                    (isLeaf(node.back) || size_t(node.back) == n + front.count);
            if (front.first >= 0 && back.first >= 0 && nodesInRun && back.first == front.first + int32_t(front.count))
                blocks_[n] = {front.first, front.count + back.count};
        }
        if (!inLeafOrder || leafRun(old_.root).first < 0)
            throw std::logic_error("updateTree: the tree is not laid out as the builder lays trees out");
    }

    bool stillSupported(int32_t node, const std::vector<BuildPolygon>& added) const {
        for (size_t i = oldRecord_.supportBegin(size_t(node)); i < oldRecord_.supportEnd(size_t(node)); ++i)
            if (!removed(oldRecord_.support[i])) return true;
        const PlaneId splitter = old_.nodes[size_t(node)].plane;
        const Plane& plane = ctx_.planes[size_t(splitter)];
        for (const BuildPolygon& p : added) {
            const bool on = sameSurface(p.plane, splitter) || classifyBuildPolygon(p, plane) == Side::On;
            if (on && ctx_.planes[size_t(p.plane)].normal.dot(plane.normal) > 0.0) return true;
        }
        return false;
    }

    // Adds a node whose support is outRecord_.support from supportStart on (sorted here,
    // without repeats).
    int32_t addNode(PlaneId plane, size_t supportStart, int32_t source) {
        std::vector<PolygonSource>& support = outRecord_.support;
        const auto first = support.begin() + std::ptrdiff_t(supportStart);
        std::sort(first, support.end());
        support.erase(std::unique(first, support.end()), support.end());
        outRecord_.supportFirst.push_back(uint32_t(supportStart));
        out_.nodes.push_back({plane, 0, 0});
        result_.nodeSource.push_back(source);
        return int32_t(out_.nodes.size() - 1);
    }

    ChildRef walk(ChildRef ref, std::vector<BuildPolygon> added, ConvexPolyhedron cell, bool fromBack, int depth) {
        if (added.empty() && !isTouched(ref)) return copy(ref);
        if (!isLeaf(ref) && stillSupported(ref, added)) {
            const BspNode node = old_.nodes[size_t(ref)];
            SplitPolyhedron halves;
            if (ctx_.carryCells) halves = split(cell, ctx_.planes[size_t(node.plane)], node.plane, kOnPlaneEpsilon);
            if (!ctx_.carryCells || (!halves.front.empty() && !halves.back.empty())) {
                Partition parts = partition(std::move(added), node.plane, ctx_.planes, depth);
                if (stats_) stats_->splits += parts.splits;
                std::vector<PolygonSource>& support = outRecord_.support;
                const size_t supportStart = support.size();
                support.insert(support.end(), parts.support.begin(), parts.support.end());
                for (size_t i = oldRecord_.supportBegin(size_t(ref)); i < oldRecord_.supportEnd(size_t(ref)); ++i)
                    if (!removed(oldRecord_.support[i])) support.push_back(renumbered(oldRecord_.support[i]));
                const int32_t index = addNode(node.plane, supportStart, -1);
                ++result_.keptNodes;
                const ChildRef front = walk(node.front, std::move(parts.front), std::move(halves.front), false, depth + 1);
                const ChildRef back = walk(node.back, std::move(parts.back), std::move(halves.back), true, depth + 1);
                out_.nodes[size_t(index)].front = front;
                out_.nodes[size_t(index)].back = back;
                return index;
            }
        }
        collectFragments(ref, depth, added);
        const size_t before = out_.nodes.size();
        const ChildRef root = buildSubtree(ctx_, out_, &outRecord_, std::move(added), std::move(cell), fromBack, depth, stats_);
        result_.rebuiltNodes += out_.nodes.size() - before;
        result_.nodeSource.resize(out_.nodes.size(), -1);
        return root;
    }

    // The polygons kept in the leaves below `ref` that were not removed, as build input:
    // candidates again unless retired by a splitter above `depth`.
    void collectFragments(ChildRef ref, int depth, std::vector<BuildPolygon>& into) {
        std::vector<ChildRef> stack{ref};
        while (!stack.empty()) {
            const ChildRef r = stack.back();
            stack.pop_back();
            if (!isLeaf(r)) {
                stack.push_back(old_.nodes[size_t(r)].back);
                stack.push_back(old_.nodes[size_t(r)].front);
                continue;
            }
            const LeafInfo& info = old_.leaves[size_t(leafIndex(r))];
            for (uint32_t i = info.firstPolygon; i < info.firstPolygon + info.polygonCount; ++i) {
                const LeafPolygon& p = old_.polygons[i];
                if (removed(sourceOf(p.pose, p.brush))) continue;
                const std::span<const Vec3> vertices = old_.polygons.vertices(p);
                BuildPolygon b = makeBuildPolygon(Polygon{{vertices.begin(), vertices.end()}}, p.plane, p.pose,
                                                  edit_.newOfOld[size_t(p.brush)]);
                b.retiredDepth = oldRecord_.retiredDepth[i];
                b.splitCandidate = b.retiredDepth >= depth;
                into.push_back(std::move(b));
            }
        }
    }

    // Copies the subtree at `ref`, with its polygons and cells.
    ChildRef copy(ChildRef ref) { return isLeaf(ref) ? copyLeaf(leafIndex(ref)) : copyBlock(ref); }

    // Adds a copy of old node n with its support renumbered; its children are the caller's.
    int32_t copyNode(size_t n) {
        const size_t supportStart = outRecord_.support.size();
        for (size_t i = oldRecord_.supportBegin(n); i < oldRecord_.supportEnd(n); ++i)
            outRecord_.support.push_back(renumbered(oldRecord_.support[i]));
        ++result_.copiedNodes;
        return addNode(old_.nodes[n].plane, supportStart, int32_t(n));
    }

    // Copies the subtree at node `ref` a run at a time (markBlocks), its references shifted.
    ChildRef copyBlock(int32_t ref) {
        const LeafRun leaves = blocks_[size_t(ref)];
        const int32_t nodeShift = int32_t(out_.nodes.size()) - ref;
        const int32_t leafShift = int32_t(out_.leaves.size()) - leaves.first;
        const auto shifted = [&](ChildRef r) { return isLeaf(r) ? leafRef(leafIndex(r) + leafShift) : r + nodeShift; };
        for (size_t n = size_t(ref); n < size_t(ref) + leaves.count - 1; ++n) {
            BspNode& node = out_.nodes[size_t(copyNode(n))];
            node.front = shifted(old_.nodes[n].front);
            node.back = shifted(old_.nodes[n].back);
        }
        copyLeaves(size_t(leaves.first), leaves.count);
        return ref + nodeShift;
    }

    ChildRef copyLeaf(int32_t leaf) {
        copyLeaves(size_t(leaf), 1);
        return leafRef(int32_t(out_.leaves.size() - 1));
    }

    // Appends old leaves [first, first + count), whose polygons are one run, with them.
    void copyLeaves(size_t first, size_t count) {
        const LeafInfo& last = old_.leaves[first + count - 1];
        const uint32_t polygonFirst = old_.leaves[first].firstPolygon;
        const uint32_t polygonCount = last.firstPolygon + last.polygonCount - polygonFirst;
        const uint32_t outFirst = uint32_t(out_.polygons.size());
        out_.polygons.appendRange(old_.polygons, polygonFirst, polygonCount);
        for (size_t i = outFirst; i < out_.polygons.size(); ++i) {
            LeafPolygon& p = out_.polygons[i];
            p.brush = edit_.newOfOld[size_t(p.brush)];
        }
        const auto depths = oldRecord_.retiredDepth.begin() + polygonFirst;
        outRecord_.retiredDepth.insert(outRecord_.retiredDepth.end(), depths, depths + polygonCount);
        const auto solid = old_.leafSolid.begin() + std::ptrdiff_t(first);
        out_.leafSolid.insert(out_.leafSolid.end(), solid, solid + std::ptrdiff_t(count));
        for (size_t leaf = first; leaf < first + count; ++leaf) {
            LeafInfo info = old_.leaves[leaf];
            info.firstPolygon = info.firstPolygon - polygonFirst + outFirst;
            out_.leaves.push_back(info);
            if (outRecord_.keepCells) outRecord_.leafCells.push_back(oldRecord_.leafCells.share(leaf));
            result_.leafOfOld[leaf] = int32_t(out_.leaves.size() - 1);
        }
    }

    const BspTree& old_;
    BspTree& out_;
    TreeRecord& oldRecord_;
    TreeEdit& edit_;
    const BuildContext& ctx_;
    BuildStats* stats_;
    TreeRecord outRecord_;
    TreeUpdate result_;
    std::vector<uint8_t> touched_, leafTouched_;
    std::vector<LeafRun> blocks_; // per old node
};

} // namespace

TreeUpdate updateTree(const BspTree& old, BspTree& out, TreeRecord& record, TreeEdit& edit, const BuildContext& context,
                      BuildStats* stats) {
    return TreeUpdater(old, out, record, edit, context, stats).run();
}

} // namespace shallot

#include "incremental/tree_update.h"

#include "geometry/tolerances.h"

#include <algorithm>

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

    int32_t addNode(PlaneId plane, std::vector<PolygonSource> support, int32_t source) {
        std::sort(support.begin(), support.end());
        support.erase(std::unique(support.begin(), support.end()), support.end());
        outRecord_.supportFirst.push_back(uint32_t(outRecord_.support.size()));
        outRecord_.support.insert(outRecord_.support.end(), support.begin(), support.end());
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
                std::vector<PolygonSource> support = std::move(parts.support);
                for (size_t i = oldRecord_.supportBegin(size_t(ref)); i < oldRecord_.supportEnd(size_t(ref)); ++i)
                    if (!removed(oldRecord_.support[i])) support.push_back(renumbered(oldRecord_.support[i]));
                const int32_t index = addNode(node.plane, std::move(support), -1);
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

    // Copies the subtree at `ref` (pre-order), with its polygons and cells.
    ChildRef copy(ChildRef ref) {
        if (isLeaf(ref)) return copyLeaf(leafIndex(ref));
        const BspNode node = old_.nodes[size_t(ref)];
        std::vector<PolygonSource> support;
        for (size_t i = oldRecord_.supportBegin(size_t(ref)); i < oldRecord_.supportEnd(size_t(ref)); ++i)
            support.push_back(renumbered(oldRecord_.support[i]));
        const int32_t index = addNode(node.plane, std::move(support), ref);
        ++result_.copiedNodes;
        const ChildRef front = copy(node.front);
        const ChildRef back = copy(node.back);
        out_.nodes[size_t(index)].front = front;
        out_.nodes[size_t(index)].back = back;
        return index;
    }

    ChildRef copyLeaf(int32_t leaf) {
        LeafInfo info = old_.leaves[size_t(leaf)];
        const uint32_t first = info.firstPolygon;
        info.firstPolygon = uint32_t(out_.polygons.size());
        for (uint32_t i = first; i < first + info.polygonCount; ++i) {
            LeafPolygon& p = out_.polygons.addFrom(old_.polygons, i);
            p.brush = edit_.newOfOld[size_t(p.brush)];
            outRecord_.retiredDepth.push_back(oldRecord_.retiredDepth[i]);
        }
        out_.leaves.push_back(info);
        out_.leafSolid.push_back(old_.leafSolid[size_t(leaf)]);
        if (outRecord_.keepCells) outRecord_.leafCells.push_back(oldRecord_.leafCells.share(size_t(leaf)));
        const int32_t index = int32_t(out_.leaves.size() - 1);
        result_.leafOfOld[size_t(leaf)] = index;
        return leafRef(index);
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
};

} // namespace

TreeUpdate updateTree(const BspTree& old, BspTree& out, TreeRecord& record, TreeEdit& edit, const BuildContext& context,
                      BuildStats* stats) {
    return TreeUpdater(old, out, record, edit, context, stats).run();
}

} // namespace shallot

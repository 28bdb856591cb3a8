#include "portal/reachability.h"

#include "portal/leaf_cells.h"
#include "portal/portal_generation.h"

#include <limits>
#include <queue>
#include <span>

namespace shallot {

namespace {

bool emptyFor(const BspTree& tree, int32_t leaf, int pose) { return !((tree.leafSolid[size_t(leaf)] >> pose) & 1u); }

// The portals open for one pose, listed per leaf (compressed rows).
class PortalGraph {
public:
    PortalGraph(const BspTree& tree, int pose) : tree_(tree), first_(tree.leaves.size() + 1, 0) {
        const uint64_t bit = uint64_t(1) << pose;
        for (const Portal& p : tree.portals)
            if (p.poses & bit) {
                ++first_[size_t(p.front) + 1];
                ++first_[size_t(p.back) + 1];
            }
        for (size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
        portals_.resize(first_.back());
        std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
        for (size_t i = 0; i < tree.portals.size(); ++i)
            if (tree.portals[i].poses & bit) {
                portals_[next[size_t(tree.portals[i].front)]++] = uint32_t(i);
                portals_[next[size_t(tree.portals[i].back)]++] = uint32_t(i);
            }
    }
    std::span<const uint32_t> of(int32_t leaf) const {
        return {portals_.data() + first_[size_t(leaf)], portals_.data() + first_[size_t(leaf) + 1]};
    }
    int32_t across(uint32_t portal, int32_t leaf) const {
        const Portal& p = tree_.portals[portal];
        return p.front == leaf ? p.back : p.front;
    }

private:
    const BspTree& tree_;
    std::vector<uint32_t> first_;
    std::vector<uint32_t> portals_;
};

// Breadth-first over open portals from the leaves already in `queue` (marked in
// `reached`); stops early once `target` is reached. Returns the leaves in visit order.
std::vector<int32_t> spread(const PortalGraph& graph, std::vector<int32_t> queue, std::vector<bool>& reached,
                            int32_t target = -1) {
    for (size_t i = 0; i < queue.size(); ++i) {
        for (uint32_t portal : graph.of(queue[i])) {
            const int32_t next = graph.across(portal, queue[i]);
            if (reached[size_t(next)]) continue;
            reached[size_t(next)] = true;
            queue.push_back(next);
            if (next == target) return queue;
        }
    }
    return queue;
}

// Places the starts and marks their leaves reached; returns the distinct start leaves.
std::vector<int32_t> seed(const BspTree& tree, int pose, const std::vector<Vec3>& starts, std::vector<bool>& reached,
                          std::vector<StartPoint>* placed = nullptr) {
    std::vector<int32_t> seeds;
    for (const Vec3& s : starts) {
        const StartPoint start = placeStart(tree, pose, s);
        if (placed) placed->push_back(start);
        if (start.leaf >= 0 && !reached[size_t(start.leaf)]) {
            reached[size_t(start.leaf)] = true;
            seeds.push_back(start.leaf);
        }
    }
    return seeds;
}

// Sets f.leakPath and f.leakPortals.
void findLeakPath(const BspTree& tree, const PortalGraph& graph, const std::vector<OutsideLeaf>& outside, Flood& f) {
    const std::vector<StartPoint>& starts = f.starts;
    const size_t n = tree.leaves.size();
    std::vector<const OutsideLeaf*> outsideOf(n, nullptr);
    for (const OutsideLeaf& o : outside) outsideOf[size_t(o.leaf)] = &o;
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    std::vector<Vec3> entry(n, Vec3::Zero());
    std::vector<int64_t> via(n, -1); // the portal a leaf was entered through; -1 at a start
    std::vector<bool> done(n, false);
    using Item = std::pair<double, int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (const StartPoint& s : starts)
        if (s.leaf >= 0 && dist[size_t(s.leaf)] > 0.0) {
            dist[size_t(s.leaf)] = 0.0;
            entry[size_t(s.leaf)] = s.point;
            queue.push({0.0, s.leaf});
        }
    while (!queue.empty()) {
        const auto [d, leaf] = queue.top();
        queue.pop();
        if (done[size_t(leaf)]) continue;
        done[size_t(leaf)] = true;
        if (const OutsideLeaf* o = outsideOf[size_t(leaf)]) {
            std::vector<Vec3> path{o->point};
            std::vector<uint32_t> portals;
            for (int32_t at = leaf; at >= 0;) {
                path.push_back(entry[size_t(at)]);
                if (via[size_t(at)] >= 0) portals.push_back(uint32_t(via[size_t(at)]));
                at = via[size_t(at)] < 0 ? -1 : graph.across(uint32_t(via[size_t(at)]), at);
            }
            f.leakPath.assign(path.rbegin(), path.rend());
            f.leakPortals.assign(portals.rbegin(), portals.rend());
            return;
        }
        for (uint32_t portal : graph.of(leaf)) {
            const int32_t next = graph.across(portal, leaf);
            if (done[size_t(next)]) continue;
            const Vec3 centre = polygonCentroid(tree.portals.vertices(size_t(portal)));
            const double nd = d + (centre - entry[size_t(leaf)]).norm();
            if (nd < dist[size_t(next)]) {
                dist[size_t(next)] = nd;
                entry[size_t(next)] = centre;
                via[size_t(next)] = portal;
                queue.push({nd, next});
            }
        }
    }
}

} // namespace

StartPoint placeStart(const BspTree& tree, int pose, const Vec3& point) {
    static const Vec3 kDirections[] = {Vec3::Zero(), Vec3::UnitZ(),  Vec3::UnitX(), -Vec3::UnitX(),
                                       Vec3::UnitY(), -Vec3::UnitY(), -Vec3::UnitZ()};
    for (const Vec3& d : kDirections) {
        const Vec3 p = point + kStartNudge * d;
        const int32_t leaf = tree.findLeaf(p);
        if (emptyFor(tree, leaf, pose)) return {p, leaf};
    }
    return {point, -1};
}

std::vector<OutsideLeaf> outsideLeaves(const BspTree& tree) {
    std::vector<OutsideLeaf> out;
    std::vector<bool> seen(tree.leaves.size(), false);
    for (const ConvexFace& face : boxPolyhedron(treeBox(tree), kWorldBoxFace).faces)
        pushPolygon(tree, tree.root, face.polygon, -face.plane.normal, [&](int32_t leaf, Polygon&& piece) {
            if (seen[size_t(leaf)]) return;
            seen[size_t(leaf)] = true;
            out.push_back({leaf, piece.centroid()});
        });
    return out;
}

Flood flood(const BspTree& tree, int pose, const std::vector<Vec3>& starts) {
    Flood f;
    f.pose = pose;
    f.reached.assign(tree.leaves.size(), false);
    const PortalGraph graph(tree, pose);
    const std::vector<int32_t> reached = spread(graph, seed(tree, pose, starts, f.reached, &f.starts), f.reached);
    f.reachedLeaves = reached.size();
    for (int32_t leaf : reached) f.volume += tree.leaves[size_t(leaf)].volume;
    const uint64_t bit = uint64_t(1) << pose;
    for (size_t i = 0; i < tree.portals.size(); ++i)
        if ((tree.portals[i].poses & bit) && f.reached[size_t(tree.portals[i].front)])
            f.portalsCrossed.push_back(uint32_t(i));
    const std::vector<OutsideLeaf> outside = outsideLeaves(tree);
    for (const OutsideLeaf& o : outside) f.leak |= f.reached[size_t(o.leaf)];
    if (f.leak) findLeakPath(tree, graph, outside, f);
    return f;
}

std::vector<uint64_t> unreachableEmptyLeaves(const BspTree& tree, const std::vector<Vec3>& starts) {
    std::vector<uint64_t> bits(tree.leaves.size(), 0);
    for (size_t pose = 0; pose < tree.poses.size(); ++pose) {
        std::vector<bool> reached(tree.leaves.size(), false);
        spread(PortalGraph(tree, int(pose)), seed(tree, int(pose), starts, reached), reached);
        for (size_t leaf = 0; leaf < bits.size(); ++leaf)
            if (!reached[leaf] && emptyFor(tree, int32_t(leaf), int(pose))) bits[leaf] |= uint64_t(1) << pose;
    }
    return bits;
}

std::vector<bool> reachableFromOutside(const BspTree& tree, int pose) {
    std::vector<bool> reached(tree.leaves.size(), false);
    std::vector<int32_t> starts;
    for (const OutsideLeaf& o : outsideLeaves(tree))
        if (emptyFor(tree, o.leaf, pose) && !reached[size_t(o.leaf)]) {
            reached[size_t(o.leaf)] = true;
            starts.push_back(o.leaf);
        }
    spread(PortalGraph(tree, pose), starts, reached);
    return reached;
}

ReachAnswer reachBetween(const BspTree& tree, int pose, const Vec3& from, const Vec3& to) {
    ReachAnswer a;
    a.fromLeaf = placeStart(tree, pose, from).leaf;
    a.toLeaf = placeStart(tree, pose, to).leaf;
    if (a.fromLeaf < 0 || a.toLeaf < 0) return a;
    std::vector<bool> reached(tree.leaves.size(), false);
    reached[size_t(a.fromLeaf)] = true;
    spread(PortalGraph(tree, pose), {a.fromLeaf}, reached, a.toLeaf);
    a.reachable = reached[size_t(a.toLeaf)];
    return a;
}

bool reachable(const BspTree& tree, int pose, const Vec3& from, const Vec3& to) {
    return reachBetween(tree, pose, from, to).reachable;
}

} // namespace shallot

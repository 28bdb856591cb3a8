#include "portal/leak_hole.h"

#include "portal/reachability.h"

#include <algorithm>
#include <limits>

namespace shallot {

namespace {

// Residual capacity (square units) below which a portal counts as used up: the areas summed
// along augmenting paths are below 1e7 in a level, whose rounding stays under 1e-8.
constexpr double kUsedUp = 1e-7;

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// A flow network over the leaves plus a source and a sink, arcs in pairs (a ^ 1 is a's
// reverse), listed per node. Dinic's algorithm: breadth-first levels, then blocking flows
// along level-increasing arcs, iterative so that long paths through the void need no deep
// recursion.
class FlowNetwork {
public:
    explicit FlowNetwork(size_t nodes) : nodes_(nodes) {}

    void addArcPair(int32_t from, int32_t to, double forward, double backward) {
        from_.push_back(from), to_.push_back(to), residual_.push_back(forward);
        from_.push_back(to), to_.push_back(from), residual_.push_back(backward);
    }

    // Pushes a maximum flow from source to sink; afterwards reachedFrom(source) is the
    // source side of a minimum cut.
    void maximise(int32_t source, int32_t sink) {
        listArcs();
        for (levelsFrom(source); level_[size_t(sink)] >= 0; levelsFrom(source)) pushBlockingFlow(source, sink);
    }

    std::vector<bool> reachedFrom(int32_t source) {
        levelsFrom(source);
        std::vector<bool> reached(nodes_);
        for (size_t i = 0; i < nodes_; ++i) reached[i] = level_[i] >= 0;
        return reached;
    }

private:
    void listArcs() {
        first_.assign(nodes_ + 1, 0);
        for (int32_t f : from_) ++first_[size_t(f) + 1];
        for (size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
        arcs_.resize(from_.size());
        std::vector<uint32_t> next(first_.begin(), first_.end() - 1);
        for (size_t a = 0; a < from_.size(); ++a) arcs_[next[size_t(from_[a])]++] = uint32_t(a);
    }

    bool open(uint32_t arc) const { return residual_[arc] > kUsedUp; }

    void levelsFrom(int32_t source) {
        level_.assign(nodes_, -1);
        level_[size_t(source)] = 0;
        std::vector<int32_t> queue{source};
        for (size_t i = 0; i < queue.size(); ++i)
            for (uint32_t k = first_[size_t(queue[i])]; k < first_[size_t(queue[i]) + 1]; ++k) {
                const uint32_t a = arcs_[k];
                if (open(a) && level_[size_t(to_[a])] < 0) {
                    level_[size_t(to_[a])] = level_[size_t(queue[i])] + 1;
                    queue.push_back(to_[a]);
                }
            }
    }

    void pushBlockingFlow(int32_t source, int32_t sink) {
        std::vector<uint32_t> cursor(first_.begin(), first_.end() - 1); // next arc to try per node
        std::vector<uint32_t> path;
        int32_t at = source;
        for (;;) {
            if (at == sink) {
                double most = kUnlimited;
                for (uint32_t a : path) most = std::min(most, residual_[a]);
                for (uint32_t a : path) {
                    residual_[a] -= most;
                    residual_[a ^ 1u] += most;
                }
                path.clear();
                at = source;
                continue;
            }
            uint32_t& k = cursor[size_t(at)];
            while (k < first_[size_t(at) + 1] &&
                   !(open(arcs_[k]) && level_[size_t(to_[arcs_[k]])] == level_[size_t(at)] + 1))
                ++k;
            if (k < first_[size_t(at) + 1]) {
                path.push_back(arcs_[k]);
                at = to_[arcs_[k]];
                continue;
            }
            // A dead end: retreat, and never come back here in this phase.
            if (at == source) return;
            level_[size_t(at)] = -1;
            at = from_[path.back()];
            path.pop_back();
            ++cursor[size_t(at)];
        }
    }

    size_t nodes_;
    std::vector<int32_t> from_, to_;
    std::vector<double> residual_;
    std::vector<uint32_t> first_, arcs_;
    std::vector<int32_t> level_;
};

Aabb boundsOf(std::span<const Vec3> vertices) {
    Aabb b;
    for (const Vec3& v : vertices) b.add(v);
    return b;
}

} // namespace

std::optional<LeakHole> leakHole(const BspTree& tree, int pose, std::span<const Vec3> inside,
                                 std::span<const uint32_t> pathPortals) {
    const size_t leaves = tree.leafCount();
    const int32_t source = int32_t(leaves), sink = int32_t(leaves + 1);
    FlowNetwork network(leaves + 2);
    const uint64_t bit = uint64_t(1) << pose;
    for (const Portal& p : tree.portals)
        if (p.poses & bit) {
            const double area = polygonArea(tree.portals.vertices(p));
            network.addArcPair(p.front, p.back, area, area);
        }
    std::vector<bool> outside(leaves, false);
    for (const OutsideLeaf& o : outsideLeaves(tree))
        if (!((tree.leafSolid[size_t(o.leaf)] >> pose) & 1u)) {
            outside[size_t(o.leaf)] = true;
            network.addArcPair(o.leaf, sink, kUnlimited, 0.0);
        }
    bool anyInside = false;
    for (const Vec3& point : inside) {
        const StartPoint start = placeStart(tree, pose, point);
        if (start.leaf < 0 || outside[size_t(start.leaf)]) continue;
        network.addArcPair(source, start.leaf, kUnlimited, 0.0);
        anyInside = true;
    }
    if (!anyInside) return std::nullopt;
    network.maximise(source, sink);
    const std::vector<bool> sealed = network.reachedFrom(source); // the inside of the cut
    auto isCut = [&](uint32_t i) {
        const Portal& p = tree.portals[i];
        return (p.poses & bit) && sealed[size_t(p.front)] != sealed[size_t(p.back)];
    };
    const auto crossing = std::find_if(pathPortals.begin(), pathPortals.end(), isCut);
    if (crossing == pathPortals.end()) return std::nullopt;
    // The opening: the cut portals touching the crossing one, directly or through others.
    std::vector<uint32_t> cut;
    std::vector<Aabb> bounds;
    for (uint32_t i = 0; i < uint32_t(tree.portals.size()); ++i)
        if (isCut(i)) {
            cut.push_back(i);
            bounds.push_back(boundsOf(tree.portals.vertices(i)));
        }
    std::vector<bool> taken(cut.size(), false);
    std::vector<size_t> group{size_t(std::find(cut.begin(), cut.end(), *crossing) - cut.begin())};
    taken[group[0]] = true;
    for (size_t g = 0; g < group.size(); ++g)
        for (size_t j = 0; j < cut.size(); ++j)
            if (!taken[j] && bounds[group[g]].overlaps(bounds[j], kHoleTouchDistance)) {
                taken[j] = true;
                group.push_back(j);
            }
    LeakHole hole;
    for (size_t j : group) {
        hole.portals.push_back(cut[j]);
        hole.box.add(bounds[j]);
    }
    return hole;
}

} // namespace shallot

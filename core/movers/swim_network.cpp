#include "movers/swim_network.h"

#include "geometry/polygon.h"
#include "geometry/tolerances.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace shallot {

SwimPortals swimPortals(const BspTree& tree, int pose, const std::vector<GrownWater>& water) {
    SwimPortals out;
    if (pose < 0 || size_t(pose) >= tree.poses.size()) return out;
    for (size_t i = 0; i < tree.portals.size(); ++i) {
        if (!((tree.portals[i].poses >> pose) & 1u)) continue;
        Aabb bounds;
        for (const Vec3& v : tree.portals.vertices(i)) bounds.add(v);
        if (std::none_of(water.begin(), water.end(), [&](const GrownWater& w) { return bounds.overlaps(w.bounds); })) continue;
        out.indices.push_back(uint32_t(i));
        out.bounds.push_back(bounds);
    }
    return out;
}

SwimNetwork::SwimNetwork(const BspTree& tree, int pose, const SwimPortals& portals, const std::vector<GrownWater>& water,
                         const std::vector<std::vector<Vec3>>& places)
    : tree_(tree), pose_(pose), placeCount_(places.size()) {
    Aabb all;
    for (const GrownWater& w : water) all.add(w.bounds);
    if (all.empty() || pose < 0 || size_t(pose) >= tree.poses.size()) return;
    for (size_t k = 0; k < portals.indices.size(); ++k) {
        const Aabb& bounds = portals.bounds[k];
        if (!bounds.overlaps(all)) continue;
        const Portal& portal = tree.portals[portals.indices[k]];
        const std::span<const Vec3> vertices = tree.portals.vertices(portal);
        // The wet part of the portal: its largest piece inside one of the brushes.
        double largest = kMinSwimCrossingArea;
        std::optional<Vec3> middle;
        for (const GrownWater& w : water) {
            if (!bounds.overlaps(w.bounds)) continue;
            Polygon piece{{vertices.begin(), vertices.end()}};
            for (const Plane& plane : w.planes) {
                piece = clip(piece, plane, kOnPlaneEpsilon);
                if (piece.empty()) break;
            }
            if (piece.empty()) continue;
            const double area = piece.area();
            if (area >= largest) {
                largest = area;
                middle = piece.centroid();
            }
        }
        if (!middle) continue;
        const uint32_t index = uint32_t(crossings_.size());
        crossings_.push_back({*middle, portal.front, portal.back});
        crossingsOfLeaf_[portal.front].push_back(index);
        crossingsOfLeaf_[portal.back].push_back(index);
    }
    const Vec3 lift(0, 0, kSwimAttachLift);
    for (size_t place = 0; place < places.size(); ++place)
        for (const Vec3& p : places[place]) {
            const int32_t leaf = tree.findLeaf(p + lift);
            if ((tree.leafSolid[size_t(leaf)] >> pose) & 1u) continue;
            pointsOfLeaf_[leaf].push_back(uint32_t(points_.size()));
            points_.push_back({p, p + lift, leaf, uint32_t(place)});
        }
}

std::vector<std::optional<SwimRoute>> SwimNetwork::routesFrom(size_t from) const { return search(from, std::nullopt); }

std::vector<std::optional<SwimRoute>> SwimNetwork::routesFromPoint(const Vec3& at) const {
    const Vec3 lifted = at + Vec3(0, 0, kSwimAttachLift);
    const int32_t leaf = tree_.findLeaf(lifted);
    if ((tree_.leafSolid[size_t(leaf)] >> pose_) & 1u) return std::vector<std::optional<SwimRoute>>(placeCount_);
    return search(placeCount_, PlacePoint{at, lifted, leaf, uint32_t(placeCount_)});
}

std::vector<std::optional<SwimRoute>> SwimNetwork::search(size_t from, const std::optional<PlacePoint>& extra) const {
    std::vector<std::optional<SwimRoute>> out(placeCount_);
    // Nodes: the crossings, then the places' points (and `extra`). The points of `from` are
    // the sources; the others end their routes (a route never passes through a floor's point).
    const size_t crossings = crossings_.size(), placePoints = points_.size(), nodes = crossings + placePoints + (extra ? 1 : 0);
    auto pointOf = [&](size_t n) -> const PlacePoint& { return n - crossings < placePoints ? points_[n - crossings] : *extra; };
    auto position = [&](size_t n) -> const Vec3& { return n < crossings ? crossings_[n].point : pointOf(n).lifted; };
    std::vector<double> distance(nodes, std::numeric_limits<double>::infinity());
    std::vector<int64_t> previous(nodes, -1);
    std::vector<char> settled(nodes, 0);
    using Entry = std::pair<double, size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    for (size_t n = crossings; n < nodes; ++n)
        if (pointOf(n).place == from) {
            distance[n] = 0.0;
            open.push({0.0, n});
        }
    auto relaxFrom = [&](size_t u, int32_t leaf) {
        auto relax = [&](size_t v) {
            const double d = distance[u] + (position(v) - position(u)).norm();
            if (d < distance[v]) {
                distance[v] = d;
                previous[v] = int64_t(u);
                open.push({d, v});
            }
        };
        if (auto it = crossingsOfLeaf_.find(leaf); it != crossingsOfLeaf_.end())
            for (const uint32_t c : it->second) relax(c);
        if (auto it = pointsOfLeaf_.find(leaf); it != pointsOfLeaf_.end())
            for (const uint32_t p : it->second)
                if (points_[p].place != from) relax(crossings + p);
    };
    while (!open.empty()) {
        const size_t u = open.top().second;
        open.pop();
        if (settled[u]) continue;
        settled[u] = 1;
        if (u < crossings) {
            relaxFrom(u, crossings_[u].front);
            relaxFrom(u, crossings_[u].back);
        } else if (pointOf(u).place == from) {
            relaxFrom(u, pointOf(u).leaf);
        }
    }
    // Per place, its nearest point reached, and the way back from it.
    std::vector<int64_t> best(placeCount_, -1);
    for (size_t i = 0; i < points_.size(); ++i) {
        const uint32_t place = points_[i].place;
        if (place == from || !settled[crossings + i]) continue;
        if (best[place] < 0 || distance[crossings + i] < distance[size_t(best[place])]) best[place] = int64_t(crossings + i);
    }
    for (size_t place = 0; place < placeCount_; ++place) {
        if (best[place] < 0) continue;
        std::vector<size_t> chain; // the place's node back to a source's
        for (int64_t n = best[place]; n >= 0; n = previous[size_t(n)]) chain.push_back(size_t(n));
        SwimRoute route;
        route.points.push_back(pointOf(chain.back()).point); // the source, below its node
        for (auto n = chain.rbegin(); n != chain.rend(); ++n) route.points.push_back(position(*n));
        route.points.push_back(pointOf(chain.front()).point);
        for (size_t i = 0; i + 1 < route.points.size(); ++i) route.length += (route.points[i + 1] - route.points[i]).norm();
        out[place] = std::move(route);
    }
    return out;
}

} // namespace shallot

#include "check/walking_reach.h"

#include "compile/brush_expansion.h"
#include "geometry/polygon.h"
#include "movers/travel_reach.h"
#include "nav/nav_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace shallot {
namespace {

// How the player gets from polygon to polygon of one pose's mesh besides its links: the
// bodies of water it swims (waterSwum) and, per polygon, the bodies it is in and where the
// pushes carry it (pushLinks).
struct PlayerMoves {
    std::vector<std::vector<int32_t>> swum, bodiesOf, pushedTo;

    // With travel its links swim (PlayerMotion::travel): no bodies of water here.
    PlayerMoves(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const PlayerMotion& motion)
        : swum(motion.travel ? std::vector<std::vector<int32_t>>{} : waterSwum(mesh, pose, motion.water)),
          bodiesOf(mesh.polygons.size()), pushedTo(mesh.polygons.size()) {
        for (size_t b = 0; b < swum.size(); ++b)
            for (int32_t p : swum[b]) bodiesOf[size_t(p)].push_back(int32_t(b));
        for (const auto& [from, to] : pushLinks(tree, mesh, pose, motion.pushes)) pushedTo[size_t(from)].push_back(to);
    }
};

// The polygons a walk over the mesh's links reaches from `start` (itself included), and,
// with `moves`, swims and is pushed to. With `doors` (a travel graph over `mesh`), a
// monster's walk: through the doors it opens by touch (Quake's door trigger fires for any
// living thing), shootable and open ones, and those the player fires (`fired`, per
// entity); not through the others.
std::vector<char> walkedFrom(const NavMesh& mesh, int32_t start, const PlayerMoves* moves = nullptr,
                             const TravelGraph* doors = nullptr, const std::vector<char>* fired = nullptr) {
    std::vector<char> seen(mesh.polygons.size(), 0);
    if (start < 0) return seen;
    std::vector<char> bodySwum(moves ? moves->swum.size() : 0, 0);
    std::vector<int32_t> stack{start};
    seen[size_t(start)] = 1;
    auto reach = [&](int32_t to) {
        if (to >= 0 && !seen[size_t(to)]) {
            seen[size_t(to)] = 1;
            stack.push_back(to);
        }
    };
    while (!stack.empty()) {
        const int32_t at = stack.back();
        stack.pop_back();
        const NavPolygon& p = mesh.polygons[size_t(at)];
        for (uint32_t k = p.firstLink; k < p.firstLink + p.linkCount; ++k) {
            const int32_t gate = doors ? doors->gateOfLink[k] : -1;
            if (gate < 0 || (doors->gates[size_t(gate)].touched && !doors->gates[size_t(gate)].shut) || meshLinkUsable(*doors, k, *fired))
                reach(mesh.links[k].to);
        }
        if (!moves) continue;
        for (int32_t to : moves->pushedTo[size_t(at)]) reach(to);
        for (int32_t b : moves->bodiesOf[size_t(at)])
            if (!bodySwum[size_t(b)]) {
                bodySwum[size_t(b)] = 1;
                for (int32_t q : moves->swum[size_t(b)]) reach(q);
            }
    }
    return seen;
}

// Whether the reference point q, lowered by at most `depth`, is inside the convex region
// of `planes` (signed distance below 0 for all).
bool lowersInto(const Vec3& q, double depth, const std::vector<Plane>& planes) {
    double lo = 0.0, hi = depth; // the lowering t in [lo, hi] with every n.(q - t z) - d < 0
    for (const Plane& pl : planes) {
        const double s = pl.signedDistance(q), nz = pl.normal.z();
        // s - t nz < 0
        if (nz < 0.0) hi = std::min(hi, s / nz);
        else if (nz > 0.0) lo = std::max(lo, s / nz);
        else if (s >= 0.0) return false;
        if (lo > hi) return false;
    }
    return lo <= hi;
}

} // namespace

std::vector<Vec3> floorSamples(const NavPolygon& polygon) {
    const Vec3 middle = polygonCentroid(polygon.vertices);
    std::vector<Vec3> out{middle};
    const size_t n = polygon.vertices.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = polygon.vertices[i];
        const Vec3& b = polygon.vertices[(i + 1) % n];
        const int steps = std::max(1, int(std::ceil((b - a).norm() / kFloorSampleSpacing)));
        for (int k = 0; k < steps; ++k) {
            const Vec3 q = a + (b - a) * (double(k) / steps);
            const double toMiddle = (middle - q).norm();
            out.push_back(toMiddle > kFloorSampleInset ? q + (middle - q) * (kFloorSampleInset / toMiddle) : middle);
        }
    }
    return out;
}

std::vector<int32_t> waterBodyOf(const std::vector<BrushGeometry>& water) {
    std::vector<size_t> parent(water.size());
    std::iota(parent.begin(), parent.end(), size_t(0));
    auto find = [&](size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    for (size_t i = 0; i < water.size(); ++i)
        for (size_t j = i + 1; j < water.size(); ++j)
            if (water[i].bounds.overlaps(water[j].bounds, kNavEdgeDistance)) parent[find(j)] = find(i);
    std::vector<int32_t> bodyOfRoot(water.size(), -1), bodyOf(water.size());
    int32_t bodies = 0;
    for (size_t i = 0; i < water.size(); ++i) {
        int32_t& b = bodyOfRoot[find(i)];
        if (b < 0) b = bodies++;
        bodyOf[i] = b;
    }
    return bodyOf;
}

std::vector<std::vector<WaterFloor>> waterFloors(const NavMesh& mesh, const Pose& pose, const std::vector<BrushGeometry>& water) {
    const std::vector<int32_t> bodyOf = waterBodyOf(water);
    const int32_t bodies = bodyOf.empty() ? 0 : *std::max_element(bodyOf.begin(), bodyOf.end()) + 1;
    // Each brush grown by the box (configuration space), and where a lowered point can meet it.
    std::vector<std::vector<Plane>> planes;
    std::vector<Aabb> reach;
    for (const BrushGeometry& g : water) {
        planes.push_back(expandedPlanes(g, pose));
        Aabb r{g.bounds.mins - pose.maxs, g.bounds.maxs - pose.mins};
        r.maxs.z() += kSwimClimbHeight;
        reach.push_back(r);
    }
    std::vector<std::vector<WaterFloor>> floors(static_cast<size_t>(bodies));
    for (size_t p = 0; p < mesh.polygons.size(); ++p) {
        // Per body: the samples in its water, and those lowered into it.
        std::vector<std::vector<Vec3>> in(static_cast<size_t>(bodies)), climbed(static_cast<size_t>(bodies));
        const std::vector<Vec3> samples = floorSamples(mesh.polygons[p]);
        for (size_t w = 0; w < water.size(); ++w) {
            if (!reach[w].overlaps(mesh.polygons[p].bounds)) continue;
            const size_t b = size_t(bodyOf[w]);
            for (const Vec3& q : samples) {
                if (!reach[w].contains(q)) continue;
                if (lowersInto(q, 0.0, planes[w])) in[b].push_back(q);
                else if (lowersInto(q, kSwimClimbHeight, planes[w])) climbed[b].push_back(q);
            }
        }
        for (size_t b = 0; b < in.size(); ++b) {
            if (!in[b].empty()) floors[b].push_back({int32_t(p), std::move(in[b]), true});
            else if (!climbed[b].empty()) floors[b].push_back({int32_t(p), std::move(climbed[b]), false});
        }
    }
    return floors;
}

std::vector<std::vector<int32_t>> waterSwum(const NavMesh& mesh, const Pose& pose, const std::vector<BrushGeometry>& water) {
    std::vector<std::vector<int32_t>> swum;
    for (const std::vector<WaterFloor>& body : waterFloors(mesh, pose, water)) {
        swum.emplace_back();
        for (const WaterFloor& f : body) swum.back().push_back(f.polygon);
    }
    return swum;
}

std::vector<bool> walkersMeetingGoals(const BspTree& tree, const std::vector<Pose>& poses,
                                      const std::vector<WalkGoal>& goals, const std::vector<Walker>& walkers,
                                      const PlayerMotion& player, const NavMeshSource& source) {
    auto usable = [&](int pose) { return pose >= 0 && size_t(pose) < poses.size() && size_t(pose) < tree.poses.size(); };
    std::map<int, std::shared_ptr<const NavMesh>> meshes;
    auto meshOf = [&](int pose) -> const NavMesh& {
        auto it = meshes.find(pose);
        if (it == meshes.end())
            it = meshes.emplace(pose, source ? source(pose) : std::make_shared<const NavMesh>(buildNavMesh(tree, pose, poses[size_t(pose)].nav))).first;
        return *it->second;
    };
    // Where the player walks, swims and is pushed from each start.
    std::map<int, PlayerMoves> movesOf;
    std::map<int, TravelGraph> travelOf; // with player.travel
    // The mesh the player walks on: with travel, the pose's cut at the closed doors.
    auto travelGraphOf = [&](int pose) -> const TravelGraph& {
        auto graph = travelOf.find(pose);
        if (graph == travelOf.end())
            graph = travelOf.emplace(pose, buildTravelGraph(tree, meshOf(pose), poses[size_t(pose)], *player.travel)).first;
        return graph->second;
    };
    // With travel, the player and the monsters walk the pose's mesh cut at the closed doors.
    auto playerMeshOf = [&](int pose) -> const NavMesh& { return player.travel ? *travelGraphOf(pose).mesh : meshOf(pose); };
    std::vector<std::vector<char>> goalWalks(goals.size());
    std::vector<char> playerFired; // with travel: every entity the player fires from some start
    for (size_t g = 0; g < goals.size(); ++g) {
        const int pose = goals[g].pose;
        if (!usable(pose)) continue;
        const NavMesh& mesh = playerMeshOf(pose);
        auto moves = movesOf.find(pose);
        if (moves == movesOf.end()) // with travel, the pushes are travel links
            moves = movesOf.try_emplace(pose, tree, mesh, poses[size_t(pose)], player)
                        .first;
        const int32_t start = dropToFloor(tree, mesh, goals[g].point).polygon;
        if (!player.travel) {
            goalWalks[g] = walkedFrom(mesh, start, &moves->second);
            continue;
        }
        const PlayerMoves& pushes = moves->second;
        TravelReach reached = travelReach(travelOf.at(pose), start, [&](int32_t at, const std::function<void(int32_t)>& reach) {
                           for (int32_t to : pushes.pushedTo[size_t(at)]) reach(to);
                       }, !player.travelInOrder);
        goalWalks[g] = std::move(reached.reached);
        playerFired.resize(reached.fired.size(), 0);
        for (size_t e = 0; e < reached.fired.size(); ++e) playerFired[e] |= reached.fired[e];
    }
    std::vector<bool> meets(walkers.size(), false);
    for (size_t i = 0; i < walkers.size(); ++i) {
        const Walker& w = walkers[i];
        if (!usable(w.pose)) continue;
        const NavMesh& mesh = playerMeshOf(w.pose);
        const std::vector<char> walked =
            walkedFrom(mesh, dropToFloor(tree, mesh, w.from).polygon, nullptr, player.travel ? &travelGraphOf(w.pose) : nullptr, &playerFired);
        for (size_t p = 0; p < walked.size() && !meets[i]; ++p) {
            if (!walked[p]) continue;
            // The floor under the polygon's middle, as the goal's pose stands on it.
            const Vec3 feet = polygonCentroid(mesh.polygons[p].vertices) + Vec3(0, 0, poses[size_t(w.pose)].mins.z());
            for (int g : w.goals) {
                if (g < 0 || size_t(g) >= goals.size() || goalWalks[size_t(g)].empty()) continue;
                const int goalPose = goals[size_t(g)].pose;
                const Vec3 ref = feet - Vec3(0, 0, poses[size_t(goalPose)].mins.z() - kWalkMeetLift);
                const int32_t q = dropToFloor(tree, playerMeshOf(goalPose), ref).polygon;
                if (q >= 0 && goalWalks[size_t(g)][size_t(q)]) {
                    meets[i] = true;
                    break;
                }
            }
        }
    }
    return meets;
}

} // namespace shallot

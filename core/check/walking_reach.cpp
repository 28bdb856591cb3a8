#include "check/walking_reach.h"

#include "geometry/polygon.h"
#include "nav/nav_mesh.h"

#include <map>

namespace shallot {
namespace {

// The polygons a walk over the mesh's links reaches from `start` (itself included).
std::vector<char> walkedFrom(const NavMesh& mesh, int32_t start) {
    std::vector<char> seen(mesh.polygons.size(), 0);
    if (start < 0) return seen;
    std::vector<int32_t> stack{start};
    seen[size_t(start)] = 1;
    while (!stack.empty()) {
        const NavPolygon& p = mesh.polygons[size_t(stack.back())];
        stack.pop_back();
        for (uint32_t k = p.firstLink; k < p.firstLink + p.linkCount; ++k) {
            const int32_t to = mesh.links[k].to;
            if (to >= 0 && !seen[size_t(to)]) {
                seen[size_t(to)] = 1;
                stack.push_back(to);
            }
        }
    }
    return seen;
}

} // namespace

std::vector<bool> walkersMeetingGoals(const BspTree& tree, const std::vector<Pose>& poses,
                                      const std::vector<WalkGoal>& goals, const std::vector<Walker>& walkers,
                                      const NavMeshSource& source) {
    auto usable = [&](int pose) { return pose >= 0 && size_t(pose) < poses.size() && size_t(pose) < tree.poses.size(); };
    std::map<int, std::shared_ptr<const NavMesh>> meshes;
    auto meshOf = [&](int pose) -> const NavMesh& {
        auto it = meshes.find(pose);
        if (it == meshes.end())
            it = meshes.emplace(pose, source ? source(pose) : std::make_shared<const NavMesh>(buildNavMesh(tree, pose, poses[size_t(pose)].nav))).first;
        return *it->second;
    };
    // Where the player walks from each start.
    std::vector<std::vector<char>> goalWalks(goals.size());
    for (size_t g = 0; g < goals.size(); ++g) {
        if (!usable(goals[g].pose)) continue;
        const NavMesh& mesh = meshOf(goals[g].pose);
        goalWalks[g] = walkedFrom(mesh, dropToFloor(tree, mesh, goals[g].point).polygon);
    }
    std::vector<bool> meets(walkers.size(), false);
    for (size_t i = 0; i < walkers.size(); ++i) {
        const Walker& w = walkers[i];
        if (!usable(w.pose)) continue;
        const NavMesh& mesh = meshOf(w.pose);
        const std::vector<char> walked = walkedFrom(mesh, dropToFloor(tree, mesh, w.from).polygon);
        for (size_t p = 0; p < walked.size() && !meets[i]; ++p) {
            if (!walked[p]) continue;
            // The floor under the polygon's middle, as the goal's pose stands on it.
            const Vec3 feet = polygonCentroid(mesh.polygons[p].vertices) + Vec3(0, 0, poses[size_t(w.pose)].mins.z());
            for (int g : w.goals) {
                if (g < 0 || size_t(g) >= goals.size() || goalWalks[size_t(g)].empty()) continue;
                const int goalPose = goals[size_t(g)].pose;
                const Vec3 ref = feet - Vec3(0, 0, poses[size_t(goalPose)].mins.z() - kWalkMeetLift);
                const int32_t q = dropToFloor(tree, meshOf(goalPose), ref).polygon;
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

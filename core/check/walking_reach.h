#pragma once
// Which walking monsters can meet the player on foot (issue 30's `unreachable (walking)`
// spawn problem), over each pose's navigation mesh (core/nav, built with the pose's own
// settings, Pose::nav). The portal reach of spawn_checks.cpp says where a box could fly;
// this says where agents walk, as Quake's walking monsters do.
//
// A monster meets the player when some floor is walked to both by the monster (its pose's
// mesh, from its place) and by the player (the start's pose's mesh, from a start). Asking
// only "can it walk to the start" flagged every monster past a one-way drop the player
// takes (id_e1m1's dogs: the lifts back up are movers); asking "either way" with one box
// flagged the dogs the player reaches through an opening their wider box does not fit.
#include "compile/bsp_tree.h"
#include "nav/nav_mesh.h"
#include "world/pose.h"

#include <functional>
#include <memory>
#include <vector>

namespace shallot {

struct WalkGoal {
    int pose = -1;            // the pose carrying the player's box
    Vec3 point = Vec3::Zero(); // the start's origin (that pose's reference point)
};

struct Walker {
    int pose = -1;            // whose mesh it walks on (a pose of the tree)
    Vec3 from = Vec3::Zero(); // its reference point for that pose
    std::vector<int> goals;   // the goals it should meet (indices into the goals list)
};

// Gives a pose's navigation mesh of the tree (by poses[pose].nav): a caller that already
// has the meshes (the editor builds them for its overlay too) shares them.
using NavMeshSource = std::function<std::shared_ptr<const NavMesh>(int pose)>;

// Per walker, whether it meets one of its goals on foot. The meshes of the poses used come
// from `meshes`, or without one are built once each (settings from poses[pose].nav).
std::vector<bool> walkersMeetingGoals(const BspTree& tree, const std::vector<Pose>& poses,
                                      const std::vector<WalkGoal>& goals, const std::vector<Walker>& walkers,
                                      const NavMeshSource& meshes = {});

// A floor point of one pose's mesh is on the other's floor when, dropped from this far
// above (the feet placed alike, the reference point moved by the poses' mins), the other
// pose lands on a walkable polygon: floors under both boxes are the same floor.
inline constexpr double kWalkMeetLift = 1.0;

} // namespace shallot

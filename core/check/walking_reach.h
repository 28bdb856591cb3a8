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
//
// The player also swims, as Quake's does, in water and slime (not lava, which kills):
// from a floor where its box is in a body of water, or would be lowered by at most
// kSwimClimbHeight, to every other such floor of the same body (waterSwum); with the
// level's travel, by travel's swim links instead (clear ways only, waiting for the doors in
// the water). It is carried by trigger_push (trigger_push.h). Monsters only walk.
#include "compile/bsp_tree.h"
#include "check/trigger_push.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"
#include "world/brush_geometry.h"
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

// How the player moves besides walking: it swims in `water` (the world-space shapes of the
// water and slime brushes) and is carried by `pushes`.
struct PlayerMotion {
    std::vector<BrushGeometry> water;
    std::vector<PushVolume> pushes;
    // The level's movers and triggers (kept by reference): when set, the player's walk is
    // travelReach's (movers/travel_reach.h) and its swims and ladder climbs are travel's
    // links (TravelLevel::water and ladders), which wait for the doors standing in the
    // water; `water` is then not read. Pushes are still added.
    const TravelLevel* travel = nullptr;
    // With travel: whether doors and rides open only once the player reaches what fires
    // them (in order), or whenever anything in the level fires them (the default).
    bool travelInOrder = false;
};

// Per walker, whether it meets one of its goals on foot, the goals also moving as `player`
// says. The meshes of the poses used come from `meshes`, or without one are built once
// each (settings from poses[pose].nav).
std::vector<bool> walkersMeetingGoals(const BspTree& tree, const std::vector<Pose>& poses,
                                      const std::vector<WalkGoal>& goals, const std::vector<Walker>& walkers,
                                      const PlayerMotion& player = {}, const NavMeshSource& meshes = {});

// The bodies of water a box of `pose` swims between on `mesh`: water brushes whose bounds
// meet are one body; per body, the polygons from some point of which the box is in that
// body's water, or gets into it lowered by at most kSwimClimbHeight (it swims up to them
// and climbs out), tried at the polygon's floorSamples.
std::vector<std::vector<int32_t>> waterSwum(const NavMesh& mesh, const Pose& pose, const std::vector<BrushGeometry>& water);

// Per water brush, its body: brushes whose bounds meet (within kNavEdgeDistance) are one
// body; bodies numbered 0.. in the order of their first brush.
std::vector<int32_t> waterBodyOf(const std::vector<BrushGeometry>& water);

// A floor of a body of water (waterFloors): its points (floorSamples) from which the box
// is in the water (`inWater`), or else, when it has none, those from which it gets into
// the water lowered by at most kSwimClimbHeight (it climbs out there: Quake's water jump).
// Never empty.
struct WaterFloor {
    int32_t polygon = -1;
    std::vector<Vec3> points;
    bool inWater = false;
};
// waterSwum's bodies with each polygon's point and whether it is in the water.
std::vector<std::vector<WaterFloor>> waterFloors(const NavMesh& mesh, const Pose& pose, const std::vector<BrushGeometry>& water);

// Where a walkable polygon is tried for water and pushes: its middle, and every
// kFloorSampleSpacing along its edges, kFloorSampleInset towards its middle.
std::vector<Vec3> floorSamples(const NavPolygon& polygon);

// Quake's water jump lifts a swimmer whose middle is under the surface onto a ledge about
// as high above the surface as its eyes: a floor at most this far above the water (the
// box's bottom at most this far above the water's top) is climbed out onto.
inline constexpr double kSwimClimbHeight = 24.0;
// A floor's points tried for water and pushes: every this many units along its edges,
inline constexpr double kFloorSampleSpacing = 16.0;
// this far in from them (a point on an edge may lie on a wall's plane).
inline constexpr double kFloorSampleInset = 0.5;

// A floor point of one pose's mesh is on the other's floor when, dropped from this far
// above (the feet placed alike, the reference point moved by the poses' mins), the other
// pose lands on a walkable polygon: floors under both boxes are the same floor.
inline constexpr double kWalkMeetLift = 1.0;

} // namespace shallot

#pragma once
// Where Quake's trigger_push carries the player (for the walking spawn check,
// walking_reach.h). While the box touches the trigger its velocity is set to the push's
// (triggers.qc: speed * movedir * 10); out of it, it flies under gravity, sliding along
// what it hits (slideMove, its velocity clipped to each surface, as SV_FlyMove does),
// until it stands on walkable ground. Each walkable polygon the box stands in the trigger
// from, or jumps into it from (kPushJumpHeight), gets a one-way link to where the flight
// lands. A flight that never lands (thrown up out of a push, it falls back in and hovers)
// is flown again steering each of kSteerDirections ways in the air, as Quake's player
// does (air control), and joined to each landing.
#include "compile/bsp_tree.h"
#include "nav/nav_mesh.h"
#include "world/pose.h"

#include <string>
#include <utility>
#include <vector>

namespace shallot {

struct PushVolume {
    Aabb bounds;                    // the trigger's brushes' box (world space)
    Vec3 velocity = Vec3::Zero();   // what it sets a touching box's velocity to
};

// A trigger_push's velocity from its keys: "angles" (pitch yaw roll) or "angle" (yaw; -1
// up, -2 down), "speed" (default 1000): speed * 10 along Quake's movedir.
Vec3 quakePushVelocity(const std::string* angle, const std::string* angles, const std::string* speed);

// Quake's sv_gravity; its air control: out of a trigger and off the ground the box gains
// speed along the wish direction at sv_accelerate (10) x the player's speed (320) a second,
// up to 30 along it (SV_AirAccelerate).
inline constexpr double kPushGravity = 800.0;
inline constexpr double kAirAccelerate = 10.0;
inline constexpr double kPlayerSpeed = 320.0;
inline constexpr double kAirWishSpeed = 30.0;
inline constexpr int kSteerDirections = 8;
// The flight is stepped this often (Quake's 72 frames a second) for at most this long; a
// flight that has not landed by then (held against a ceiling) lands nowhere.
inline constexpr double kPushStep = 1.0 / 72.0;
inline constexpr double kPushMaxSeconds = 10.0;
// The box stands when ground (walkable: mesh.settings.walkableNormalZ) lies within this
// below it and it is not rising (Quake's ground check).
inline constexpr double kPushGroundProbe = 0.25;
// A trigger at most this far above a floor is jumped into (Quake's player jumps about 45
// units: the wind tunnels of id_e3m5 start 24 above the box's head).
inline constexpr double kPushJumpHeight = 45.0;
// Flights are started from at most this many polygons per trigger (the polygons it
// touches, in order): each is a few hundred swept moves.
inline constexpr int kPushMaxEntries = 8;
// Only the first this many triggers are flown, and at most this many flights in all (a
// hostile level with thousands of hovering pushes would take minutes; id_e3m5, the most
// pushed shared level, has 16 triggers and flies 64 times).
inline constexpr size_t kPushMaxVolumes = 256;
inline constexpr int kPushMaxFlights = 1024;

// A flight's path is kept as the boxes of its reference point over this many steps each
// (at most 14 units a step at the fastest shared push, 1000 a second): what it passes
// through on the way (a trigger it touches) is found from them.
inline constexpr int kFlightBoxSteps = 4;

// One flight a push carries the box on: from a polygon (taking off at `takeoff`, where the
// box first touches the trigger) to where it lands, after `seconds` of flight; `path`
// bounds the reference point's way from takeoff to landing (kFlightBoxSteps steps a box).
struct PushFlight {
    int32_t from = -1, to = -1;
    Vec3 takeoff = Vec3::Zero(), landing = Vec3::Zero();
    double seconds = 0.0;
    std::vector<Aabb> path = {};
};
// Every such flight (the first kPushMaxVolumes pushes), each (from, to) once, the quickest.
std::vector<PushFlight> pushFlights(const BspTree& tree, const NavMesh& mesh, const Pose& pose,
                                    const std::vector<PushVolume>& pushes);

// The (from, to) polygon pairs the pushes (the first kPushMaxVolumes) carry a box of
// `pose` between on `mesh`.
std::vector<std::pair<int32_t, int32_t>> pushLinks(const BspTree& tree, const NavMesh& mesh, const Pose& pose,
                                                   const std::vector<PushVolume>& pushes);

} // namespace shallot

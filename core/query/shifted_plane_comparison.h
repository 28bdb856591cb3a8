#pragma once
// Where Quake 3's capsule is wrong (issue 42, item 5): random places of a round pose in a
// level, answered by the exact tests and by Quake 3's moved planes (shifted_plane_shape.h).
// Two kinds of places:
//   beside: a position whose exact clearance from the nearest blocking brush lies in
//           [0, besideDistance]: the shape fits, close to a wall, an edge or a floor;
//   resting: where the shape, dropped straight down from a random free position, comes to
//           rest on a floor (a surface facing up at least kRestingFloorNz): a place an
//           agent stands.
// A place is refused when some brush's moved planes hold it deeper than the contact band;
// its depth is how far it must move to be let go (the over-coverage there). A refused place
// beside brushes also has its room: how far the exact shape is from touching anything.
#include "world/world.h"

#include <cstdint>
#include <vector>

namespace shallot {

// A drop comes to rest on a floor when the contact normal's z is at least this (Quake's
// walkable slope, 0.7).
inline constexpr double kRestingFloorNz = 0.7;
// How far a resting sample drops at most (world units).
inline constexpr double kRestingDropDistance = 512.0;

struct ShiftedPlaneComparisonSettings {
    int samples = 100000;        // random positions drawn (each tried as beside and as a drop start)
    uint64_t seed = 1;
    double besideDistance = -1;  // world units; below zero: the shape's radius
    int keepRefusals = 10000;    // at most this many refused places kept (for overlays)
};

struct ShiftedPlaneRefusal {
    Vec3 position = Vec3::Zero();
    double depth = 0.0;   // how far the moved planes hold it (world units)
    double room = 0.0;    // beside: the exact shape's clearance (resting: 0, it touches)
    bool resting = false; // a resting place (else a beside place)
};

struct ShiftedPlaneTally {
    int places = 0;   // places of this kind found (the exact shape fits there)
    int refused = 0;  // of them, refused by the moved planes
    double maxDepth = 0.0;
    double medianDepth = 0.0; // over the refused ones
    // The exact clearance of the refused ones (0 for resting places: they touch).
    double maxRoom = 0.0;
    double medianRoom = 0.0;
    double share() const { return places ? double(refused) / places : 0.0; }
};

struct ShiftedPlaneComparison {
    ShiftedPlaneTally beside;
    ShiftedPlaneTally resting;
    // Positions inside a brush for the exact shape that the moved planes let go: the moved
    // planes bound a superset of the grown brush, so this must stay 0 (a self-check).
    int supersetViolations = 0;
    int blockingBrushes = 0;
    std::vector<ShiftedPlaneRefusal> refusals;
};

// `pose` must be round (throws std::invalid_argument otherwise, with poseShapeProblem's
// reason); brushes that do not block it or are invalid are left out. Deterministic for a
// seed. Single-threaded.
ShiftedPlaneComparison compareShiftedPlanes(const World& world, const Pose& pose,
                                            const ShiftedPlaneComparisonSettings& settings = {});

} // namespace shallot

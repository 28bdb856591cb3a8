#pragma once
// Where a pose can stand in a vertical column: the points of its walkable polygons
// (nav_mesh.h) straight above or below (x, y) that a path query dropping from just above
// them lands on. A wall in the column holds none (the floor under it faces into solid),
// nor does the void around the level (insideOnly). The editor's Path tool drops a path's
// ends from the top view's working height onto the nearest of them.
#include "nav/nav_mesh.h"

#include <optional>
#include <vector>

namespace shallot {

// A place is given this far above its floor: off the floor's plane, so that a path query
// dropping from it (findPath) lands on that floor, as the editor's ray ends rest.
inline constexpr double kStandingLift = 1.0;

struct StandingPlace {
    Vec3 point = Vec3::Zero(); // the reference point, kStandingLift above the floor
    double floor = 0.0;        // the floor's height under it (on the polygon's plane)
    int32_t polygon = -1;
};

// Every place in the column at (x, y) whose floor lies in [low, high] (heights of the
// pose's reference point), lowest first, one per floor height: a polygon holding (x, y)
// seen from above whose lifted point is empty for the mesh's pose and drops back onto a
// walkable polygon at that height.
std::vector<StandingPlace> standingPlaces(const BspTree& tree, const NavMesh& mesh, double x, double y, double low,
                                          double high);

// The nearest of those to height `from`, searching down from it to `low` first and then up
// from it to `high`: the highest floor not above `from`, else the lowest above it.
std::optional<StandingPlace> nearestStandingPlace(const BspTree& tree, const NavMesh& mesh, double x, double y, double from,
                                                  double low, double high);

} // namespace shallot

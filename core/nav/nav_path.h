#pragma once
// Paths over a navigation mesh (nav_mesh.h): A* over the walkable polygons and their links,
// then string pulling (the funnel algorithm) across the shared edges walked over, so the
// path bends only at corners it must go round.
#include "nav/nav_mesh.h"

#include <functional>
#include <vector>

namespace shallot {

// Why no path was found: an end in solid for the pose (not got out by raising it), an end
// that drops onto no walkable polygon (nothing below it, or ground too steep), or both on
// walkable ground that no walk, step, drop or jump joins (different walkable areas).
enum class NavPathMiss : uint8_t { None, StartInSolid, StartOffGround, GoalInSolid, GoalOffGround, NotReached };

struct NavPath {
    bool found = false;
    NavPathMiss miss = NavPathMiss::None; // None when found
    double length = 0.0;
    // The path's corners, each where the pose's reference point rests on a floor: the
    // start and goal dropped onto the floor below them, every corner the path turns at or
    // crosses from one surface onto another, and for a step or drop its takeoff and then
    // its landing point.
    std::vector<Vec3> points;
    // Per stretch (points[i] to points[i + 1]), how it is travelled: Walk on a floor,
    // StepUp / StepDown / Drop across a riser or ledge (by its height against the mesh's step
    // height), Jump a jump's flight.
    std::vector<NavLinkKind> stretches;
};

// Which links of the mesh (indices into NavMesh::links) a path may use.
using NavLinkFilter = std::function<bool(uint32_t link)>;

// The path for the mesh's pose from `from` to `to`, each dropped straight down onto the
// floor below it first (not found when either lands on ground too steep, or nowhere). A
// point in solid for the pose (placed for a smaller pose: its box sunk into the floor) is
// raised first, by kNavRaiseStep at a time up to the pose's height, until it is not.
NavPath findPath(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to);
// The same over only the links `usable` accepts (a closed door's: movers/travel.h).
NavPath findPath(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to, const NavLinkFilter& usable);

// Where a path between `from` and `to` starts and ends, as findPath places them (raised out
// of solid, dropped onto the floor), or why it cannot (miss: an end in solid or off ground;
// None when both landed on walkable polygons). Searches over other graphs start here too.
struct PathEnds {
    Landing start, goal;
    NavPathMiss miss = NavPathMiss::None;
};
PathEnds landPathEnds(const BspTree& tree, const NavMesh& mesh, const Vec3& from, const Vec3& to);

} // namespace shallot

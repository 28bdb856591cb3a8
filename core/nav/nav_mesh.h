#pragma once
// Where an agent can walk, per pose: the walkable surfaces of the pose's expanded world and
// the links between them (Golodetz, "Automatic Navigation Mesh Generation in Configuration
// Space", Overload 117). The onion tree's leaf polygons of a pose are the boundary of its
// configuration-space obstacles, facing into empty space; those facing up steeply enough
// are where the pose's reference point may rest, its box standing on a floor (coplanar
// neighbours merged into larger convex polygons: merge_polygons.h). Everything
// here is in configuration space: a point of a walkable polygon is a place for the box's
// reference point, not a point of the floor.
#include "compile/bsp_tree.h"
#include "world/nav_settings.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace shallot {

// How a link is travelled. Walk: across a shared edge (start..end is the shared part);
// StepUp / StepDown: up or down an edge of at most the step height; Drop: off an edge,
// falling onto the ground below (one way); Jump: off an edge, up by the jump height, across
// and down onto ground at most the jump height above and the jump length away (one way;
// only with NavSettings::jump, see edge_probes.h).
enum class NavLinkKind : uint8_t { Walk, StepUp, StepDown, Drop, Jump };
const char* navLinkKindName(NavLinkKind kind);

struct NavLink {
    int32_t from = -1, to = -1; // polygons
    NavLinkKind kind = NavLinkKind::Walk;
    Vec3 start = Vec3::Zero(); // on `from`: a walk's shared edge runs start..end;
    Vec3 end = Vec3::Zero();   // a step's, drop's or jump's takeoff and landing points
    // A walk's path keeps this far in from start and from end along the shared edge, to
    // stay kNavCornerInset (seen from above) from the free edges those ends lie on.
    double startInset = 0.0, endInset = 0.0;
};

struct NavPolygon {
    std::vector<Vec3> vertices; // counter-clockwise seen from above
    Vec3 normal = Vec3::UnitZ();
    PlaneId plane = 0;   // in the tree's plane table
    int32_t leaf = -1;   // the empty leaf it faces into (of a merged polygon, its first part's)
    int32_t surface = -1;   // coplanar polygons joined by walks share a surface
    int32_t component = -1; // polygons joined by walks and steps (either way) share one (not drops, jumps)
    uint32_t firstLink = 0, linkCount = 0; // its outgoing links in NavMesh::links
    Aabb bounds;
    double area = 0.0;
    // The parts of its edges no other walkable polygon shares (walls' feet, ledges), which
    // paths keep kNavCornerInset away from.
    std::vector<std::pair<Vec3, Vec3>> freeEdges;
};

// Tolerances of the navigation mesh (world units).
// Two polygon edges are one shared edge where each end of one lies this close to the
// other's line: the leaf polygons' vertices come from plane intersections, off by rounding.
inline constexpr double kNavEdgeDistance = 1e-3;
// Shared parts of edges shorter than this are no walk link (polygons touching at a corner).
inline constexpr double kNavMinSharedEdge = 0.05;
// A point is on a polygon when within this distance of its plane (and inside its outline,
// grown by kNavEdgeDistance): the landing points of traces lie on the planes up to the
// trace's own tolerance (kTraceOnPlaneEpsilon).
inline constexpr double kNavOnPlane = 0.01;
// Probes of an edge start this far above the surface (off its plane, into empty space) and
// reach this far past the edge.
inline constexpr double kNavProbeLift = 0.125;
inline constexpr double kNavProbeReach = 0.5;
// Free parts of edges are probed every this many units (and at least at their middle);
// each probe that finds ground is a link, so a path steps or drops within half of this of
// where it would best.
inline constexpr double kNavProbeSpacing = 8.0;
// A path keeps this far from the free edges of the polygons it crosses (the feet of walls,
// grown by the box; ledges): a corner on one would touch the wall, and a wall leaning over
// the floor would be entered just above it.
inline constexpr double kNavCornerInset = 0.25;
// A straight stretch of a path is kept when the reference point, this far above the
// floor, gets along it without touching anything (a hundred times the trace's tolerance,
// well within kNavCornerInset of a wall leaning over the floor by more than a few degrees).
inline constexpr double kNavStretchCheckLift = 0.01;
// A path's end in solid is raised by this much at a time to get out of the floor.
inline constexpr double kNavRaiseStep = 1.0;
// A drop that lands on ground too steep to stand on slides down it (slideMove) and then
// settles by falling at most this far onto the ground it stopped on.
inline constexpr double kNavSlideSettle = 1.0;
// A step or drop takes off this far inside its polygon (its edge lies on the riser's or the
// ledge's plane, where the point below reads empty or solid by rounding).
inline constexpr double kNavTakeoffInset = 0.125;
// Jumps (NavSettings::jump) look for landings every this many units out from a free edge,
// up to the jump length.
inline constexpr double kNavJumpSpacing = 8.0;

struct NavProbeMemo; // edge_probes.h

struct NavMesh {
    int pose = 0;
    NavSettings settings;
    std::vector<NavPolygon> polygons;
    std::vector<NavLink> links; // grouped by `from` (NavPolygon::firstLink)
    int32_t surfaceCount = 0;
    int32_t componentCount = 0;
    // Per component, the components its drops and jumps land in (ascending, itself left out): a path
    // query first asks this small graph whether the goal's component can be reached at all,
    // instead of searching every polygon of the start's to learn that it cannot.
    std::vector<std::vector<int32_t>> componentDrops;
    double area = 0.0;

    // The polygons whose bounds reach a cell of the xy grid (cell side kCellSize).
    static constexpr double kCellSize = 64.0;
    std::unordered_map<int64_t, std::vector<int32_t>> grid;

    // What its probes found, for updating it after an edit (nav_mesh_update.h); null unless
    // built or updated there.
    std::shared_ptr<const NavProbeMemo> probeMemo;

    size_t linkCount(NavLinkKind kind) const;
    // Fills grid and area from the polygons.
    void indexPolygons();
    // The walkable polygon that `p` lies on (within kNavOnPlane of its plane, inside its
    // outline seen from above), or -1.
    int32_t polygonAt(const Vec3& p) const;
    // The polygons whose bounds reach the grid cell holding (x, y); null when none do.
    const std::vector<int32_t>* polygonsNear(double x, double y) const;
};

// Where buildNavMesh's time goes (milliseconds): collecting the walkable polygons (and the
// xy grid), walk links, step and drop probes, surfaces and components, jump probes, merging
// coplanar polygons (merge_polygons.h), and grouping the links.
struct NavBuildTimes {
    double polygons = 0, walks = 0, probes = 0, components = 0, jumps = 0, merging = 0, grouping = 0;
    double total() const { return polygons + walks + probes + components + jumps + merging + grouping; }
};

// The walkable surfaces and links of `pose` in a compiled onion tree with portals.
NavMesh buildNavMesh(const BspTree& tree, int pose, const NavSettings& settings = {}, NavBuildTimes* times = nullptr);

// Where a point falls, as an agent does: straight down onto the first surface below it.
struct Landing {
    bool landed = false;    // false: the point is in solid, or nothing is below it
    Vec3 point = Vec3::Zero();
    int32_t polygon = -1;   // the walkable polygon holding the landing point, -1 for ground too steep
    Vec3 normal = Vec3::Zero();
};
Landing dropToFloor(const BspTree& tree, const NavMesh& mesh, const Vec3& from);

// Twice the signed area of the triangle a, b, c seen from above: positive when c lies to
// the left of a -> b.
inline double turnXY(const Vec3& a, const Vec3& b, const Vec3& c) {
    return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

// Whether a polygon seen from above contains the xy of p, its outline grown by `margin`.
bool containsXY(const std::vector<Vec3>& polygon, const Vec3& p, double margin);

// The height of a walkable polygon's plane above (x, y).
double heightOnPolygon(const NavPolygon& p, double x, double y);

} // namespace shallot

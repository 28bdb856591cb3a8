#pragma once
// Step and drop links of a navigation mesh (nav_mesh.h), found by moving the pose's
// reference point in the tree as Quake moves a box: off each free edge of a walkable
// polygon (a part no other walkable polygon shares), straight out; if that is blocked, up
// by the step height, out, and down again; then down onto what lies below.
#include "nav/nav_mesh.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace shallot {

// Parts of one polygon edge shared with other polygons, as intervals along the edge.
using EdgeIntervals = std::vector<std::pair<double, double>>;

// How far apart two trees' answers for the same jump's reach (where its level flight is
// stopped) may be by rounding: the contact's parameter comes from whichever plane the tree
// reports. A jump stopped this close to its end or to one of its fall points is traced
// again after an edit (NavProbeMemo).
inline constexpr double kNavJumpReachRounding = 1e-6;

// What the probes of a mesh found, per free part of an edge (its sampled points depend on
// nothing else), kept to update the mesh after an edit (nav_mesh_update.h). A probe's
// outcome depends on the tree only through the configuration-space solid its traces pass
// through: each sample keeps the z range its traces spanned (its xy range is its point and
// the point the probe reaches out to), and is reused when that box is clear of the edit.
struct NavProbeMemo {
    struct Key {
        Vec3 a, b;    // the edge, in the polygon's order
        double lo, hi; // its free part, in units along it (0, 0 for a jump's free edge)
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const;
    };
    // A step or drop probe: the walkable ground it landed on, if any (not yet checked for a
    // polygon, which is the new mesh's).
    struct Sample {
        bool landed = false;
        Vec3 point = Vec3::Zero();
        double low = 0, high = 0; // the z range its traces spanned
        bool fragile = false;     // its outcome may depend on how the tree was cut: never reused (edge_probes.cpp)
        bool slid = false;        // landed after sliding down ground too steep to stand on: a drop
    };
    // A jump probe: its walkable landings in the order found (nearest first).
    struct Jump {
        double low = 0, high = 0;
        bool fragile = false;
        uint32_t first = 0, count = 0; // in landings
    };
    std::unordered_map<Key, uint32_t, KeyHash> edges;     // -> first sample (their count follows from the key)
    std::unordered_map<Key, uint32_t, KeyHash> jumpEdges; // -> first jump sample
    std::vector<Sample> samples;
    std::vector<Jump> jumps;
    std::vector<Vec3> landings;
    // What the outcomes were found under: an update with other settings, pose box or tree
    // bounds (the falls' depth) reuses nothing.
    int pose = 0;
    NavSettings settings;
    Vec3 poseMins = Vec3::Zero(), poseMaxs = Vec3::Zero();
    Aabb treeBounds;
};

// How the probes may reuse a previous mesh's outcomes: those of free edge parts found in
// `previous` (exactly the same coordinates) whose traces stay clear of `region`
// (configuration-space boxes where the tree may differ). Every outcome, reused or traced,
// is recorded in `record` when set.
struct NavProbeReuse {
    const NavProbeMemo* previous = nullptr;
    std::vector<Aabb> region;
    NavProbeMemo* record = nullptr;
    size_t reused = 0, traced = 0;           // step and drop samples
    size_t reusedJumps = 0, tracedJumps = 0; // jump samples
    size_t fragile = 0, fragileJumps = 0;    // of those traced, matched but fragile
};

// Adds the links found from the free parts of every polygon's edges (covered[p][e]: the
// shared parts of edge e of polygon p) to mesh.links and records those parts in each
// polygon's freeEdges; mesh.grid must be filled.
void addProbeLinks(const BspTree& tree, NavMesh& mesh, const std::vector<std::vector<EdgeIntervals>>& covered,
                   NavProbeReuse* reuse = nullptr);

// Jump links (NavSettings::jump), from the free edges addProbeLinks recorded, once the
// polygons' components (walks and steps) are known. The flight, in configuration space,
// from a point of a free edge (the same samples as the steps and drops):
//   1. straight up by the jump height (the box must have that much headroom above the
//      edge: Quake's jump always rises its full height, a lower ceiling cuts it short);
//   2. straight out along the edge's outward normal, level at that height, up to the jump
//      length (and no farther than that trace gets);
//   3. straight down, from every kNavJumpSpacing units along 2, onto the first ground below.
// Each of the three is a swept trace of the pose's box that must be clear. A landing is a
// jump when it is walkable ground of another component than the takeoff's (a jump within
// one component would be a shortcut only), at most the jump height above the takeoff and
// at most maxDrop below it; per edge point, only the nearest landing in each component.
// The flight is the upper envelope of any real jump with that apex: obstacles below it in
// the gap (which a flatter real arc might meet) are not looked for.
void addJumpLinks(const BspTree& tree, NavMesh& mesh, NavProbeReuse* reuse = nullptr);

// buildNavMesh (nav_mesh.h) with its probes reusing and recording outcomes as `reuse` says.
NavMesh buildNavMesh(const BspTree& tree, int pose, const NavSettings& settings, NavBuildTimes* times, NavProbeReuse* reuse);

// The length of a jump link's flight as above: up, across, down.
double navJumpFlightLength(const NavMesh& mesh, const NavLink& link);

} // namespace shallot

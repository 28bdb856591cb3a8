#pragma once
// Updating a pose's navigation mesh after an edit instead of building it again (issue 30).
// The result is the mesh buildNavMesh gives on the new tree: the same polygons, links and
// components. What is reused is the costly part that an edit far away cannot change, the
// outcomes of the step, drop and jump probes (edge_probes.h): a probe is a few traces of
// the pose's box, whose answers depend on the tree only through the configuration-space
// solid along them; where that solid is the same as before, so are the answers. Everything
// else (the walkable polygons, walk links, surfaces and components) is built again on the
// new tree: it depends on the polygons the compiler made, which an incremental compile
// may cut differently well away from the edit, and costs little of the whole.
//
// How a probe is matched: by the exact coordinates of the free part of an edge it samples
// (its points follow from those alone) in the previous mesh's NavProbeMemo. It is reused
// when the box its traces spanned (its xy from the edge point to where it reaches out, its
// z from the lowest point any of its falls reached to the highest its rises did) is clear
// of the edit's region: the boxes of the brushes that differ, old and new, grown by the
// pose's box (the brush's configuration-space obstacle) and kNavUpdateMargin. The landing
// found is then looked up in the new mesh (its polygon, the link's kind), as a fresh probe's
// would be. A fall that met nothing spanned the world's whole depth, so a drop into a column
// under the edit is probed again. Outcomes that may depend on how the tree was cut (a fall
// stopping on a crease, a trace not stopped with solid right ahead of its end or stopped
// right at it, a jump's flight stopped within rounding of a fall point) are recorded as
// fragile and probed again (edge_probes.cpp). With other walking rules, another pose box or another
// tree bounds (the falls' depth) nothing is reused: that is the full rebuild.
#include "nav/edge_probes.h"
#include "nav/nav_mesh.h"
#include "world/world.h"

#include <optional>
#include <vector>

namespace shallot {

// How far beyond a changed brush's configuration-space box a probe's traces must stay to
// be reused: far above the traces' own tolerances (kTraceOnPlaneEpsilon, the start-solid
// nudge kStartSolidNudge) and kNavEdgeDistance.
inline constexpr double kNavUpdateMargin = 1.0;

// The bounds of the brushes that differ between two worlds (diffBrushes over their brush
// keys): the previous bounds of brushes changed or deleted, the current ones of brushes
// changed or added. Returns false when a differing brush has no geometry (its bounds are
// unknown: rebuild).
bool changedBrushBounds(const World& before, const World& after, std::vector<Aabb>& boxes, size_t* changed = nullptr);

// The edit from one world to the next as updateNavMesh takes it: the changed brushes'
// bounds (changedBrushBounds), or nothing when the meshes are to be built again: the poses
// differ in anything but their walking rules (names, boxes, blocking contents: the solid of
// every brush), the world box differs, a changed brush has no geometry, or more than
// `maxBrushes` brushes changed (previous and current counted apart, as BrushDiff::changed).
std::optional<std::vector<Aabb>> navWorldEdit(const World& before, const World& after, size_t maxBrushes);

// buildNavMesh, recording its probes' outcomes (NavMesh::probeMemo) for updateNavMesh.
NavMesh buildNavMeshForUpdates(const BspTree& tree, int pose, const NavSettings& settings = {},
                               NavBuildTimes* times = nullptr);

struct NavUpdateStats {
    bool rebuilt = false;            // nothing could be reused (no memo, other rules, box or bounds)
    size_t reused = 0, traced = 0;   // step and drop probes
    size_t reusedJumps = 0, tracedJumps = 0;
    size_t fragile = 0, fragileJumps = 0; // of those traced: found, but fragile (edge_probes.cpp)
    NavBuildTimes times;
};

// `pose`'s mesh on `tree` (its walking rules `settings`), updated from `previous` (built
// with buildNavMeshForUpdates or updated here, on the tree before an edit that changed the
// brushes whose bounds, before and after, are `changedBrushes`). Equal to
// buildNavMesh(tree, pose, settings) up to the order of links; it records its own probes'
// outcomes for the next update.
NavMesh updateNavMesh(const NavMesh& previous, const BspTree& tree, int pose, const NavSettings& settings,
                      const std::vector<Aabb>& changedBrushes, NavUpdateStats* stats = nullptr);

} // namespace shallot

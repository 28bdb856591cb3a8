#pragma once
// Every numeric tolerance of the engine, in world units unless stated otherwise.
// World coordinates are doubles within +-kDefaultWorldExtent; Quake maps use units of
// about one inch, so the tolerances below are far finer than anything a designer draws.
namespace shallot {

// A point within this distance of a plane counts as on it when polygons are classified
// and split. Larger than the rounding error of vertices computed from plane triples at
// 65536 (about 1e-8) and far smaller than the 0.01 that the property tests stay away from.
inline constexpr double kOnPlaneEpsilon = 1e-4;

// Clipping tolerance when faces of a single convex polyhedron are built from its planes
// (brushes, expanded brushes): exact constructions, so only rounding is absorbed. With
// kOnPlaneEpsilon here, vertices at narrow corners drift by up to 1e-3.
inline constexpr double kHullClipEpsilon = 1e-7;

// The plane pool treats two planes as one (merges them, or snaps a normal onto an axis)
// only when they stay within this distance of each other everywhere in the world box, so
// that every polygon stays far closer than kOnPlaneEpsilon to the pool plane it is tagged
// with. Judged on the planes' parameters instead (normals within 1e-7), a plane turned by
// 1e-7 moved by up to 6.5e-3 at the edge of the world, and polygons tagged with it were
// classified against a plane they were not on.
inline constexpr double kPlaneMergeDistance = 1e-5;

// Two sides of one brush (or planes of one mesh's convex hull) whose unit normals differ by
// less than kPlaneNormalEpsilon in every component and whose distances differ by less than
// kPlaneDistEpsilon are the same side: the second is dropped before the brush's hull is
// built, so everything downstream (the tests' brute force too) sees the brush without it.
inline constexpr double kPlaneNormalEpsilon = 1e-7;
inline constexpr double kPlaneDistEpsilon = 1e-5;

// A polygon whose area is below this (square units) is dropped as numerically empty.
inline constexpr double kMinPolygonArea = 1e-6;

// Default half-extent of the world box; also the bound past which brush coordinates are
// rejected. Quake's own limit is 4096; Shallot accepts 16 times that.
inline constexpr double kDefaultWorldExtent = 65536.0;

// A leaf cell whose centre of mass lies at least this far inside every face is classified
// at that point; closer (slivers), the Chebyshev centre is computed instead.
inline constexpr double kComfortableClearance = 0.05;

// A leaf cell whose largest inscribed ball is smaller than this radius is degenerate: it
// has no volume a box reference point can occupy stably; it is kept but flagged.
inline constexpr double kDegenerateCellRadius = 1e-6;

// A brush counts as near a leaf (portal/leaf_brushes.h) when its box comes within this
// distance of the leaf's side of every splitter above the leaf. A brush face and the cell
// in front of it meet on one plane up to rounding and plane merging (kPlaneMergeDistance);
// a whole unit is far above both and lists only a few more brushes.
inline constexpr double kLeafBrushMargin = 1.0;

// A grid cell of the point locator (query/point_locator.h) counts as wholly on one side of a
// plane only when its box, grown by this on every side, is, with this much to spare. It
// absorbs the rounding of the cell index computed for a query point and of the box corners'
// signed distances, both below 1e-10 at 65536; a cell near a plane merely keeps that plane.
inline constexpr double kLocatorCellMargin = 1e-6;

} // namespace shallot

#pragma once
// Sections by an axis-aligned plane x[axis] = at: what a 2D view at a working depth shows
// of the level's cells and surfaces (the editor's cross-section overlays).
#include "geometry/convex_polyhedron.h"

#include <optional>
#include <utility>

namespace shallot {

// Section points closer than this are one point (rounding of the edge intersections of
// neighbouring faces, which meet the plane at the same vertex).
inline constexpr double kSectionMergeDistance = 1e-7;

// The convex polygon where `cell` meets the plane, counter-clockwise seen from the +axis
// side; empty when the cell does not reach across the plane (touching it is not crossing).
Polygon axisSection(const ConvexPolyhedron& cell, int axis, double at);

// The same seen from just above the plane (its limit from the +axis side): also the face
// lying in the plane when the cell rests on it (its lowest point on the plane), nothing
// when the cell lies below. Every cell of a set that tiles space is drawn from one side so.
Polygon axisSectionFromAbove(const ConvexPolyhedron& cell, int axis, double at);

// The segment where a convex polygon crosses the plane (an edge lying in the plane is that
// edge); nothing when it lies on one side, touches it at a vertex, or lies in it.
std::optional<std::pair<Vec3, Vec3>> axisSection(std::span<const Vec3> polygon, int axis, double at);

} // namespace shallot

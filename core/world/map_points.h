#pragma once
// The three points a brush side is written to a .map with, and the rule that keeps them and
// the side's plane one thing: an edited side's plane is the plane its points give
// (Plane::fromPoints, as every .map reader computes it), so what is exported reads back
// bit for bit, and no point coordinate carries float noise (1.1607426131376997e-10 for 0,
// 246.66666666668607 for a corner an edit meant at 246.666...).
#include "geometry/plane.h"
#include "geometry/polygon.h"
#include "world/brush.h"

#include <array>

namespace shallot {

// A point coordinate this close to an integer is that integer: plane intersections and
// affine maps leave errors of 1e-12..1e-9 on grid coordinates, and nothing a designer
// draws on a grid of at least 1 unit lies within a millionth of a unit of an integer
// without being on it. Also the bound of "near an integer" the .map export promises never
// to write (docs/design.md, "Exact exports").
inline constexpr double kIntegerSnapDistance = 1e-6;

// Three points define a side's plane only when the plane through them matches it within
// this (every normal component and the distance): above the rounding of coordinates up to
// the world's 65536, far below anything drawn.
inline constexpr double kMapPointPlaneMatch = 1e-9;

// `v` with every coordinate within kIntegerSnapDistance of an integer set to it.
double withoutIntegerNoise(double v);
Vec3 withoutIntegerNoise(const Vec3& v);

// Whether the plane through `points` is `plane` within kMapPointPlaneMatch.
bool pointsGivePlane(const std::array<Vec3, 3>& points, const Plane& plane);
// Whether `side` has points and they give its plane (they are not stale).
bool hasValidPoints(const BrushSide& side);

// Three .map points for a side on `plane` whose face is `face`, in Quake's order
// ((p0 - p1) x (p2 - p1) along the normal), the first of: the face vertices spanning the
// largest triangle rounded to integers, when they give the plane; integral points of the
// plane near the face (a plane through grid points whose face corners are not on the grid);
// those vertices projected onto the plane, without integer noise.
std::array<Vec3, 3> facePoints(const Plane& plane, const Polygon& face);

// Makes `side` one thing with its points: when its points are not all integral and
// facePoints finds integral ones on `face` (its face on the brush: so a side whose face has
// all its vertices on the integer grid is written through three of them), those replace
// them; then the points lose their integer noise and the plane becomes Plane::fromPoints
// of them. A side without points, or whose points do not
// give its plane (stale), gets facePoints first. Returns false and leaves the side alone
// when it needs a face and `face` is empty, or when the points are collinear.
bool settleSideOnPoints(BrushSide& side, const Polygon& face);

} // namespace shallot

#pragma once
// The exact expanded brush of a round pose, tessellated: the Minkowski sum of a convex brush
// with the shape (the set of reference points where the shape touches or overlaps it), for
// drawing. Built in the shape's space (query/round_shape_space.h), where the shape is a
// sphere of the frame's radius swept along its vertical core: the brush is first swept
// along the core (a capsule's; an ellipsoid's core is a point), which is a convex
// polyhedron again (its faces: the brush's faces moved out along z by the core's half
// length times |n.z|, and vertical faces through the brush's silhouette edges), and that
// polyhedron is then grown by the sphere: faces moved out by the radius, edges as cylinder
// patches, vertices as sphere patches. Mapped back to the world, an ellipsoid's sphere
// patches become the ellipsoid's image of them. Every vertex of the tessellation lies on the
// exact surface (to rounding); the triangles are chords of it.
#include "world/brush_geometry.h"
#include "world/pose_shape.h"

#include <vector>

namespace shallot {

// The largest angle between the normals of two neighbouring vertices of a rounded patch
// (radians): 22.5 degrees, four steps around a right-angled edge. A triangle's inside then
// lies at most radius (1 - cos(step)) inside the exact surface, 7.6% of the radius, and
// along the edges' arcs radius (1 - cos(step / 2)), 1.9% (0.3 units for a 16-unit
// capsule): round to the eye in the views, about 600 triangles for a box brush.
inline constexpr double kRoundSurfaceStep = 0.39269908169872414; // pi / 8

struct RoundSurfaceVertex {
    Vec3 position = Vec3::Zero(); // world
    Vec3 normal = Vec3::UnitZ();  // the surface's outward unit normal there (world)
};

// Triangles (three vertices each, counter-clockwise seen from outside) of the expanded
// brush's surface, appended to `out`. Nothing for an invalid shape or a degenerate brush.
void appendRoundExpandedSurface(const BrushGeometry& brush, const PoseShape& shape, double step,
                                std::vector<RoundSurfaceVertex>& out);

} // namespace shallot

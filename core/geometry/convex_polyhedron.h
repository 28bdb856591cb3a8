#pragma once
#include "geometry/aabb.h"
#include "geometry/polygon.h"

#include <cstdint>
#include <vector>

namespace shallot {

// One face of a convex polyhedron: its outward plane, its polygon and a caller's tag
// (a plane-pool id, a brush side index, -1 for the world box...).
struct ConvexFace {
    Plane plane;
    Polygon polygon;
    int32_t tag = -1;
};

// A bounded convex polyhedron kept as its face polygons (the B-rep brushes, expanded
// brushes and leaf cells share).
struct ConvexPolyhedron {
    std::vector<ConvexFace> faces;

    bool empty() const { return faces.size() < 4; }
    Aabb bounds() const;
    Vec3 vertexCentroid() const;
    double volume() const;
    // Smallest distance from `p` to the face planes, negative when outside.
    double clearance(const Vec3& p) const;
};

// Intersection of the half-spaces behind `planes` (each tagged with tags[i], or its index
// when tags is empty), inside the cube of half-size `extent`. Faces clipped away entirely
// are omitted; a face that still touches the cube means the input was unbounded (the cube
// planes themselves are never returned, check `touchesExtent`).
struct HalfSpaceIntersection {
    ConvexPolyhedron polyhedron;
    bool touchesExtent = false;
};
HalfSpaceIntersection intersectHalfSpaces(const std::vector<Plane>& planes, double extent,
                                          const std::vector<int32_t>& tags = {});

// The cube [-extent, extent]^3 as a polyhedron, faces tagged `tag`.
ConvexPolyhedron boxPolyhedron(const Aabb& box, int32_t tag);

struct SplitPolyhedron {
    ConvexPolyhedron front;
    ConvexPolyhedron back;
};
// Cuts by `plane`; the new cap faces are tagged `tag` (the back half's cap faces along
// `plane`, the front half's along its flip). A side that is numerically empty is empty.
SplitPolyhedron split(const ConvexPolyhedron& cell, const Plane& plane, int32_t tag, double epsilon);

} // namespace shallot

#pragma once
#include "geometry/plane.h"

#include <span>
#include <vector>

namespace shallot {

// Convex planar polygon, vertices in counter-clockwise order seen from the front of its
// plane (the right-hand rule gives the plane normal).
struct Polygon {
    std::vector<Vec3> vertices;

    bool empty() const { return vertices.size() < 3; }
    double area() const;
    Vec3 centroid() const; // vertex average
};

// The same for vertices stored elsewhere (FlatPolygons).
double polygonArea(std::span<const Vec3> vertices);
Vec3 polygonCentroid(std::span<const Vec3> vertices);

// A square of half-size `extent` on the plane, centred on the point of the plane nearest
// the origin: the start of every clipped face.
Polygon baseWinding(const Plane& plane, double extent);

// Side of the polygon relative to the plane, with vertices within `epsilon` counting as on.
Side classify(const Polygon& polygon, const Plane& plane, double epsilon);

struct SplitPolygon {
    Polygon front;
    Polygon back;
};
// Splits by the plane; vertices within `epsilon` go to both halves. A half that would be
// degenerate is returned empty.
SplitPolygon split(const Polygon& polygon, const Plane& plane, double epsilon);

// Keeps the part behind the plane (the part in front when keepFront).
Polygon clip(const Polygon& polygon, const Plane& plane, double epsilon, bool keepFront = false);

} // namespace shallot

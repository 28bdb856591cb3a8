#pragma once
#include "geometry/convex_polyhedron.h"

#include <vector>

namespace shallot {

struct InteriorPoint {
    Vec3 point = Vec3::Zero();
    double clearance = 0.0; // distance from point to the nearest face plane
};

// The centre of the largest ball inside the half-spaces behind `planes` (the Chebyshev
// centre), by a small simplex solve of: maximise r subject to n_i . x + r <= d_i.
// `start` must satisfy every constraint (up to rounding).
InteriorPoint chebyshevCentre(const std::vector<Plane>& planes, const Vec3& start);

// A point well inside a leaf cell, used to classify its solidity. The article averages
// face midpoints; that point can sit on the boundary of a sliver, so when the vertex
// centroid is closer than kComfortableClearance to a face, the Chebyshev centre is used.
InteriorPoint leafInteriorPoint(const ConvexPolyhedron& cell);

} // namespace shallot

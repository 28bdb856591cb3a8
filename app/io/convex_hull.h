#pragma once
// The convex hull of a point set as planes, via Qhull (its reentrant C library: the C++
// wrapper's headers do not compile as C++20).
#include "geometry/plane.h"

#include <optional>
#include <string>
#include <vector>

namespace shallot {

struct ConvexHull {
    std::vector<Plane> planes; // outward, one per face: coplanar facets are merged
    double volume = 0.0;
};

// Nothing, with Qhull's reason in `error`, when the points span no volume (fewer than four,
// all on a plane or a line).
std::optional<ConvexHull> convexHull(const std::vector<Vec3>& points, std::string& error);

} // namespace shallot

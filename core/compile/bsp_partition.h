#pragma once
#include "geometry/plane_pool.h"
#include "geometry/polygon.h"

#include <cstdint>
#include <vector>

namespace shallot {

// A polygon while a tree is being built (Listing 1's PolyIndex plus the polygon itself).
struct BuildPolygon {
    Polygon polygon;
    PlaneId plane;
    uint8_t pose;
    int32_t brush;
    bool splitCandidate; // false once a splitter on its plane has been used above it
};

struct Partition {
    std::vector<BuildPolygon> front;
    std::vector<BuildPolygon> back;
    size_t splits = 0;
};

// Sends each polygon to the side of `splitter` it lies on, splitting those that straddle.
// Polygons on the splitter's surface go to the side they face and stop being candidates
// (Listing 2); near-coplanar ones on another pool plane are treated the same way.
Partition partition(std::vector<BuildPolygon>&& polygons, PlaneId splitter, const std::vector<Plane>& planes);

} // namespace shallot

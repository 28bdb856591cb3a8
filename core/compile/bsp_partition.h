#pragma once
#include "geometry/aabb.h"
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
    bool splitCandidate = true;  // false once a splitter on its plane has been used above it
    uint16_t retiredDepth = 0;   // the depth at which splitCandidate became false
    Aabb bounds;                 // of the vertices: most classifications need no per-vertex
                                 // test, none against an axial plane
};

// Where a polygon came from, as one number: (pose, world brush).
using PolygonSource = uint64_t;
inline PolygonSource sourceOf(uint8_t pose, int32_t brush) { return (uint64_t(pose) << 32) | uint32_t(brush); }
inline PolygonSource sourceOf(const BuildPolygon& p) { return sourceOf(p.pose, p.brush); }

BuildPolygon makeBuildPolygon(Polygon polygon, PlaneId plane, uint8_t pose, int32_t brush);

// classify(p.polygon, plane, kOnPlaneEpsilon): from the bounds when the plane is axial
// (`axis`, Plane::axis()) or clear of them, otherwise vertex by vertex. The same answer
// every way.
Side classifyBuildPolygon(const BuildPolygon& p, const Plane& plane, int axis);
inline Side classifyBuildPolygon(const BuildPolygon& p, const Plane& plane) {
    return classifyBuildPolygon(p, plane, plane.axis());
}

struct Partition {
    std::vector<BuildPolygon> front;
    std::vector<BuildPolygon> back;
    std::vector<PolygonSource> support; // the polygons on the splitter facing its way
    size_t splits = 0;
};

// Sends each polygon to the side of `splitter` it lies on, splitting those that straddle.
// Polygons on the splitter's surface go to the side they face and stop being candidates
// (Listing 2), retired at `depth`; near-coplanar ones on another pool plane are treated the
// same way.
Partition partition(std::vector<BuildPolygon>&& polygons, PlaneId splitter, const std::vector<Plane>& planes,
                    int depth);

} // namespace shallot

#include "compile/bsp_partition.h"

#include "geometry/tolerances.h"

namespace shallot {

Partition partition(std::vector<BuildPolygon>&& polygons, PlaneId splitter, const std::vector<Plane>& planes) {
    Partition out;
    const Plane& plane = planes[size_t(splitter)];
    for (BuildPolygon& p : polygons) {
        Side side = sameSurface(p.plane, splitter) ? Side::On : classify(p.polygon, plane, kOnPlaneEpsilon);
        if (side == Side::On) {
            p.splitCandidate = false;
            side = planes[size_t(p.plane)].normal.dot(plane.normal) > 0.0 ? Side::Front : Side::Back;
        }
        switch (side) {
        case Side::Front: out.front.push_back(std::move(p)); break;
        case Side::Back: out.back.push_back(std::move(p)); break;
        default: {
            SplitPolygon s = split(p.polygon, plane, kOnPlaneEpsilon);
            ++out.splits;
            if (!s.front.empty()) out.front.push_back({std::move(s.front), p.plane, p.pose, p.brush, p.splitCandidate});
            if (!s.back.empty()) out.back.push_back({std::move(s.back), p.plane, p.pose, p.brush, p.splitCandidate});
        }
        }
    }
    polygons.clear();
    return out;
}

} // namespace shallot

#include "compile/bsp_partition.h"

#include "geometry/tolerances.h"

namespace shallot {

namespace {

// Slack on the sphere test for the rounding of per-vertex distances (world coordinates
// stay within 2^17, so their rounding is below 1e-10).
constexpr double kSphereRoundingSlack = 1e-7;

} // namespace

BuildPolygon makeBuildPolygon(Polygon polygon, PlaneId plane, uint8_t pose, int32_t brush) {
    BuildPolygon p{std::move(polygon), plane, pose, brush};
    p.centre = p.polygon.centroid();
    for (const Vec3& v : p.polygon.vertices) p.radius = std::max(p.radius, (v - p.centre).norm());
    return p;
}

Side classifyBuildPolygon(const BuildPolygon& p, const Plane& plane) {
    const double d = plane.signedDistance(p.centre);
    const double clear = p.radius + kOnPlaneEpsilon + kSphereRoundingSlack;
    if (d > clear) return Side::Front;
    if (d < -clear) return Side::Back;
    return classify(p.polygon, plane, kOnPlaneEpsilon);
}

Partition partition(std::vector<BuildPolygon>&& polygons, PlaneId splitter, const std::vector<Plane>& planes,
                    int depth) {
    Partition out;
    const Plane& plane = planes[size_t(splitter)];
    for (BuildPolygon& p : polygons) {
        Side side = sameSurface(p.plane, splitter) ? Side::On : classifyBuildPolygon(p, plane);
        if (side == Side::On) {
            if (p.splitCandidate) p.retiredDepth = uint16_t(depth);
            p.splitCandidate = false;
            side = planes[size_t(p.plane)].normal.dot(plane.normal) > 0.0 ? Side::Front : Side::Back;
            if (side == Side::Front) out.support.push_back(sourceOf(p));
        }
        switch (side) {
        case Side::Front: out.front.push_back(std::move(p)); break;
        case Side::Back: out.back.push_back(std::move(p)); break;
        default: {
            SplitPolygon s = split(p.polygon, plane, kOnPlaneEpsilon);
            ++out.splits;
            for (auto [piece, to] : {std::pair{&s.front, &out.front}, std::pair{&s.back, &out.back}}) {
                if (piece->empty()) continue;
                BuildPolygon half = makeBuildPolygon(std::move(*piece), p.plane, p.pose, p.brush);
                half.splitCandidate = p.splitCandidate;
                half.retiredDepth = p.retiredDepth;
                to->push_back(std::move(half));
            }
        }
        }
    }
    polygons.clear();
    return out;
}

} // namespace shallot

#include "compile/bsp_partition.h"

#include "geometry/tolerances.h"

#include <algorithm>

namespace shallot {

namespace {

// Slack on the bounds test for the rounding of the distances of the bounds' corners and of
// the vertices (world coordinates stay within 2^17, so their rounding is below 1e-10).
constexpr double kBoundsRoundingSlack = 1e-7;

} // namespace

BuildPolygon makeBuildPolygon(Polygon polygon, PlaneId plane, uint8_t pose, int32_t brush) {
    BuildPolygon p;
    p.polygon = std::move(polygon);
    p.plane = plane;
    p.pose = pose;
    p.brush = brush;
    for (const Vec3& v : p.polygon.vertices) p.bounds.add(v);
    return p;
}

Side classifyBuildPolygon(const BuildPolygon& p, const Plane& plane, int axis) {
    if (axis >= 0) {
        // The normal is exactly +-1 on `axis` and 0 elsewhere, so a vertex's distance is
        // the rounded (+-coordinate - dist), which rounding keeps in the coordinates' order:
        // the extreme vertices' distances are those of the bounds, as classify computes them.
        const bool positive = plane.normal[axis] > 0.0;
        const double highest = (positive ? p.bounds.maxs[axis] : -p.bounds.mins[axis]) - plane.dist;
        const double lowest = (positive ? p.bounds.mins[axis] : -p.bounds.maxs[axis]) - plane.dist;
        const bool front = highest > kOnPlaneEpsilon, back = lowest < -kOnPlaneEpsilon;
        if (front && back) return Side::Straddle;
        if (front) return Side::Front;
        if (back) return Side::Back;
        return Side::On;
    }
    // The plane's distances over the bounds: from the corner farthest behind it (lowest)
    // to the one farthest in front (highest).
    double lowest = -plane.dist, highest = -plane.dist;
    for (int k = 0; k < 3; ++k) {
        const double a = plane.normal[k] * p.bounds.mins[k], b = plane.normal[k] * p.bounds.maxs[k];
        lowest += std::min(a, b);
        highest += std::max(a, b);
    }
    const double clear = kOnPlaneEpsilon + kBoundsRoundingSlack;
    if (lowest > clear) return Side::Front;
    if (highest < -clear) return Side::Back;
    return classify(p.polygon, plane, kOnPlaneEpsilon);
}

Partition partition(std::vector<BuildPolygon>&& polygons, PlaneId splitter, const std::vector<Plane>& planes,
                    int depth) {
    Partition out;
    const Plane& plane = planes[size_t(splitter)];
    const int axis = plane.axis();
    for (BuildPolygon& p : polygons) {
        Side side = sameSurface(p.plane, splitter) ? Side::On : classifyBuildPolygon(p, plane, axis);
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

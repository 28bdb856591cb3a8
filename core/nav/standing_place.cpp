#include "nav/standing_place.h"

#include <algorithm>
#include <cmath>

namespace shallot {

std::vector<StandingPlace> standingPlaces(const BspTree& tree, const NavMesh& mesh, double x, double y, double low,
                                          double high) {
    std::vector<StandingPlace> out;
    const std::vector<int32_t>* near = mesh.polygonsNear(x, y);
    if (!near) return out;
    const Vec3 column(x, y, 0.0);
    for (int32_t i : *near) {
        const NavPolygon& poly = mesh.polygons[size_t(i)];
        if (!containsXY(poly.vertices, column, kNavEdgeDistance)) continue;
        const double floor = heightOnPolygon(poly, x, y);
        if (floor < low || floor > high) continue;
        out.push_back({Vec3(x, y, floor + kStandingLift), floor, i});
    }
    std::sort(out.begin(), out.end(), [](const StandingPlace& a, const StandingPlace& b) { return a.floor < b.floor; });
    // Neighbours sharing an edge under (x, y) give one floor twice.
    out.erase(std::unique(out.begin(), out.end(),
                          [](const StandingPlace& a, const StandingPlace& b) { return std::abs(a.floor - b.floor) <= kNavOnPlane; }),
              out.end());
    // Confirmed as a path query places an end: empty for the pose, and dropping from there
    // lands on walkable ground at that floor (not on something between, nor in a wall at a
    // polygon's edge).
    std::erase_if(out, [&](const StandingPlace& s) {
        if (tree.isSolid(s.point, mesh.pose)) return true;
        const Landing landed = dropToFloor(tree, mesh, s.point);
        return landed.polygon < 0 || std::abs(landed.point.z() - s.floor) > kNavOnPlane;
    });
    return out;
}

std::optional<StandingPlace> nearestStandingPlace(const BspTree& tree, const NavMesh& mesh, double x, double y, double from,
                                                  double low, double high) {
    const std::vector<StandingPlace> places = standingPlaces(tree, mesh, x, y, low, high);
    const auto above = std::find_if(places.begin(), places.end(), [&](const StandingPlace& s) { return s.floor > from; });
    if (above != places.begin()) return *std::prev(above);
    if (above != places.end()) return *above;
    return std::nullopt;
}

} // namespace shallot

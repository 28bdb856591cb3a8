// Teleporters and trigger_push flights as travel links (movers/travel.h).
#include "movers/travel.h"

namespace shallot {

void addTeleportAndPushLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level) {
    const NavMesh& mesh = *graph.mesh;
    for (const Teleport& t : level.graph.teleports) {
        if (t.destination < 0 || t.bounds.empty()) continue;
        // Where the box lands: from where the game puts it (the destination raised), else
        // from the destination itself (a point placed on the floor).
        Landing landing = dropToFloor(tree, mesh, t.arrival());
        if (landing.polygon < 0) landing = dropToFloor(tree, mesh, t.destinationOrigin);
        if (landing.polygon < 0) continue;
        std::vector<int32_t> polygons;
        std::vector<Vec3> points;
        polygonsTouching(mesh, {t.bounds.mins - pose.maxs, t.bounds.maxs - pose.mins}, polygons, points);
        for (size_t i = 0; i < polygons.size(); ++i)
            if (polygons[i] != landing.polygon)
                graph.links.push_back({TravelKind::Teleport, polygons[i], landing.polygon, points[i], landing.point, 0.0, t.entity,
                                       t.needsFiring ? t.entity : -1});
    }
    for (const PushFlight& f : pushFlights(tree, mesh, pose, level.pushes))
        graph.links.push_back({TravelKind::Push, f.from, f.to, f.takeoff, f.landing, f.seconds, -1, -1, -1, {}, f.path});
}

} // namespace shallot

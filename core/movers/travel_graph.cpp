#include "movers/travel.h"

#include "check/walking_reach.h"

namespace shallot {

const char* travelKindName(TravelKind kind) {
    switch (kind) {
    case TravelKind::Walk: return "walk";
    case TravelKind::Step: return "step";
    case TravelKind::Drop: return "drop";
    case TravelKind::Jump: return "jump";
    case TravelKind::Door: return "door";
    case TravelKind::Plat: return "plat";
    case TravelKind::Train: return "train";
    case TravelKind::Teleport: return "teleport";
    case TravelKind::Push: return "push";
    case TravelKind::Swim: return "swim";
    case TravelKind::WaterJump: return "water_jump";
    case TravelKind::Ladder: return "ladder";
    }
    return "walk";
}

void polygonsTouching(const NavMesh& mesh, const Aabb& box, std::vector<int32_t>& polygons, std::vector<Vec3>& points) {
    if (box.empty()) return;
    for (size_t p = 0; p < mesh.polygons.size(); ++p) {
        const NavPolygon& polygon = mesh.polygons[p];
        if (!box.overlaps(polygon.bounds)) continue;
        // The polygon's samples, and the middle of the box's footprint when it lies on the
        // polygon (a trigger well inside a large floor touches none of its edges).
        std::vector<Vec3> samples = floorSamples(polygon);
        Vec3 middle = 0.5 * (box.mins + box.maxs);
        if (containsXY(polygon.vertices, middle, 0.0)) {
            middle.z() = heightOnPolygon(polygon, middle.x(), middle.y());
            samples.insert(samples.begin(), middle);
        }
        for (const Vec3& q : samples)
            if (box.contains(q)) {
                polygons.push_back(int32_t(p));
                points.push_back(q);
                break;
            }
    }
}

TravelGraph buildTravelGraph(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const TravelLevel& level) {
    TravelGraph graph;
    graph.entityCount = level.graph.firesOf.size();
    addDoorGates(graph, mesh, pose, level);
    WaterBodies water(tree, *graph.mesh, pose, level); // on the mesh cut at the doors
    addRiderLinks(graph, tree, pose, level, water);
    addTeleportAndPushLinks(graph, tree, pose, level);
    addOpeners(graph, tree, pose, level);
    addSwimAndLadderLinks(graph, tree, pose, level, water);
    graph.linksFrom.resize(graph.mesh->polygons.size());
    for (size_t k = 0; k < graph.links.size(); ++k) graph.linksFrom[size_t(graph.links[k].from)].push_back(uint32_t(k));
    return graph;
}

} // namespace shallot

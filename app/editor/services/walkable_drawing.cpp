#include "services/walkable_drawing.h"

#include "nav_overlay.h"

namespace shallot {

WalkableMeshDrawing drawWalkableMesh(std::shared_ptr<const NavMesh> mesh, int pose, double feet) {
    WalkableMeshDrawing out;
    out.surfaces = render::walkableSurfaces(*mesh, feet);
    out.links = render::walkableLinks(*mesh, feet);
    out.mesh = std::move(mesh);
    out.pose = pose;
    out.feet = feet;
    return out;
}

WalkableTravelDrawing drawWalkableTravel(std::shared_ptr<const TravelGraph> graph, int pose, const Pose& shape) {
    WalkableTravelDrawing out;
    out.travel = render::walkableTravel(*graph, shape);
    out.graph = std::move(graph);
    out.pose = pose;
    return out;
}

} // namespace shallot

#include "services/walkable_drawing.h"

#include "nav_overlay.h"

namespace shallot {

WalkableMeshDrawing drawWalkableMesh(WalkableMeshKey key) {
    WalkableMeshDrawing out;
    out.surfaces = render::walkableSurfaces(*key.mesh, key.feet);
    out.links = render::walkableLinks(*key.mesh, key.feet);
    out.key = std::move(key);
    return out;
}

WalkableTravelDrawing drawWalkableTravel(WalkableTravelKey key, const Pose& shape) {
    WalkableTravelDrawing out;
    out.travel = render::walkableTravel(*key.graph, shape);
    out.key = std::move(key);
    return out;
}

} // namespace shallot

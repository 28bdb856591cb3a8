#pragma once
// The Walkable overlay's layers for one pose (render/nav_overlay.h) with what they were drawn
// from. NavService draws them on its builds' threads for the pose the overlay shows (a
// mesh's surfaces and links take 10-15 ms on id_e1m1, which the UI thread paid after every
// edit and drag step), and the overlay controller sets a layer into the scene only when what
// it shows changed.
#include "mesh_batch.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"

#include <memory>

namespace shallot {

struct WalkableMeshDrawing {
    std::shared_ptr<const NavMesh> mesh;
    int pose = -1;
    double feet = 0; // the pose's mins.z: the floor under the mesh
    render::MeshBatch surfaces, links;
};
WalkableMeshDrawing drawWalkableMesh(std::shared_ptr<const NavMesh> mesh, int pose, double feet);

struct WalkableTravelDrawing {
    std::shared_ptr<const TravelGraph> graph;
    int pose = -1;
    render::MeshBatch travel;
};
WalkableTravelDrawing drawWalkableTravel(std::shared_ptr<const TravelGraph> graph, int pose, const Pose& shape);

} // namespace shallot

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

// What a drawing of the walkable surfaces and links shows: a pose's mesh, at its feet (the
// pose's mins.z: the floor under the mesh); no mesh: nothing.
struct WalkableMeshKey {
    std::shared_ptr<const NavMesh> mesh;
    int pose = -1;
    double feet = 0;
    bool operator==(const WalkableMeshKey&) const = default;
};
struct WalkableMeshDrawing {
    WalkableMeshKey key;
    render::MeshBatch surfaces, links;
};
WalkableMeshDrawing drawWalkableMesh(WalkableMeshKey key);

// What a drawing of the travel shows: a pose's travel graph; no graph: nothing.
struct WalkableTravelKey {
    std::shared_ptr<const TravelGraph> graph;
    int pose = -1;
    bool operator==(const WalkableTravelKey&) const = default;
};
struct WalkableTravelDrawing {
    WalkableTravelKey key;
    render::MeshBatch travel;
};
WalkableTravelDrawing drawWalkableTravel(WalkableTravelKey key, const Pose& shape);

} // namespace shallot

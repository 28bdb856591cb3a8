#pragma once
// The navigation meshes of the newest compiled world, built once per pose and shared by
// whoever asks first and after: the Walkable overlay and paths (NavService) and the
// walking spawn check (SpawnCheckService) ask for the same meshes from two pool threads
// after every compile. A second asker of a mesh being built waits for it instead of
// building it again. Only the newest world's meshes are kept, and per pose the last one
// finished (of this world or an older one): after an edit of a few brushes a pose's mesh
// is updated from that one (updateNavMesh, core/nav/nav_mesh_update.h: the same mesh as a
// rebuild, reusing the probes away from the edit) instead of built whole.
#include "nav/nav_mesh.h"
#include "services/compile_service.h"

#include <future>
#include <map>
#include <memory>
#include <mutex>

namespace shallot {

class NavMeshCache {
public:
    // An edit of more brushes than this (previous and current counted apart) rebuilds.
    static constexpr size_t kMaxUpdateBrushes = 16;

    // `pose`'s mesh in `world`'s tree, by the pose's walking rules in `world`.
    std::shared_ptr<const NavMesh> get(const std::shared_ptr<const CompiledWorld>& world, int pose);

private:
    std::mutex mutex_;
    std::shared_ptr<const CompiledWorld> world_; // whose meshes are kept
    std::map<int, std::shared_future<std::shared_ptr<const NavMesh>>> meshes_;
    struct Done {
        std::shared_ptr<const CompiledWorld> world;
        std::shared_ptr<const NavMesh> mesh;
    };
    std::map<int, Done> lastDone_; // per pose, the newest mesh finished, to update from
};

} // namespace shallot

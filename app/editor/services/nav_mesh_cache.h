#pragma once
// The navigation meshes of the newest compiled world, built once per pose and shared by
// whoever asks first and after: the Walkable overlay and paths (NavService) and the
// walking spawn check (SpawnCheckService) ask for the same meshes from two pool threads
// after every compile. A second asker of a mesh being built waits for it instead of
// building it again, unless it is shown and the builder works for something later (the
// spawn checks run at the lowest priority: the Walkable overlay waited up to a second on
// them on a busy machine); then it builds its own. Only the newest world's meshes are
// kept, and per pose the last one finished (of this world or an older one): after an edit
// of a few brushes a pose's mesh is updated from that one (updateNavMesh,
// core/nav/nav_mesh_update.h: the same mesh as a rebuild, reusing the probes away from
// the edit) instead of built whole.
#include "nav/nav_mesh.h"
#include "services/compile_service.h"

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>

namespace shallot {

// Who asks for a mesh: something on screen (the Walkable overlay, paths), or work that
// follows at the lowest priority (the walking spawn check).
enum class MeshAsker { Shown, Later };

class NavMeshCache {
public:
    // An edit of more brushes than this (previous and current counted apart) rebuilds.
    static constexpr size_t kMaxUpdateBrushes = 16;

    // `pose`'s mesh in `world`'s tree, by the pose's walking rules in `world`.
    std::shared_ptr<const NavMesh> get(const std::shared_ptr<const CompiledWorld>& world, int pose,
                                       MeshAsker asker = MeshAsker::Shown);

    // Called on a builder's thread before it builds (tests hold a builder there).
    void setBeforeBuild(std::function<void(MeshAsker)> f) { beforeBuild_ = std::move(f); }

private:
    std::mutex mutex_;
    std::shared_ptr<const CompiledWorld> world_; // whose meshes are kept
    struct Entry {
        std::shared_future<std::shared_ptr<const NavMesh>> mesh;
        MeshAsker builder = MeshAsker::Shown; // who builds it
    };
    std::map<int, Entry> meshes_;
    struct Done {
        std::shared_ptr<const CompiledWorld> world;
        std::shared_ptr<const NavMesh> mesh;
    };
    std::map<int, Done> lastDone_; // per pose, the newest mesh finished, to update from
    std::function<void(MeshAsker)> beforeBuild_;
};

} // namespace shallot

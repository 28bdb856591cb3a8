#include "services/nav_mesh_cache.h"

namespace shallot {

std::shared_ptr<const NavMesh> NavMeshCache::get(const std::shared_ptr<const CompiledWorld>& world, int pose) {
    std::promise<std::shared_ptr<const NavMesh>> promise;
    std::shared_future<std::shared_ptr<const NavMesh>> future;
    {
        std::lock_guard lock(mutex_);
        if (world != world_) {
            // Another world: its meshes replace these (an older world's asker still holds
            // its own future, so nothing it waits for goes away).
            world_ = world;
            meshes_.clear();
        }
        auto it = meshes_.find(pose);
        if (it != meshes_.end()) {
            future = it->second;
        } else {
            meshes_[pose] = promise.get_future().share();
            future = {};
        }
    }
    if (future.valid()) return future.get();
    const std::vector<Pose>& poses = world->world.poses;
    const NavSettings rules = size_t(pose) < poses.size() ? poses[size_t(pose)].nav : NavSettings{};
    std::shared_ptr<const NavMesh> mesh;
    try {
        mesh = std::make_shared<const NavMesh>(buildNavMesh(world->result->onion, pose, rules));
    } catch (...) {
        promise.set_exception(std::current_exception());
        throw;
    }
    promise.set_value(mesh);
    return mesh;
}

} // namespace shallot

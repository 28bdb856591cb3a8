#include "services/nav_mesh_cache.h"

#include "nav/nav_mesh_update.h"

namespace shallot {

std::shared_ptr<const NavMesh> NavMeshCache::get(const std::shared_ptr<const CompiledWorld>& world, int pose,
                                                 MeshAsker asker) {
    std::promise<std::shared_ptr<const NavMesh>> promise;
    std::shared_future<std::shared_ptr<const NavMesh>> future;
    Done from;
    {
        std::lock_guard lock(mutex_);
        if (world != world_) {
            // Another world: its meshes replace these (an older world's asker still holds
            // its own future, so nothing it waits for goes away).
            world_ = world;
            meshes_.clear();
            std::erase_if(lastDone_, [&](const auto& done) { return size_t(done.first) >= world->world.poses.size(); });
        }
        auto it = meshes_.find(pose);
        const bool overtaken = it != meshes_.end() && asker == MeshAsker::Shown && it->second.builder == MeshAsker::Later &&
                               it->second.mesh.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
        if (it != meshes_.end() && !overtaken) {
            future = it->second.mesh;
        } else {
            // (Overtaken: the later builder still hands its own mesh, an equal one, to those
            // waiting for it.)
            meshes_[pose] = {promise.get_future().share(), asker};
            future = {};
            const auto done = lastDone_.find(pose);
            if (done != lastDone_.end() && done->second.world != world) from = done->second;
        }
    }
    if (future.valid()) return future.get();
    if (beforeBuild_) beforeBuild_(asker);
    const std::vector<Pose>& poses = world->world.poses;
    const NavSettings rules = size_t(pose) < poses.size() ? poses[size_t(pose)].nav : NavSettings{};
    std::shared_ptr<const NavMesh> mesh;
    try {
        std::optional<std::vector<Aabb>> edit;
        if (from.mesh) edit = navWorldEdit(from.world->world, world->world, kMaxUpdateBrushes);
        if (edit) {
            mesh = std::make_shared<const NavMesh>(updateNavMesh(*from.mesh, world->result->onion, pose, rules, *edit));
        } else {
            mesh = std::make_shared<const NavMesh>(buildNavMeshForUpdates(world->result->onion, pose, rules));
        }
    } catch (...) {
        promise.set_exception(std::current_exception());
        throw;
    }
    {
        std::lock_guard lock(mutex_);
        // Only the newest world's meshes are worth updating from (an older one finishing
        // late leaves a newer one in place).
        if (world == world_) lastDone_[pose] = {world, mesh};
    }
    promise.set_value(mesh);
    return mesh;
}

} // namespace shallot

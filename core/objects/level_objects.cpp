#include "objects/level_objects.h"

#include "compile/parallel_for.h"

namespace shallot {

std::vector<const CollisionObject*> LevelObjects::pointers() const {
    std::vector<const CollisionObject*> out;
    for (const CollisionObject& o : objects) out.push_back(&o);
    return out;
}

std::vector<Vec3> LevelObjects::offsets(const std::map<int, MoverState>& states) const {
    std::vector<Vec3> out;
    for (const Mover& m : movers.movers) {
        const auto it = states.find(m.entity);
        out.push_back(m.offsetAt(it != states.end() ? it->second : m.spawn));
    }
    return out;
}

LevelObjects buildLevelObjects(LevelMovers movers, const std::vector<Pose>& poses, const Aabb& worldBounds, int threads) {
    LevelObjects level;
    level.movers = std::move(movers);
    const std::vector<Mover>& list = level.movers.movers;
    level.objects.resize(list.size());
    parallelFor(list.size(), threads,
                [&](size_t i) { level.objects[i] = compileCollisionObject(list[i].brushes, poses, worldBounds); });
    return level;
}

} // namespace shallot

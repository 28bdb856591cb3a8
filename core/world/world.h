#pragma once
#include "geometry/aabb.h"
#include "geometry/tolerances.h"
#include "world/brush.h"
#include "world/pose.h"

#include <vector>

namespace shallot {

inline Aabb defaultWorldBounds() {
    return {Vec3::Constant(-kDefaultWorldExtent), Vec3::Constant(kDefaultWorldExtent)};
}

// Everything the compiler reads: the static brushes, the agent poses and the world box.
struct World {
    std::vector<Brush> brushes;
    std::vector<Pose> poses;
    Aabb bounds = defaultWorldBounds();
};

// Does `brush` block `pose`?
inline bool blocks(const Brush& brush, const Pose& pose) {
    for (const std::string& name : brush.excludedPoses)
        if (name == pose.name) return false;
    return intersects(brush.contents, pose.blockingSet());
}

// Quake's three hulls: point, player, large.
std::vector<Pose> quakePoses();

} // namespace shallot

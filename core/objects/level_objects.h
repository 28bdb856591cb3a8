#pragma once
// The collision objects of a level: one per brush entity the mover model knows (doors,
// plats, trains, buttons, and static ones such as func_wall), each compiled on its own in
// its file position's frame.
#include "movers/mover.h"
#include "objects/collision_object.h"

#include <map>
#include <vector>

namespace shallot {

struct LevelObjects {
    LevelMovers movers;
    std::vector<CollisionObject> objects; // one per movers.movers, same order

    std::vector<const CollisionObject*> pointers() const;
    // The offsets of every object at the given states (by entity index; any mover not
    // named is at its spawn state).
    std::vector<Vec3> offsets(const std::map<int, MoverState>& states = {}) const;
};

// Compiles every mover's brushes for `poses` (the world tree's, so pose indices agree) on up
// to `threads` threads.
LevelObjects buildLevelObjects(LevelMovers movers, const std::vector<Pose>& poses, const Aabb& worldBounds, int threads);

} // namespace shallot

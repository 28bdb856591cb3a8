#pragma once
// A placed object of the collision world (a door, a lift, a func_wall): its brushes
// compiled on their own into an onion tree over every pose, in the object's own frame (the
// frame its brushes are written in), by the world's compiler. Objects only translate
// (movers in Quake never rotate), so a query against a placed object is the same query
// against its tree, moved back by the placement.
#include "compile/compiler.h"

#include <vector>

namespace shallot {

struct CollisionObject {
    BspTree tree;       // every pose, own frame
    Aabb bounds;        // of its valid brushes' vertices that block some pose, own frame; empty: nothing to hit
    // The bounding sphere (the seed's Polyhedron::center, radius): the centre of `bounds`
    // and the distance to its farthest vertex.
    Vec3 centre = Vec3::Zero();
    double radius = 0.0;
    std::vector<BrushProblem> problems; // brushes the compiler left out
};

// Compiles `brushes` for `poses` (the world's, so pose indices agree) inside `worldBounds`.
CollisionObject compileCollisionObject(std::vector<Brush> brushes, const std::vector<Pose>& poses,
                                       const Aabb& worldBounds);

// A brush moved by `offset` (its planes and the points they were read from).
Brush translatedBrush(const Brush& brush, const Vec3& offset);

} // namespace shallot

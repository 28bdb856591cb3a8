#pragma once
// Random movers for the collision property tests (collision_scene_test,
// placed_move_spaces_test): doors of random brushes moving in random directions, at
// random states.
#include "movers/brush_bounds.h"
#include "movers/mover.h"
#include "random_world.h"

namespace shallot::test {

// A door (entity `entity`) of one or two random brushes near a random point within
// `spread` across (100 up and down), opening up to 128 units in a random direction.
inline Mover randomDoor(Rng& rng, int entity, double spread) {
    Mover m;
    m.entity = entity;
    m.kind = MoverKind::Door;
    const Vec3 centre(uniform(rng, -spread, spread), uniform(rng, -spread, spread), uniform(rng, -100, 100));
    for (int k = 0; k < 1 + int(rng() % 2); ++k)
        m.brushes.push_back(randomBrush(rng, centre + 20.0 * randomUnit(rng), uniform(rng, 8, 40), BrushShape(rng() % 3)));
    m.bounds = brushesBounds(m.brushes); // as buildMovers sets it
    m.motion.stops = {Vec3::Zero(), uniform(rng, 16, 128) * randomUnit(rng)};
    m.motion.waits = {0.0, 3.0};
    m.speed = 100.0;
    return m;
}

// Closed, open or a random fraction, one in three each.
inline MoverState randomMoverState(Rng& rng) {
    const int kind = int(rng() % 3);
    return kind == 0 ? MoverState::closed() : kind == 1 ? MoverState::open() : MoverState::at(uniform(rng, 0, 1));
}

} // namespace shallot::test

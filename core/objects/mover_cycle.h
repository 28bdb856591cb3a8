#pragma once
// How a mover runs when time alone drives it (shallot-cli simulate): from where the level
// spawns it, along its stops at its speed, waiting at each. Doors, buttons, plats and
// secret doors go to their far end and back, over and over, as if triggered again as soon
// as they are back; trains follow their corners and loop where their chain loops. What
// triggers them in the game (touch, buttons, riders) is not modelled.
#include "movers/mover.h"

#include <vector>

namespace shallot {

// A door or plat rests at least this long at each end of its cycle (Quake's default door
// and plat wait, 3 s; a mover's own longer wait is kept).
inline constexpr double kCycleRestSeconds = 3.0;

struct MoverCycle {
    // A leg: travel from `from` to `to` (offsets from the file position) in `travel`
    // seconds, then wait `wait` seconds at `to`.
    struct Leg {
        Vec3 from = Vec3::Zero(), to = Vec3::Zero();
        double travel = 0.0, wait = 0.0;
    };
    std::vector<Leg> legs; // from the spawn place; empty: it never moves
    // legs[loopFrom..] repeat for ever; loopFrom == legs.size(): it stays where the last
    // leg ends (a door whose wait is -1, a train whose chain ends).
    size_t loopFrom = 0;
    Vec3 rest = Vec3::Zero(); // where it is when it never moves

    // The offset from the file position `seconds` after the level starts (clamped to the
    // start for a negative or non-finite time).
    Vec3 offsetAt(double seconds) const;
};

// The cycle of `mover`. A static object, a mover with fewer than two stops, or a speed
// that is not a positive finite number never moves (it stays at its spawn place).
MoverCycle moverCycle(const Mover& mover);

} // namespace shallot

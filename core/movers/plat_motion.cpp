// A plat's motion: from its top (where it is drawn) down by `height`.
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

namespace shallot {
namespace {

// The games' plats wait this long at the top before they go down (plat_hit_top).
constexpr double kPlatTopWait = 3.0;

} // namespace

void setPlatMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes) {
    const int index = mover.entity;
    // Quake's and Half-Life's plats move 150 units a second; Quake 2's "speed" is per tenth
    // of a second, 20 by default (200 units a second; a map's value is scaled by 0.1 per
    // frame, so "speed" "150" is 150 a second).
    const bool quake2 = game == Game::Quake2 || game == Game::Quake3;
    mover.speed = numberOr(entity, index, "speed", quake2 ? 200.0 : 150.0, notes);
    mover.wait = kPlatTopWait;
    // Quake and Half-Life leave 8 units standing out when "height" is unset; Quake 2 `lip`.
    const double lip = quake2 ? numberOr(entity, index, "lip", 8.0, notes) : 8.0;
    const double sizeZ = mover.bounds.empty() ? 0.0 : mover.bounds.maxs.z() - mover.bounds.mins.z();
    const double height = numberOr(entity, index, "height", sizeZ - lip, notes);
    mover.motion.stops = {Vec3::Zero(), Vec3(0.0, 0.0, -height)};
    mover.motion.waits = {kPlatTopWait, 0.0};
    // A plat someone fires waits at the top for it; any other rests at the bottom.
    mover.spawn = mover.targetname.empty() ? MoverState::open() : MoverState::closed();
}

} // namespace shallot

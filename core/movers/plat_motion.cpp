// A plat's motion: from its top (where it is drawn) down by `height`.
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

namespace shallot {
namespace {

// The games' plats wait this long at the top before they go down (plat_hit_top).
constexpr double kPlatTopWait = 3.0;
constexpr int kPlatLowTrigger = 1; // PLAT_LOW_TRIGGER: the trigger only at the bottom
// The inside trigger (plat_spawn_inside_trigger) stands this far in from the plat's sides
// and reaches this far over its top; on a side this narrow it is a sliver 1 unit wide at
// the middle; with PLAT_LOW_TRIGGER it is this high over the plat at the bottom.
constexpr double kTriggerInset = 25.0, kTriggerOverTop = 8.0, kNarrowSide = 50.0, kLowTriggerHeight = 8.0;

// Where standing on the plat starts it: from its top at the bottom to a little over its
// top at the top, in from its sides, fixed in the world.
Aabb insideTrigger(const Aabb& bounds, double height, double lip, int spawnflags) {
    if (bounds.empty()) return {};
    Aabb t{bounds.mins + Vec3(kTriggerInset, kTriggerInset, 0.0), bounds.maxs + Vec3(-kTriggerInset, -kTriggerInset, kTriggerOverTop)};
    t.mins.z() = t.maxs.z() - (height + lip);
    if ((spawnflags & kPlatLowTrigger) != 0) t.maxs.z() = t.mins.z() + kLowTriggerHeight;
    for (int k = 0; k < 2; ++k)
        if (bounds.maxs[k] - bounds.mins[k] <= kNarrowSide) {
            t.mins[k] = 0.5 * (bounds.mins[k] + bounds.maxs[k]);
            t.maxs[k] = t.mins[k] + 1.0;
        }
    return t.mins.allFinite() && t.maxs.allFinite() ? t : Aabb{};
}

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
    mover.touchBounds = insideTrigger(mover.bounds, height, lip, mover.spawnflags);
    // A plat someone fires waits at the top for it; any other rests at the bottom.
    mover.spawn = mover.targetname.empty() ? MoverState::open() : MoverState::closed();
}

} // namespace shallot

// A door's and a button's motion: along their angle by their size less `lip`.
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

#include <cmath>

namespace shallot {
namespace {

// The spawnflags these read (the same bits in Quake, Quake 2 and Half-Life).
constexpr int kStartOpen = 1;
constexpr int kQuakeGoldKey = 8;
constexpr int kQuakeSilverKey = 16;
constexpr int kToggle = 32; // Quake 2 DOOR_TOGGLE, Half-Life SF_DOOR_NO_AUTO_RETURN

struct PushDefaults {
    double speed, wait, lip;
};

// How far along `direction` a box of `size` moves to clear itself less `lip`: Quake's
// fabs(movedir * size), Quake 2's and Quake 3's abs(movedir) * size, Half-Life's
// abs(movedir) * (size - 2) (its models' bounds are a unit larger on every side).
double travel(Game game, const Vec3& direction, const Vec3& size, double lip) {
    switch (game) {
    case Game::Quake: return std::abs(direction.dot(size)) - lip;
    case Game::Quake2:
    case Game::Quake3: return direction.cwiseAbs().dot(size) - lip;
    case Game::HalfLife: return direction.cwiseAbs().dot(size - Vec3::Constant(2.0)) - lip;
    }
    return std::abs(direction.dot(size)) - lip;
}

// Sets the two stops (closed at the file position, open `travel` along the angle; swapped
// when it starts open), speed, wait and spawn state.
void setPushMotion(Mover& mover, const MapEntity& entity, Game game, const PushDefaults& defaults,
                   std::vector<MoverNote>& notes) {
    const int index = mover.entity;
    const Vec3 direction = moveDirection(entity, index, notes);
    const double lip = numberOr(entity, index, "lip", defaults.lip, notes); // QuakeC: 0 is the default too
    mover.speed = numberOr(entity, index, "speed", defaults.speed, notes);
    mover.wait = numberOr(entity, index, "wait", defaults.wait, notes);
    const Vec3 size = mover.bounds.empty() ? Vec3::Zero() : Vec3(mover.bounds.maxs - mover.bounds.mins);
    Vec3 open = direction * travel(game, direction, size, lip);
    for (int k = 0; k < 3; ++k)
        if (open[k] == 0.0) open[k] = 0.0; // no -0 from a zero direction component times -travel
    const bool startOpen = (mover.spawnflags & kStartOpen) != 0;
    // QuakeC's START_OPEN moves the door to pos2 and swaps pos1 and pos2: it rests open
    // and "opens" back to where it was drawn.
    mover.motion.stops = startOpen ? std::vector<Vec3>{open, Vec3::Zero()} : std::vector<Vec3>{Vec3::Zero(), open};
    mover.motion.waits = {0.0, mover.wait};
    mover.spawn = MoverState::closed();
}

} // namespace

void setDoorMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes) {
    // Half-Life's door has no wait of its own (its .fgd writes 4 into the map); Quake's
    // and Quake 2's default to 3 seconds. Half-Life's lip defaults to 0.
    const PushDefaults defaults = game == Game::HalfLife ? PushDefaults{100.0, 0.0, 0.0} : PushDefaults{100.0, 3.0, 8.0};
    setPushMotion(mover, entity, game, defaults, notes);
    if ((mover.spawnflags & kToggle) != 0) mover.motion.waits.back() = -1.0;
    mover.health = healthOf(entity, mover.entity, notes);
    if (game == Game::Quake) {
        if ((mover.spawnflags & kQuakeSilverKey) != 0) mover.key = KeyKind::Silver;
        if ((mover.spawnflags & kQuakeGoldKey) != 0) mover.key = KeyKind::Gold; // doors.qc sets gold last
        // A key door, once unlocked, stays open.
        if (mover.key != KeyKind::None) mover.wait = mover.motion.waits.back() = -1.0;
    }
}

void setButtonMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes) {
    // Quake 2 buttons wait 3 seconds pressed; Quake's and Half-Life's 1.
    const PushDefaults defaults{40.0, game == Game::Quake2 || game == Game::Quake3 ? 3.0 : 1.0, 4.0};
    setPushMotion(mover, entity, game, defaults, notes);
    mover.health = healthOf(entity, mover.entity, notes);
}

} // namespace shallot

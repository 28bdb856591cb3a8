// A secret door's motion: aside (or down) by its width, then back by its length.
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

#include <cmath>
#include <numbers>

namespace shallot {
namespace {

constexpr int kOpenOnce = 1; // SECRET_OPEN_ONCE: stays open
constexpr int kFirstLeft = 2;
constexpr int kFirstDown = 4;
// Quake's secret door waits this long between its two moves (fd_secret_move2).
constexpr double kQuakeSecretPause = 1.0;

// The games' AngleVectors for pitch 0, roll 0 and `yaw` degrees: forward, right, up.
void yawVectors(double yawDegrees, Vec3& forward, Vec3& right, Vec3& up) {
    const double yaw = yawDegrees * std::numbers::pi / 180.0;
    // A component this small is cos/sin rounding at a multiple of 90 degrees: zero.
    constexpr double kDirectionNoise = 1e-12;
    auto clean = [](Vec3 v) {
        for (int k = 0; k < 3; ++k)
            if (std::abs(v[k]) < kDirectionNoise) v[k] = 0.0;
        return v;
    };
    forward = clean(Vec3(std::cos(yaw), std::sin(yaw), 0.0));
    right = clean(Vec3(std::sin(yaw), -std::cos(yaw), 0.0));
    up = Vec3::UnitZ();
}

} // namespace

void setSecretDoorMotion(Mover& mover, const MapEntity& entity, Game game, std::vector<MoverNote>& notes) {
    const int index = mover.entity;
    // Quake's and Quake 2's secret doors: 50 units a second, 5 seconds open.
    mover.speed = numberOr(entity, index, "speed", 50.0, notes);
    mover.wait = numberOr(entity, index, "wait", 5.0, notes);
    mover.health = healthOf(entity, index, notes);
    Vec3 forward, right, up;
    yawVectors(yawOf(entity), forward, right, up);
    const Vec3 size = mover.bounds.empty() ? Vec3::Zero() : Vec3(mover.bounds.maxs - mover.bounds.mins);
    const bool down = (mover.spawnflags & kFirstDown) != 0;
    double width = std::abs((down ? up : right).dot(size));
    double length = std::abs(forward.dot(size));
    // Quake lets the map set both distances ("t_width", "t_length"); Quake 2 measures them.
    if (game == Game::Quake) {
        width = numberOr(entity, index, "t_width", width, notes);
        length = numberOr(entity, index, "t_length", length, notes);
    }
    const double side = (mover.spawnflags & kFirstLeft) != 0 ? -1.0 : 1.0;
    Vec3 first = down ? Vec3(-up * width) : Vec3(right * (side * width));
    Vec3 last = first + forward * length;
    // No -0 from zero direction components times a distance.
    for (int k = 0; k < 3; ++k) {
        if (first[k] == 0.0) first[k] = 0.0;
        if (last[k] == 0.0) last[k] = 0.0;
    }
    mover.motion.stops = {Vec3::Zero(), first, last};
    const double openWait = (mover.spawnflags & kOpenOnce) != 0 ? -1.0 : mover.wait;
    mover.motion.waits = {0.0, kQuakeSecretPause, openWait};
    mover.spawn = MoverState::closed();
}

} // namespace shallot

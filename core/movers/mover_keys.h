#pragma once
// Reading a mover's keys the way the games' spawn functions do, with a note for every
// value that is not a number (movers/build_movers.cpp and the motion rules).
#include "io/map_file.h"
#include "movers/mover.h"

#include <string_view>
#include <vector>

namespace shallot {

// The entity's number key `key`: nothing when absent; `fallback` (with a note) when it is
// not one finite number. Quake's stof reads "12abc" as 12; Shallot reads only whole numbers
// so that a typo is shown, not guessed.
std::optional<double> numberKey(const MapEntity& entity, int index, std::string_view key,
                                std::vector<MoverNote>& notes);

// The key's value as the games read a float field: absent or 0 gives `fallback` (QuakeC's
// `if (!self.speed) self.speed = 100;`), a bad value too (with a note).
double numberOr(const MapEntity& entity, int index, std::string_view key, double fallback,
                std::vector<MoverNote>& notes);

// "spawnflags" as an integer (0 when absent or not a number, with a note for the latter).
int spawnflagsOf(const MapEntity& entity, int index, std::vector<MoverNote>& notes);

// "health" (a door, button or secret door with health opens when shot), 0 when absent or
// bad, clamped to what an int holds.
int healthOf(const MapEntity& entity, int index, std::vector<MoverNote>& notes);

// The unit direction a door or button moves along, from "angle" (or "angles" "P Y R"):
// -1 up, -2 down, else the yaw (and pitch) as the games' SetMovedir turns them into a
// forward vector. A bad value (with a note) gives yaw 0.
Vec3 moveDirection(const MapEntity& entity, int index, std::vector<MoverNote>& notes);

// The yaw in degrees ("angle", or the second of "angles"), 0 when absent or bad.
double yawOf(const MapEntity& entity);

} // namespace shallot

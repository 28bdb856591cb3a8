#pragma once
// How an agent of a pose walks (Quake's rules by default): stored with the pose, used by
// the navigation mesh (core/nav/nav_mesh.h).
#include <limits>
#include <string>
#include <string_view>

namespace shallot {

struct NavSettings {
    // A surface is ground when its upward normal has z at least this (Quake's 0.7: slopes
    // up to about 45.6 degrees).
    double walkableNormalZ = 0.7;
    // The box climbs edges up to this height (Quake's stair step) and steps down as far.
    double stepHeight = 18.0;
    // The box drops from an edge onto ground at most this far below (default: any).
    double maxDrop = std::numeric_limits<double>::infinity();
    // Jumps off free edges: up to jumpHeight above the takeoff and jumpLength across
    // (Quake's player: 270 units/s up against 800 gravity, 45.6 high; 320 units/s across).
    bool jump = false;
    double jumpHeight = 45.0;
    double jumpLength = 128.0;
    // Leave out the ground of the void around the level (leaves reachable from outside the
    // world box for the pose: the roofs' tops). A level that leaks has no inside left.
    bool insideOnly = true;

    bool operator==(const NavSettings&) const = default;
};

// For messages: "step 18, drops of any height, no jumps".
std::string navSettingsSummary(const NavSettings& settings);

// The settings as text fields (a pose's worldspawn key, core/io/map_to_world.h): the ones
// that differ from the defaults, "slope=0.8 step=24 drop=64 jump=45,128", "" for none.
std::string navSettingsFields(const NavSettings& settings);
// Applies one such field ("drop=any", "jump=off" also read); false, settings unchanged,
// when it is not one or its value is out of range (negative, not a number).
bool applyNavSettingsField(std::string_view field, NavSettings& settings);

} // namespace shallot

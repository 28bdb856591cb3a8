#pragma once
// How an agent of a pose walks (Quake's rules by default): stored with the pose, used by
// the navigation mesh (core/nav/nav_mesh.h).
#include <limits>

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

} // namespace shallot

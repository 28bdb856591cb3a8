#pragma once
#include "geometry/plane.h"

#include <cstdint>
#include <string>

namespace shallot {

// An agent pose: the axis-aligned box an agent occupies relative to its reference point.
// A zero-size box is the "point" pose (Quake's hull 0).
struct Pose {
    std::string name;
    Vec3 mins = Vec3::Zero();
    Vec3 maxs = Vec3::Zero();
    uint32_t colour = 0xff8040ffu; // RGBA, used by the editor

    bool isPoint() const { return mins == maxs; }
    bool isValid() const {
        return mins.allFinite() && maxs.allFinite() && (mins.array() <= maxs.array()).all() && !name.empty();
    }
};

// At most this many poses per world: a leaf's solidity is one 64-bit word.
inline constexpr int kMaxPoses = 64;

} // namespace shallot

#pragma once
#include "geometry/plane.h"
#include "world/contents.h"
#include "world/nav_settings.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shallot {

// An agent pose: the axis-aligned box an agent occupies relative to its reference point.
// A zero-size box is the "point" pose (Quake's hull 0).
struct Pose {
    std::string name;
    Vec3 mins = Vec3::Zero();
    Vec3 maxs = Vec3::Zero();
    uint32_t colour = 0xff8040ffu; // RGBA, used by the editor
    // The contents that block this pose; unset: defaultBlocking(isPoint()), Quake's rule.
    std::optional<BrushContents> blocking = {};
    // How the pose walks (its navigation mesh); no part of its tree.
    NavSettings nav = {};

    bool isPoint() const { return mins == maxs; }
    BrushContents blockingSet() const { return blocking ? *blocking : defaultBlocking(isPoint()); }
    bool isValid() const {
        return mins.allFinite() && maxs.allFinite() && (mins.array() <= maxs.array()).all() && !name.empty();
    }
};

// The same poses, name, box and what blocks them, in the same order (their colours aside).
inline bool samePoseBoxes(const std::vector<Pose>& a, const std::vector<Pose>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Pose& p, const Pose& q) {
        return p.name == q.name && p.mins == q.mins && p.maxs == q.maxs && p.blockingSet() == q.blockingSet();
    });
}

// At most this many poses per world: a leaf's solidity is one 64-bit word.
inline constexpr int kMaxPoses = 64;

} // namespace shallot

#pragma once
#include "geometry/plane.h"
#include "world/contents.h"
#include "world/nav_settings.h"
#include "world/pose_shape.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shallot {

// An agent pose: the axis-aligned box an agent occupies relative to its reference point.
// A zero-size box is the "point" pose (Quake's hull 0). A round pose (shape.isRound()) is
// an ellipsoid or capsule centred on the reference point; its mins/maxs are then the
// shape's bounding box (Pose::round sets both).
struct Pose {
    std::string name;
    Vec3 mins = Vec3::Zero();
    Vec3 maxs = Vec3::Zero();
    uint32_t colour = 0xff8040ffu; // RGBA, used by the editor
    // The contents that block this pose; unset: defaultBlocking(isPoint()), Quake's rule.
    std::optional<BrushContents> blocking = {};
    // How the pose walks (its navigation mesh); no part of its tree.
    NavSettings nav = {};
    PoseShape shape = {}; // a box unless set

    // A round pose: its shape, and its bounding box as mins/maxs.
    static Pose round(std::string name, const PoseShape& shape) {
        Pose p;
        p.name = std::move(name);
        p.shape = shape;
        p.maxs = boundingHalfExtents(shape);
        p.mins = -p.maxs;
        return p;
    }

    bool isPoint() const { return mins == maxs; }
    BrushContents blockingSet() const { return blocking ? *blocking : defaultBlocking(isPoint()); }
    bool isValid() const {
        if (!(mins.allFinite() && maxs.allFinite() && (mins.array() <= maxs.array()).all() && !name.empty()))
            return false;
        if (!shape.isRound()) return true;
        return poseShapeProblem(shape).empty() && maxs == boundingHalfExtents(shape) && mins == -maxs;
    }
};

// The same poses, name, box (and round shape) and what blocks them, in the same order
// (their colours aside).
inline bool samePoseBoxes(const std::vector<Pose>& a, const std::vector<Pose>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Pose& p, const Pose& q) {
        return p.name == q.name && p.mins == q.mins && p.maxs == q.maxs && p.shape == q.shape &&
               p.blockingSet() == q.blockingSet();
    });
}

// As samePoseBoxes, and how each walks too (Pose::nav): what a pose's walkable meshes and
// travel were built for.
inline bool samePosesAndWalking(const std::vector<Pose>& a, const std::vector<Pose>& b) {
    return samePoseBoxes(a, b) &&
           std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Pose& p, const Pose& q) { return p.nav == q.nav; });
}

// At most this many poses per world: a leaf's solidity is one 64-bit word.
inline constexpr int kMaxPoses = 64;

} // namespace shallot

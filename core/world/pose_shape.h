#pragma once
// The shape of an agent pose: the axis-aligned box every pose had, or a round shape (an
// ellipsoid, the thesis's agent; a vertical capsule, a modern character controller's).
// A round shape is centred on the pose's reference point.
#include "geometry/plane.h"

#include <optional>
#include <string>
#include <string_view>

namespace shallot {

enum class PoseShapeKind { Box, Ellipsoid, Capsule };

struct PoseShape {
    PoseShapeKind kind = PoseShapeKind::Box;
    // Ellipsoid: radius across (x and y). Capsule: radius of its cylinder and caps.
    double radius = 0.0;
    // Ellipsoid: radius up (z). Capsule: total height, caps included (at least 2 radius).
    double height = 0.0;

    bool isRound() const { return kind != PoseShapeKind::Box; }
    bool operator==(const PoseShape&) const = default;

    static PoseShape ellipsoid(double across, double up) { return {PoseShapeKind::Ellipsoid, across, up}; }
    static PoseShape capsule(double radius, double height) { return {PoseShapeKind::Capsule, radius, height}; }
};

// Largest radius or height a round shape may have: the world box's half-extent.
inline constexpr double kMaxRoundShapeSize = 65536.0;
// Smallest: 100 times the exact tests' contact band (kRoundContactBand, 1e-3), so that the
// band stays a hair of the shape; anything smaller is the point pose's job.
inline constexpr double kMinRoundShapeSize = 0.1;

// Why a round shape cannot be used ("capsule radius must be positive", ...), empty when it
// can (a box shape always can: its extent is the pose's mins/maxs).
std::string poseShapeProblem(const PoseShape& shape);

// Half-extents of the smallest axis-aligned box around a valid round shape.
Vec3 boundingHalfExtents(const PoseShape& shape);

// Half-extents of the largest-volume axis-aligned box centred in a valid round shape
// (the derivations are in pose_shape.cpp).
Vec3 inscribedHalfExtents(const PoseShape& shape);

// "ellipsoid:R,H" / "capsule:R,HEIGHT" for a round shape, "box" for a box.
std::string poseShapeText(const PoseShape& shape);

// The inverse of poseShapeText for round shapes; an error message for anything else.
struct PoseShapeParse {
    std::optional<PoseShape> shape;
    std::string error;
};
PoseShapeParse parsePoseShape(std::string_view text);

} // namespace shallot

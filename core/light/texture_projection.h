#pragma once
// A face's texture space as Quake's tools compute it from a .map face line: the s and t
// axes (scaled: one unit of s is one texel) and offsets, s = dot(p, axis[0]) + offset[0].
#include "world/brush.h"

#include <array>
#include <optional>
#include <string>

namespace shallot {

struct TextureProjection {
    std::array<Vec3, 2> axis{Vec3::UnitX(), Vec3::UnitY()};
    std::array<double, 2> offset{0.0, 0.0};

    double coordinate(int i, const Vec3& p) const { return axis[size_t(i)].dot(p) + offset[size_t(i)]; }
};

// The projection of `side` from its verbatim parameters (BrushSide::textureParams):
//  - standard "XOFF YOFF ROT XSCALE YSCALE [...]": Quake's axial projection (qbsp's
//    TextureAxisFromPlane on the side's plane, then the rotation, scale and shift);
//  - Valve 220 "[ UX UY UZ UOFF ] [ VX VY VZ VOFF ] ROT XSCALE YSCALE": the axes divided by
//    the scales, the offsets as given (the rotation is already in the axes).
// A scale of 0 counts as 1, as qbsp reads it. Quake 3 brushDef faces (a texture matrix
// instead) and empty parameters take the axial projection with no shift, rotation or scale.
// Nothing, and `error` says why, when the parameters do not read as either form or the
// result is not finite.
std::optional<TextureProjection> textureProjection(const BrushSide& side, std::string* error = nullptr);

// Quake's axial projection of a plane with `normal`: the base axes of the axis-aligned
// plane its normal is closest to (floor, ceiling, or one of four walls), first in qbsp's
// order on a tie.
std::array<Vec3, 2> quakeBaseAxes(const Vec3& normal);

} // namespace shallot

#pragma once
// A face's lightmap grid as Quake computes it: luxels every 16 texels in texture space,
// texturemins = floor(min s / 16) * 16, extents = ceil(max s / 16) * 16 - texturemins
// (the engine's CalcSurfaceExtents, id's light CalcFaceExtents), (extents / 16) + 1
// luxels across; and id's light's map from texture space back onto the face
// (CalcFaceVectors): along the texture plane's normal, one unit in front of the face.
#include "light/lit_faces.h"

#include <array>
#include <optional>
#include <string>

namespace shallot {

inline constexpr double kLuxelSize = 16.0; // texels per luxel (Quake's lightmap step)

// A vertex's texture coordinate within this of a multiple of 16 counts as on it when the
// extents are rounded out: vertices computed from plane triples carry rounding of about
// 1e-9, which must not add a row of luxels (the engine reads float vertices that qbsp wrote
// rounded); a thousandth of a texel is far below anything a designer places.
inline constexpr double kExtentSnap = 1e-3;

// Sample points lie this far in front of the face (id's light: texorg projected to the
// plane plus 1; ericw-tools' sampleOffPlaneDist).
inline constexpr double kSampleOffPlane = 1.0;

// More luxels than this on one face are refused (the face is left unlit with a warning):
// a 65536-unit world's largest face has 4097^2; Quake's compiler cuts faces to 18 x 18.
inline constexpr long long kMaxFaceLuxels = 1LL << 24;

struct LuxelGrid {
    std::array<int, 2> mins{0, 0}; // texturemins / 16
    std::array<int, 2> size{0, 0}; // extents / 16
    std::array<double, 2> exactMins{0, 0}, exactMaxs{0, 0}; // of the vertices' s and t
    Vec3 origin = Vec3::Zero();    // id's texorg: the point of s = t = 0, kSampleOffPlane in front
    std::array<Vec3, 2> step{Vec3::Zero(), Vec3::Zero()}; // id's textoworld: world motion per texel

    int width() const { return size[0] + 1; }
    int height() const { return size[1] + 1; }
    long long luxels() const { return (long long)width() * height(); }
    // The point kSampleOffPlane in front of the face at texture coordinates (s, t).
    Vec3 pointAt(double s, double t) const { return origin + step[0] * s + step[1] * t; }
    // Texture coordinates of luxel (i, j).
    double luxelS(int i) const { return (mins[0] + i) * kLuxelSize; }
    double luxelT(int j) const { return (mins[1] + j) * kLuxelSize; }
};

// Nothing, and `error` says why, when the texture axes are parallel or lie in the face's
// plane (id's "Texture axis perpendicular to face"), or the face needs more than
// kMaxFaceLuxels.
std::optional<LuxelGrid> luxelGrid(const LitFace& face, std::string* error = nullptr);

} // namespace shallot

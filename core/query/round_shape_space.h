#pragma once
// The space the exact round-shape tests work in. Scaling space by `scale` turns an
// ellipsoid with radii (r, r, h) into the unit sphere (Fauerby's method, here for whole
// convex brushes); a capsule needs no scaling: it is the set of points within `radius` of
// its core, the vertical segment centre +- halfCore z. Either way the shape at p overlaps a
// brush iff the distance from its core to the (scaled) brush is below `radius`.
#include "world/brush_geometry.h"
#include "world/pose_shape.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace shallot {

struct RoundShapeFrame {
    Vec3 scale = Vec3::Ones(); // world -> shape space, per axis
    double radius = 1.0;       // of the sphere swept along the core, in shape space
    double halfCore = 0.0;     // half-length of the vertical core segment (0: a point)
    // Shape-space lengths per world unit, at least: world tolerances times this are
    // shape-space tolerances no looser than stated in world units.
    double shapePerWorld = 1.0;

    static RoundShapeFrame of(const PoseShape& shape); // shape.isRound(), valid

    Vec3 toShape(const Vec3& world) const { return world.cwiseProduct(scale); }
    Vec3 toWorld(const Vec3& shape) const { return shape.cwiseQuotient(scale); }
    // A shape-space normal as a world unit normal (normals scale by the inverse transpose).
    Vec3 normalToWorld(const Vec3& shapeNormal) const { return shapeNormal.cwiseProduct(scale).normalized(); }
    // The core's ends for a shape centred at c (shape space).
    Vec3 coreLow(const Vec3& c) const { return c - halfCore * Vec3::UnitZ(); }
    Vec3 coreHigh(const Vec3& c) const { return c + halfCore * Vec3::UnitZ(); }
};

// One face of a brush in shape space: its plane and, in that plane, the outward planes of
// its polygon's sides (faceSides[firstSide, firstSide + sideCount)).
struct RoundFace {
    Plane plane;
    uint32_t firstSide = 0;
    uint32_t sideCount = 0;
};

// An edge whose direction's sine against the vertical is below this counts as vertical:
// the side of a capsule's core meets it along its ends (the vertices' vertical cylinders),
// and its horizontal normal would be ill-defined.
inline constexpr double kVerticalEdgeSine = 1e-9;

// A vertex lies on a face when within this distance of its plane (shape space, relative to
// the vertex's size). Generous: a face too many only makes a sweep test a patch it could
// have skipped (round_shape_trace.cpp), never skip one it needs.
inline constexpr double kOnFaceTolerance = 1e-6;

// An edge of a brush in shape space, with what the sweeps would otherwise recompute per
// query: its unit direction and length, and the unit horizontal normal dir x up (zero for
// a vertical edge).
struct RoundEdge {
    Vec3 from = Vec3::Zero();
    Vec3 to = Vec3::Zero();
    Vec3 dir = Vec3::Zero();
    double length = 0.0;
    Vec3 across = Vec3::Zero();
    uint64_t faces = 0; // faceMask of the faces it lies on
};

// A valid convex brush mapped into a frame's shape space.
struct RoundBrush {
    std::vector<RoundFace> faces;
    std::vector<Plane> faceSides;
    std::vector<Vec3> vertices;
    std::vector<uint64_t> vertexFaces; // per vertex, faceMask of the faces it lies on
    std::vector<RoundEdge> edges;

    static RoundBrush of(const BrushGeometry& geometry, const RoundShapeFrame& frame);

    // Bit f for face f; every bit for faces past the 64th (a mask then says "maybe").
    static uint64_t faceMask(size_t f) { return f < 64 ? uint64_t(1) << f : ~uint64_t(0); }

    // Is `x`, a point of face f's plane, inside its polygon (to `tolerance`)?
    bool inFace(const RoundFace& f, const Vec3& x, double tolerance) const {
        for (uint32_t i = f.firstSide; i < f.firstSide + f.sideCount; ++i)
            if (faceSides[i].signedDistance(x) > tolerance) return false;
        return true;
    }
};

} // namespace shallot

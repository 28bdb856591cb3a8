#pragma once
#include "query/slide_move.h"
#include "query/trace.h"
#include "world/brush_geometry.h"
#include "world/world.h"

#include <vector>

namespace shallot {

// One valid brush of the world, ready to be swept against.
struct BoxTraceBrush {
    int32_t worldIndex = -1; // index in World::brushes
    BrushContents contents = BrushContents::Solid;
    Aabb bounds;
    // BoxTraceWorld::planes[firstPlane, firstPlane + planeCount): expandedPlanes(geometry,
    // point pose), i.e. the planes of the Minkowski sum before the box is added. The box
    // only moves each plane out by poseSupport(box, normal), so adding that gives exactly
    // expandedPlanes(geometry, box).
    uint32_t firstPlane = 0;
    uint32_t planeCount = 0;
};

// A node of the static AABB tree over brush bounds: a leaf when count > 0 (brushes
// order[first, first + count)), otherwise children at index + 1 and `second`.
struct BoxTraceNode {
    Aabb bounds;
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t second = 0;
};

// The world prepared for sweeping arbitrary boxes (not compiled poses). Built once; const
// and thread-safe to query.
struct BoxTraceWorld {
    std::vector<BrushGeometry> geometry; // per brush below
    std::vector<BoxTraceBrush> brushes;
    std::vector<Plane> planes;
    std::vector<BoxTraceNode> nodes;     // nodes[0] is the root (when there are brushes)
    std::vector<uint32_t> order;         // brush indices, leaf by leaf

    // Invalid brushes (buildBrushGeometry fails) and non-solid brushes are left out.
    static BoxTraceWorld build(const World& world);
};

// Sweeps the box [mins, maxs] (mins <= maxs) from `from` to `to` against every brush that
// blocks it (Clip brushes block any box that is not a point, as for poses): an exact
// Minkowski expansion per candidate brush, clipped Cyrus-Beck style; the earliest entry
// wins. Same conventions, tolerances and start-solid nudge as traceSegment, so a compiled
// pose and its box give the same answer; like the trees, a segment lying in a seam between
// two touching brushes is inside their union. `plane` is always -1.
TraceResult traceBox(const BoxTraceWorld& world, const Vec3& mins, const Vec3& maxs, const Vec3& from,
                     const Vec3& to);

// One box in a BoxTraceWorld (kept by reference) as a MoveSpace: traceBox, and solid where
// the box placed at p overlaps a blocking brush (a sweep of length zero starts in solid).
class BoxMoveSpace final : public MoveSpace {
public:
    BoxMoveSpace(const BoxTraceWorld& world, const Vec3& mins, const Vec3& maxs) : world_(world), mins_(mins), maxs_(maxs) {}
    TraceResult trace(const Vec3& from, const Vec3& to) const override { return traceBox(world_, mins_, maxs_, from, to); }
    bool isSolid(const Vec3& p) const override { return traceBox(world_, mins_, maxs_, p, p).startSolid; }

private:
    const BoxTraceWorld& world_;
    Vec3 mins_, maxs_;
};

} // namespace shallot

#include "mover_state_batches.h"

#include "palette.h"

namespace shallot::render {

namespace {
// Opacity of the ghosts (a volume of many brushes stacks them) and of the agents' boxes.
constexpr int kSweptAlpha = 60;
constexpr int kAgentAlpha = 150;
} // namespace

MeshBatch buildMoverSweptBatch(std::span<const BrushGeometry> volumes) {
    MeshBatch out;
    out.lit = false;
    QColor ghost = kMoverSweptColour;
    ghost.setAlpha(kSweptAlpha);
    for (const BrushGeometry& v : volumes)
        for (const ConvexFace& f : v.hull.faces) out.addPolygon(f.polygon.vertices, f.plane.normal, ghost);
    return out;
}

MeshBatch buildAgentBatch(std::span<const Aabb> boxes) {
    MeshBatch out;
    out.outline = kPoseBoxColour.darker();
    QColor fill = kPoseBoxColour;
    fill.setAlpha(kAgentAlpha);
    for (const Aabb& box : boxes) out.addBoxFaces(box, fill);
    return out;
}

} // namespace shallot::render

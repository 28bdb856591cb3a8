#include "round_surface_batch.h"

#include "palette.h"

#include <array>

namespace shallot::render {

MeshBatch roundSurfaceBatch(const std::vector<RoundSurfaceVertex>& triangles) {
    MeshBatch batch;
    const QColor colour = kExpandedWorldColour;
    batch.vertices.reserve(triangles.size());
    batch.setLeaf(-1); // seen from everywhere in range: the surface belongs to no leaf of the tree drawn
    for (size_t i = 0; i + 2 < triangles.size(); i += 3)
        batch.addSmoothTriangle({triangles[i].position, triangles[i + 1].position, triangles[i + 2].position},
                                {triangles[i].normal, triangles[i + 1].normal, triangles[i + 2].normal}, colour);
    return batch;
}

void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfaceVertex>& triangles, int axis, double at) {
    for (size_t i = 0; i + 2 < triangles.size(); i += 3) {
        // A corner on the plane counts as above it, so an edge through it is cut once.
        std::array<Vec3, 2> cut;
        int found = 0;
        for (size_t k = 0; k < 3 && found < 2; ++k) {
            const Vec3& a = triangles[i + k].position;
            const Vec3& b = triangles[i + (k + 1) % 3].position;
            const double da = a[axis] - at, db = b[axis] - at;
            if ((da < 0.0) == (db < 0.0)) continue;
            cut[size_t(found++)] = a + (b - a) * (da / (da - db));
        }
        if (found == 2) lines.addLine(cut[0], cut[1], kExpandedWorldColour);
    }
}

} // namespace shallot::render

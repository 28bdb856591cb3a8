#include "round_surface_batch.h"

#include "palette.h"
#include "portal/leaf_visibility.h"

#include <array>

namespace shallot::render {

namespace {

// The segments where the plane cuts one brush's triangles.
void addSection(MeshBatch& lines, const std::vector<RoundSurfaceVertex>& triangles, int axis, double at) {
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

} // namespace

MeshBatch roundSurfaceBatch(const std::vector<RoundSurfacePiece>& pieces, const BspTree& tree) {
    MeshBatch batch;
    const QColor colour = kExpandedWorldColour;
    size_t total = 0;
    for (const RoundSurfacePiece& piece : pieces) total += piece ? piece->size() : 0;
    batch.vertices.reserve(total);
    const int sight = sightPose(tree);
    for (const RoundSurfacePiece& piece : pieces) {
        if (!piece) continue;
        const std::vector<RoundSurfaceVertex>& t = *piece;
        for (size_t i = 0; i + 2 < t.size(); i += 3) {
            int32_t leaf = -1;
            if (sight >= 0 && tree.leafCount()) {
                leaf = tree.findLeaf(t[i].position + kRoundSurfaceLeafProbe * t[i].normal);
                for (size_t k = 1; k < 3 && leaf >= 0; ++k)
                    if (tree.findLeaf(t[i + k].position + kRoundSurfaceLeafProbe * t[i + k].normal) != leaf) leaf = -1;
                if (leaf >= 0 && ((tree.leafSolid[size_t(leaf)] >> sight) & 1u)) leaf = -1;
            }
            batch.setLeaf(leaf);
            batch.addSmoothTriangle({t[i].position, t[i + 1].position, t[i + 2].position},
                                    {t[i].normal, t[i + 1].normal, t[i + 2].normal}, colour);
        }
    }
    return batch;
}

void addRoundSurfaceSection(MeshBatch& lines, const std::vector<RoundSurfacePiece>& pieces, int axis, double at) {
    for (const RoundSurfacePiece& piece : pieces)
        if (piece) addSection(lines, *piece, axis, at);
}

} // namespace shallot::render

#include "brush_scene_builder.h"

#include <algorithm>
#include <array>
#include <functional>

namespace shallot::render {

BrushKind brushKind(BrushContents c) {
    if (intersects(c, BrushContents::Solid | BrushContents::Window)) return BrushKind::Solid;
    if (intersects(c, BrushContents::Clip | BrushContents::PlayerClip)) return BrushKind::PlayerClip;
    if (intersects(c, BrushContents::MonsterClip | BrushContents::BotClip)) return BrushKind::MonsterClip;
    return BrushKind::NonSolid;
}

QColor brushColour(const Brush& brush) {
    switch (brushKind(brush.contents)) {
    case BrushKind::PlayerClip: return kPlayerClipBrushColour;
    case BrushKind::MonsterClip: return kMonsterClipBrushColour;
    case BrushKind::NonSolid: return kNonSolidBrushColour;
    case BrushKind::Solid: break;
    }
    return textureTint(brush.sides.empty() ? std::string() : brush.sides.front().texture);
}

QColor textureTint(const std::string& texture) {
    const size_t h = std::hash<std::string>{}(texture);
    return QColor::fromHsv(int(h % 360), 40 + int((h >> 9) % 40), 170 + int((h >> 17) % 50));
}

namespace {

// A patch's cells as quads (two-sided: a patch is a sheet, seen from either side) and its
// grid as lines.
void addPatch(BrushBatches& out, const PatchMesh& m, const QColor& line) {
    for (int r = 0; r + 1 < m.rows; ++r)
        for (int c = 0; c + 1 < m.columns; ++c) {
            const std::array<Vec3, 4> quad{m.at(r, c), m.at(r, c + 1), m.at(r + 1, c + 1), m.at(r + 1, c)};
            const Vec3 n = (quad[2] - quad[0]).cross(quad[3] - quad[1]);
            if (n.squaredNorm() < 1e-12) continue; // a cell collapsed to a line or a point
            const Vec3 unit = n.normalized();
            out.faces.addPolygon(quad, unit, kPatchColour);
            out.faces.addPolygon(quad, -unit, kPatchColour);
        }
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.columns; ++c) {
            if (c + 1 < m.columns) out.edges.addLine(m.at(r, c), m.at(r, c + 1), line);
            if (r + 1 < m.rows) out.edges.addLine(m.at(r, c), m.at(r + 1, c), line);
        }
}

} // namespace

BrushBatches buildBrushBatches(const std::vector<Brush>& brushes, const std::vector<std::shared_ptr<const BrushGeometry>>& geometry,
                               const std::vector<int>& selected, const std::vector<PatchMesh>& patches) {
    BrushBatches out;
    out.edges.primitive = out.selectedEdges.primitive = Primitive::Lines;
    out.edges.lit = out.selectedEdges.lit = false;
    out.selectedFaces.lit = false;
    const QColor edge = kBrushEdgeColour, selectedEdge = kSelectionColour, selectedTint(kSelectionColour.red(), kSelectionColour.green(), kSelectionColour.blue(), 90);
    out.faces.outline = edge; // the 3D view's edges; `edges` are the 2D views' lines
    out.selectedFaces.outline = selectedEdge;
    for (size_t i = 0; i < brushes.size() && i < geometry.size(); ++i) {
        if (!geometry[i]) continue;
        const bool isSelected = std::binary_search(selected.begin(), selected.end(), int(i));
        const QColor colour = brushColour(brushes[i]);
        out.faces.setLeaf(int32_t(i)); // runs name brushes (render_scene.h: brush sight)
        for (const ConvexFace& f : geometry[i]->hull.faces) {
            out.faces.addPolygon(f.polygon.vertices, f.plane.normal, colour);
            if (isSelected) out.selectedFaces.addPolygon(f.polygon.vertices, f.plane.normal, selectedTint);
        }
        // Each edge once (not once per face): the 2D views draw every line of the level,
        // clip and non-solid brushes in their colour.
        const QColor line = isSelected ? selectedEdge : brushKind(brushes[i].contents) == BrushKind::Solid ? edge : colour;
        for (const auto& [a, b] : geometry[i]->edges) (isSelected ? out.selectedEdges : out.edges).addLine(a, b, line);
    }
    if (!patches.empty()) {
        out.faces.setLeaf(-1); // no brush's: drawn whatever the brush sight
        const QColor line = kPatchColour.lighter(125); // 2D outlines are dimmed behind the sections
        for (const PatchMesh& m : patches) addPatch(out, m, line);
    }
    return out;
}

} // namespace shallot::render

#include "brush_scene_builder.h"

#include <algorithm>
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
    const std::string texture = brush.sides.empty() ? std::string() : brush.sides.front().texture;
    const size_t h = std::hash<std::string>{}(texture);
    return QColor::fromHsv(int(h % 360), 40 + int((h >> 9) % 40), 170 + int((h >> 17) % 50));
}

BrushBatches buildBrushBatches(const std::vector<Brush>& brushes, const std::vector<std::shared_ptr<const BrushGeometry>>& geometry,
                               const std::vector<int>& selected) {
    BrushBatches out;
    out.edges.primitive = out.selectedEdges.primitive = Primitive::Lines;
    out.edges.lit = out.selectedEdges.lit = false;
    out.selectedFaces.lit = false;
    const QColor edge(200, 200, 200), selectedEdge(255, 60, 40), selectedTint(255, 40, 20, 90);
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
    return out;
}

} // namespace shallot::render

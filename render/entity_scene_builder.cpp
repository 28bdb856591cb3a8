#include "entity_scene_builder.h"

#include "palette.h"
#include "world/world.h"

#include <algorithm>

namespace shallot::render {

namespace {

// Opacity of entity faces in the 3D view (their layer is translucent): boxes show what is
// behind them, brush entities (doors, lifts) a little less so.
constexpr int kBoxAlpha = 110;
constexpr int kBrushEntityAlpha = 170;

QColor withAlpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

QColor fromRgba(uint32_t rgba) { return colourOfRgba(rgba); }

bool contains(const std::vector<int>& sorted, int i) { return std::binary_search(sorted.begin(), sorted.end(), i); }

void addBoxFaces(MeshBatch& batch, const Aabb& box, const QColor& colour) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            Vec3 normal = Vec3::Zero();
            normal[axis] = side ? 1.0 : -1.0;
            std::array<Vec3, 4> quad;
            const double w = side ? box.maxs[axis] : box.mins[axis];
            const double us[4] = {box.mins[u], box.maxs[u], box.maxs[u], box.mins[u]};
            const double vs[4] = {box.mins[v], box.mins[v], box.maxs[v], box.maxs[v]};
            for (int k = 0; k < 4; ++k) {
                quad[size_t(k)][axis] = w;
                quad[size_t(k)][u] = us[k];
                quad[size_t(k)][v] = vs[k];
            }
            if (!side) std::reverse(quad.begin(), quad.end()); // counter-clockwise seen from outside
            batch.addPolygon(quad, normal, colour);
        }
}

} // namespace

QColor entityColour(uint32_t classColour, bool selected, bool problem) {
    if (problem) return selected ? kProblemColour.lighter(150) : kProblemColour;
    const QColor c = fromRgba(classColour);
    return selected ? c.lighter(150) : c;
}

EntityShape entityShape(const MapEntity& entity, const EntityClassTable& classes, const Aabb& worldBounds) {
    const EntityClass cls = classOf(classes, entity.classname());
    EntityShape shape;
    shape.category = cls.category;
    shape.colour = cls.colour;
    if (!entity.brushes.empty()) {
        for (const Brush& b : entity.brushes)
            if (std::optional<BrushGeometry> g = buildBrushGeometry(b, worldBounds).geometry) {
                shape.box.add(g->bounds);
                shape.brushes.push_back(std::move(*g));
            }
        return shape;
    }
    const std::optional<Vec3> at = entity.origin();
    if (at && (at->array().abs() <= kDefaultWorldExtent).all()) shape.box = {*at + cls.mins, *at + cls.maxs};
    return shape;
}

EntityBatches buildEntityBatches(const std::vector<EntityShape>& shapes, const EntityDrawOptions& options) {
    EntityBatches out;
    out.edges.primitive = Primitive::Lines;
    out.edges.lit = false;
    out.faces.outline = QColor(20, 20, 24);
    for (size_t i = 0; i < shapes.size(); ++i) {
        const EntityShape& e = shapes[i];
        if (e.box.empty() || !options.categoryVisible[size_t(e.category)]) continue;
        const QColor colour = entityColour(e.colour, false, contains(options.problems, int(i)));
        out.faces.setLeaf(int32_t(i)); // runs name entities (render_scene.h: brush sight, by their boxes)
        if (!e.brushes.empty()) {
            // Tinted translucent-looking: the category colour mixed with grey, apart from the world.
            const QColor tint = QColor::fromRgbF(0.5f * colour.redF() + 0.25f, 0.5f * colour.greenF() + 0.25f,
                                                 0.5f * colour.blueF() + 0.35f);
            for (const BrushGeometry& g : e.brushes) {
                for (const ConvexFace& f : g.hull.faces)
                    out.faces.addPolygon(f.polygon.vertices, f.plane.normal, withAlpha(tint, kBrushEntityAlpha));
                for (const auto& [a, c] : g.edges) out.edges.addLine(a, c, tint);
            }
            continue;
        }
        addBoxFaces(out.faces, e.box, withAlpha(colour, kBoxAlpha));
        out.edges.addBoxEdges(e.box.mins, e.box.maxs, colour);
    }
    return out;
}

MeshBatch buildEntitySelection(const std::vector<Aabb>& boxes) {
    MeshBatch out;
    out.primitive = Primitive::Lines;
    out.lit = false;
    const QColor selected = kSelectionColour;
    for (const Aabb& box : boxes)
        if (!box.empty()) out.addBoxEdges(box.mins, box.maxs, selected);
    return out;
}

MeshBatch buildProblemPaths(const std::vector<std::vector<Vec3>>& paths, int selected, const Aabb& selectedHole) {
    MeshBatch out;
    out.primitive = Primitive::Lines;
    out.lit = false;
    constexpr double kCornerMark = 4.0; // half-size of the corner crosses, world units
    for (size_t i = 0; i < paths.size(); ++i) {
        const std::vector<Vec3>& path = paths[i];
        const bool isSelected = int(i) == selected;
        const QColor colour = isSelected ? kSelectionColour : kProblemColour;
        if (isSelected && !selectedHole.empty()) out.addBoxEdges(selectedHole.mins, selectedHole.maxs, colour);
        for (size_t k = 0; k < path.size(); ++k) {
            if (k + 1 < path.size()) out.addLine(path[k], path[k + 1], colour);
            for (int axis = 0; axis < 3; ++axis) {
                Vec3 d = Vec3::Zero();
                d[axis] = kCornerMark;
                out.addLine(path[k] - d, path[k] + d, colour);
            }
        }
    }
    return out;
}

} // namespace shallot::render

#include "light/lit_faces.h"

#include "compile/compile_state.h"
#include "compile/parallel_for.h"
#include "compile/union_faces.h"
#include "world/brush_geometry.h"

#include <algorithm>
#include <cctype>

namespace shallot {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

bool hintOrSkip(const std::string& name) { return name == "skip" || name == "hint" || name == "hintskip"; }

// A brush seen in the level: it stops the eye (solid, window: what blocks the point), or
// it is a visible non-solid one (func_detail_illusionary), not made of hint and skip only.
bool visibleBrush(const Brush& b) {
    if (intersects(b.contents, defaultBlocking(true))) return true;
    if (b.contents != BrushContents::NonSolid) return false; // liquids, clip, triggers
    return std::any_of(b.sides.begin(), b.sides.end(), [](const BrushSide& s) { return !hintOrSkip(lower(s.texture)); });
}

bool worldEntity(const std::string& classname) {
    return classname == "worldspawn" || classname == "func_group" || classname.starts_with("func_detail");
}

// The union faces of `brushes` (those of `indices`), appended to `out` as lit faces.
void unionOf(const std::vector<Brush>& brushes, const std::vector<int32_t>& indices, int entity, const Aabb& bounds,
             int threads, LitFaceSet& out, const std::string& where) {
    PlanePool pool(expansionExtent(bounds));
    std::vector<ExpandedBrush> hulls;
    for (int32_t i : indices) {
        BrushGeometryResult g = buildBrushGeometry(brushes[size_t(i)], bounds);
        if (!g.geometry) {
            out.warnings.push_back(brushes[size_t(i)].describe(i) + where + ": " + g.error + " (no lit faces)");
            continue;
        }
        hulls.push_back(makeExpandedBrush(i, std::move(g.geometry->hull), pool));
    }
    const std::vector<std::vector<int32_t>> neighbours = overlappingBrushes(hulls);
    std::vector<std::vector<UnionFace>> faces(hulls.size());
    parallelFor(hulls.size(), threads, [&](size_t k) {
        std::vector<const ExpandedBrush*> others;
        for (int32_t n : neighbours[k]) others.push_back(&hulls[size_t(n)]);
        // World order decides who keeps a shared face: sort by brush index.
        std::sort(others.begin(), others.end(), [](auto* a, auto* b) { return a->brush < b->brush; });
        unionFacesOf(hulls[k], others, pool, faces[k]);
    });
    for (size_t k = 0; k < hulls.size(); ++k) {
        const Brush& brush = brushes[size_t(hulls[k].brush)];
        for (UnionFace& f : faces[k]) {
            const ConvexFace& hullFace = hulls[k].hull.faces[size_t(f.hullFace)];
            const BrushSide& side = brush.sides[size_t(hullFace.tag)];
            if (hintOrSkip(lower(side.texture))) continue;
            std::string error;
            std::optional<TextureProjection> projection = textureProjection(side, &error);
            if (!projection) {
                out.warnings.push_back(brush.describe(hulls[k].brush) + where + ": " + error + " (face left unlit)");
                continue;
            }
            LitFace lit;
            lit.polygon = std::move(f.polygon);
            lit.plane = hullFace.plane;
            lit.texture = side.texture;
            lit.projection = *projection;
            lit.entity = entity;
            lit.brush = hulls[k].brush;
            lit.lightmapped = lightmappedTexture(side.texture);
            out.faces.push_back(std::move(lit));
        }
    }
}

} // namespace

bool lightmappedTexture(const std::string& texture) {
    const std::string name = lower(texture);
    if (name.starts_with("sky") || name.starts_with("*")) return false;
    return !(name == "clip" || hintOrSkip(name) || name == "trigger" || name == "origin");
}

LitFaceSet collectLitFaces(const std::vector<Brush>& worldBrushes, const std::vector<MapEntity>& entities,
                           const Aabb& bounds, int threads) {
    LitFaceSet out;
    std::vector<int32_t> visible;
    for (size_t i = 0; i < worldBrushes.size(); ++i)
        if (visibleBrush(worldBrushes[i])) visible.push_back(int32_t(i));
    unionOf(worldBrushes, visible, -1, bounds, threads, out, "");
    for (size_t e = 0; e < entities.size(); ++e) {
        const MapEntity& entity = entities[e];
        const std::string cls = entity.classname();
        if (entity.brushes.empty() || worldEntity(cls) || cls.starts_with("trigger_")) continue;
        std::vector<int32_t> own;
        for (size_t i = 0; i < entity.brushes.size(); ++i)
            if (visibleBrush(entity.brushes[i])) own.push_back(int32_t(i));
        unionOf(entity.brushes, own, int(e), bounds, threads, out, " (" + cls + ")");
    }
    return out;
}

} // namespace shallot

#include "document/entity_edits.h"

#include "document/edit_commands.h"
#include "editor.h"
#include "tools/view_picking.h"
#include "edit/brush_operations.h"
#include "world/entity_class.h"

#include <limits>

namespace shallot {

MapEntity withKey(MapEntity entity, const std::string& key, const std::string& value) {
    for (auto it = entity.keys.rbegin(); it != entity.keys.rend(); ++it)
        if (it->first == key) {
            it->second = value;
            return entity;
        }
    entity.keys.emplace_back(key, value);
    return entity;
}

MapEntity withOrigin(MapEntity entity, const Vec3& origin) {
    return withKey(std::move(entity), "origin", formatEntityVector(origin));
}

MapEntity translatedEntity(MapEntity entity, const Vec3& offset) {
    if (const std::optional<Vec3> origin = entity.origin()) entity = withOrigin(std::move(entity), *origin + offset);
    for (Brush& b : entity.brushes) b = translated(b, offset);
    return entity;
}

std::optional<int> pickEntity2d(const Editor& editor, const ViewPoint& p) {
    std::optional<int> best;
    double bestArea = std::numeric_limits<double>::infinity();
    const double slack = 2.0 * p.pixelSize; // small boxes far out are still hit
    for (size_t i = 0; i < editor.document().entities().size(); ++i) {
        if (!editor.entityShown(int(i)) || !editor.entityShape(int(i))->brushes.empty()) continue;
        const Aabb box = editor.entityBox(int(i));
        const double u = p.world[p.uAxis], v = p.world[p.vAxis];
        if (u < box.mins[p.uAxis] - slack || u > box.maxs[p.uAxis] + slack || v < box.mins[p.vAxis] - slack ||
            v > box.maxs[p.vAxis] + slack)
            continue;
        const double area = (box.maxs[p.uAxis] - box.mins[p.uAxis]) * (box.maxs[p.vAxis] - box.mins[p.vAxis]);
        if (area < bestArea) {
            bestArea = area;
            best = int(i);
        }
    }
    if (best) return best;
    // A brush entity (door, trigger) when one of its brushes is under the cursor nearer the
    // viewer than every world brush there: what is on top in this view is picked.
    auto nearness = [&](const BrushGeometry& g) -> std::optional<double> {
        const auto span = depthSpan(g, p);
        if (!span) return std::nullopt;
        return p.depthSign > 0 ? span->second : -span->first;
    };
    double bestNear = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < editor.document().entities().size(); ++i) {
        if (!editor.entityShown(int(i))) continue;
        for (const BrushGeometry& g : editor.entityShape(int(i))->brushes)
            if (const auto near = nearness(g); near && *near > bestNear) {
                bestNear = *near;
                best = int(i);
            }
    }
    if (!best) return std::nullopt;
    if (const std::optional<int> brush = pickBrush2d(editor.geometry(), p))
        if (const auto near = nearness(*editor.geometry()[size_t(*brush)]); near && *near > bestNear) return std::nullopt;
    return best;
}

std::optional<std::pair<int, double>> pickEntity3d(const Editor& editor, const Vec3& origin, const Vec3& direction) {
    std::optional<std::pair<int, double>> best;
    for (size_t i = 0; i < editor.document().entities().size(); ++i) {
        if (!editor.entityShown(int(i))) continue;
        if (!editor.entityShape(int(i))->brushes.empty()) {
            for (const Brush& b : editor.document().entities()[i].brushes)
                if (const std::optional<double> t = rayHitBrush(b, origin, direction); t && (!best || *t < best->second))
                    best = std::make_pair(int(i), *t);
            continue;
        }
        // As brushes are picked (rayHitBrush): a box the ray starts inside is not met. The 3D
        // camera starts at the player start, inside its box, whose faces it does not draw
        // from there: every click picked the player start instead of what was under it.
        const Aabb box = editor.entityBox(int(i));
        double enter = -std::numeric_limits<double>::infinity(), exit = std::numeric_limits<double>::infinity();
        for (int a = 0; a < 3 && enter <= exit; ++a) {
            if (direction[a] == 0) {
                if (origin[a] < box.mins[a] || origin[a] > box.maxs[a]) exit = -1;
                continue;
            }
            double t0 = (box.mins[a] - origin[a]) / direction[a], t1 = (box.maxs[a] - origin[a]) / direction[a];
            if (t0 > t1) std::swap(t0, t1);
            enter = std::max(enter, t0);
            exit = std::min(exit, t1);
        }
        if (enter >= 0.0 && enter <= exit && (!best || enter < best->second)) best = std::make_pair(int(i), enter);
    }
    return best;
}

std::vector<Brush> translatedSelection(const EditorDocument& doc, const Vec3& offset) {
    std::vector<Brush> out;
    for (int i : doc.selection()) out.push_back(translated(doc.brushes()[size_t(i)], offset));
    return out;
}

QUndoCommand* nudgeSelectionCommand(EditorDocument& doc, const Vec3& offset) {
    return moveSelectionCommand(doc, "Nudge", translatedSelection(doc, offset), offset);
}

QUndoCommand* moveSelectionCommand(EditorDocument& doc, const QString& text, const std::vector<Brush>& brushes,
                                   const Vec3& entityOffset) {
    return moveSelectionCommand(doc, text, brushes, std::vector<Vec3>(doc.entitySelection().size(), entityOffset));
}

QUndoCommand* moveSelectionCommand(EditorDocument& doc, const QString& text, const std::vector<Brush>& brushes,
                                   const std::vector<Vec3>& entityOffsets) {
    bool brushesChange = false;
    for (size_t k = 0; k < brushes.size() && k < doc.selection().size(); ++k)
        brushesChange |= !samePlanes(brushes[k], doc.brushes()[size_t(doc.selection()[k])]);
    std::vector<int> moved;
    std::vector<MapEntity> entities;
    for (size_t k = 0; k < doc.entitySelection().size() && k < entityOffsets.size(); ++k) {
        const int e = doc.entitySelection()[k];
        const MapEntity& entity = doc.entities()[size_t(e)];
        if (entityOffsets[k] == Vec3::Zero() || (!entity.origin() && entity.brushes.empty())) continue; // nowhere: nothing to move
        moved.push_back(e);
        entities.push_back(translatedEntity(entity, entityOffsets[k]));
    }
    if (!brushesChange && moved.empty()) return nullptr;
    auto* command = new QUndoCommand(text);
    if (brushesChange) {
        std::vector<std::pair<int, Brush>> inserted;
        for (size_t k = 0; k < brushes.size(); ++k) inserted.emplace_back(doc.selection()[k], brushes[k]);
        new ReplaceBrushesCommand(&doc, text, doc.selection(), std::move(inserted), doc.selection(), command);
    }
    if (!moved.empty()) replaceEntitiesInPlace(&doc, text, moved, entities, command);
    return command;
}

QUndoCommand* deleteSelectionCommand(EditorDocument& doc) {
    if (doc.selectionEmpty()) return nullptr;
    auto* command = new QUndoCommand("Delete");
    if (!doc.selection().empty()) new ReplaceBrushesCommand(&doc, "Delete", doc.selection(), {}, {}, command);
    if (!doc.entitySelection().empty()) new ReplaceEntitiesCommand(&doc, "Delete", doc.entitySelection(), {}, {}, command);
    return command;
}

QUndoCommand* duplicateSelectionCommand(EditorDocument& doc, const Vec3& offset) {
    if (doc.selectionEmpty()) return nullptr;
    auto* command = new QUndoCommand("Duplicate");
    std::vector<std::pair<int, Brush>> brushes;
    std::vector<int> selectBrushes;
    int at = int(doc.brushes().size());
    for (int i : doc.selection()) {
        brushes.emplace_back(at, translated(doc.brushes()[size_t(i)], offset));
        selectBrushes.push_back(at++);
    }
    if (!brushes.empty()) new ReplaceBrushesCommand(&doc, "Duplicate", {}, brushes, selectBrushes, command);
    std::vector<std::pair<int, MapEntity>> entities;
    std::vector<int> selectEntities;
    at = int(doc.entities().size());
    for (int e : doc.entitySelection()) {
        MapEntity copy = translatedEntity(doc.entities()[size_t(e)], offset);
        copy.line = 0; // not from the file
        entities.emplace_back(at, std::move(copy));
        selectEntities.push_back(at++);
    }
    if (!entities.empty()) new ReplaceEntitiesCommand(&doc, "Duplicate", {}, entities, selectEntities, command);
    return command;
}

} // namespace shallot

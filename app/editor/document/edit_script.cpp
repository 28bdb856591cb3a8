#include "document/edit_script.h"

#include "edit/brush_operations.h"
#include "document/edit_commands.h"
#include "document/entity_edits.h"
#include "io/document_json.h"
#include "world/brush_geometry.h"
#include "world/entity_class.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace shallot {

QJsonArray vecToJson(const Vec3& v) { return QJsonArray{v.x(), v.y(), v.z()}; }

Vec3 vecFromJson(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    return Vec3(a.at(0).toDouble(), a.at(1).toDouble(), a.at(2).toDouble());
}

namespace {

// The selection's box as the editor computes it (Editor::selectionBounds): the union of the
// valid selected brushes' geometry bounds.
Aabb selectionBounds(const EditorDocument& doc) {
    Aabb box;
    for (int i : doc.selection())
        if (const auto g = buildBrushGeometry(doc.brushes()[size_t(i)], doc.data().world.bounds).geometry) box.add(g->bounds);
    return box;
}

double snapped(const EditorDocument& doc, double v) {
    const double g = doc.data().gridSize;
    return std::round(v / g) * g;
}

void push(EditorDocument& doc, QUndoCommand* command) { doc.undoStack()->push(command); }

// The select tool's resize (SelectTool::draggedBrushes): every selected brush mapped from
// the selection's box to `after`. Nothing when a brush would be invalid or none changes.
void resizeSelection(EditorDocument& doc, const Aabb& after) {
    const Aabb before = selectionBounds(doc);
    std::vector<Brush> out;
    bool changed = false;
    for (int i : doc.selection()) {
        const Brush& b = doc.brushes()[size_t(i)];
        const Aabb old = bounds(b);
        if (old.empty()) return;
        Aabb target;
        for (int a = 0; a < 3; ++a) {
            const double scale = (after.maxs[a] - after.mins[a]) / (before.maxs[a] - before.mins[a]);
            target.mins[a] = after.mins[a] + (old.mins[a] - before.mins[a]) * scale;
            target.maxs[a] = after.mins[a] + (old.maxs[a] - before.mins[a]) * scale;
        }
        std::optional<Brush> resized = withBounds(b, target);
        if (!resized) return;
        changed |= !samePlanes(*resized, b);
        out.push_back(std::move(*resized));
    }
    if (changed) push(doc, replaceInPlace(&doc, "Resize", doc.selection(), out));
}

// The clip tool's apply (ClipTool::apply): results replace each clipped brush in place.
void clipSelection(EditorDocument& doc, const std::array<Vec3, 3>& points, const QString& keep) {
    std::vector<std::pair<int, Brush>> inserted;
    std::vector<int> select;
    int next = 0;
    for (int index : doc.selection()) {
        const ClipResult r = clipBrushThrough(doc.brushes()[size_t(index)], points);
        const int at = index + next;
        int added = 0;
        if (r.front && keep != "back") inserted.emplace_back(at + added++, *r.front);
        if (r.back && keep != "front") inserted.emplace_back(at + added++, *r.back);
        for (int k = 0; k < added; ++k) select.push_back(at + k);
        next += added - 1;
    }
    push(doc, new ReplaceBrushesCommand(&doc, "Clip", doc.selection(), inserted, select));
}

bool applyBrushOp(EditorDocument& doc, const QString& name, const QJsonObject& op) {
    const std::vector<int>& sel = doc.selection();
    if (name == "box") {
        if (std::optional<Brush> brush = boxBrush(vecFromJson(op["mins"]), vecFromJson(op["maxs"]), "shallot/wall")) {
            const int index = int(doc.brushes().size());
            push(doc, new ReplaceBrushesCommand(&doc, "Draw box", {}, {{index, *brush}}, {index}));
        }
        return true;
    }
    if (name == "resize") {
        const QJsonObject b = op["bounds"].toObject();
        if (!sel.empty()) resizeSelection(doc, Aabb{vecFromJson(b["mins"]), vecFromJson(b["maxs"])});
        return true;
    }
    if (name == "clip") {
        const std::optional<std::array<Vec3, 3>> points = pointsThroughLine(vecFromJson(op["a"]), vecFromJson(op["b"]), op["viewAxis"].toInt());
        if (points && !sel.empty()) clipSelection(doc, *points, op["keep"].toString());
        return true;
    }
    // With entities selected, move, delete and duplicate take them along (entities have no
    // rotate or flip here: their boxes are their class's).
    if (!doc.entitySelection().empty() && (name == "move" || name == "delete" || name == "duplicate")) {
        QUndoCommand* command = nullptr;
        if (name == "move") {
            const Vec3 delta = vecFromJson(op["delta"]);
            std::vector<Brush> moved;
            for (int i : sel) moved.push_back(translated(doc.brushes()[size_t(i)], delta));
            command = moveSelectionCommand(doc, "Move", moved, delta);
        } else if (name == "delete") {
            command = deleteSelectionCommand(doc);
        } else {
            Vec3 offset = Vec3::Zero();
            offset[op["axis"].toInt()] = doc.data().gridSize;
            command = duplicateSelectionCommand(doc, offset);
        }
        if (command) push(doc, command);
        return true;
    }
    // The commands below act on the selection and, as in the editor, do nothing without one.
    if (sel.empty()) return name == "move" || name == "delete" || name == "duplicate" || name == "rotate" || name == "flip";
    std::vector<Brush> result;
    if (name == "move") {
        const Vec3 delta = vecFromJson(op["delta"]);
        for (int i : sel) result.push_back(translated(doc.brushes()[size_t(i)], delta));
        push(doc, replaceInPlace(&doc, "Move", sel, result));
    } else if (name == "delete") {
        push(doc, new ReplaceBrushesCommand(&doc, "Delete", sel, {}, {}));
    } else if (name == "duplicate") {
        Vec3 offset = Vec3::Zero();
        offset[op["axis"].toInt()] = doc.data().gridSize;
        std::vector<std::pair<int, Brush>> copies;
        std::vector<int> select;
        int at = int(doc.brushes().size());
        for (int i : sel) {
            copies.emplace_back(at, translated(doc.brushes()[size_t(i)], offset));
            select.push_back(at++);
        }
        push(doc, new ReplaceBrushesCommand(&doc, "Duplicate", {}, copies, select));
    } else if (name == "rotate") {
        const Aabb box = selectionBounds(doc);
        const Vec3 centre = 0.5 * (box.mins + box.maxs);
        const Vec3 pivot(snapped(doc, centre.x()), snapped(doc, centre.y()), snapped(doc, centre.z()));
        for (int i : sel) result.push_back(rotated90(doc.brushes()[size_t(i)], op["axis"].toInt(), pivot, op["clockwise"].toBool()));
        push(doc, replaceInPlace(&doc, "Rotate", sel, result));
    } else if (name == "flip") {
        const Aabb box = selectionBounds(doc);
        for (int i : sel) result.push_back(flipped(doc.brushes()[size_t(i)], op["axis"].toInt(), 0.5 * (box.mins + box.maxs)));
        push(doc, replaceInPlace(&doc, "Flip", sel, result));
    } else {
        return false;
    }
    return true;
}

bool applyOtherOp(EditorDocument& doc, const QString& name, const QJsonObject& op) {
    if (name == "select") {
        std::vector<int> brushes, entities;
        for (const QJsonValue& v : op["brushes"].toArray()) brushes.push_back(v.toInt());
        for (const QJsonValue& v : op["entities"].toArray()) entities.push_back(v.toInt());
        doc.setSelection(brushes);
        doc.setEntitySelection(entities);
    } else if (name == "entityAdd") {
        MapEntity entity;
        entity.keys = {{"classname", op["classname"].toString().toStdString()}, {"origin", formatEntityVector(vecFromJson(op["origin"]))}};
        const int at = int(doc.entities().size());
        doc.setSelection({});
        push(doc, new ReplaceEntitiesCommand(&doc, "Place entity", {}, {{at, entity}}, {at}));
    } else if (name == "entityKey") {
        if (doc.entitySelection().empty()) return true; // as the dock: nothing to edit
        const std::string key = op["key"].toString().toStdString(), value = op["value"].toString().toStdString();
        std::vector<MapEntity> edited;
        for (int e : doc.entitySelection()) edited.push_back(withKey(doc.entities()[size_t(e)], key, value));
        push(doc, replaceEntitiesInPlace(&doc, "Set key", doc.entitySelection(), edited));
    } else if (name == "rayAdd") {
        std::vector<TestRay> rays = doc.rays();
        // "path": true adds a walking path, as the Path tool does.
        const bool path = op["path"].toBool();
        rays.push_back({(path ? "path " : "ray ") + std::to_string(rays.size() + 1), vecFromJson(op["from"]), vecFromJson(op["to"]),
                        false, path});
        push(doc, new SetRaysCommand(&doc, path ? "Add path" : "Add ray", rays));
    } else if (name == "rayMove") {
        std::vector<TestRay> rays = doc.rays();
        const int ray = op["ray"].toInt();
        if (ray < 0 || ray >= int(rays.size())) return false;
        (op["end"].toString() == "from" ? rays[size_t(ray)].from : rays[size_t(ray)].to) = vecFromJson(op["point"]);
        push(doc, new SetRaysCommand(&doc, "Move ray endpoint", rays));
    } else if (name == "pose") {
        std::vector<Pose> poses = doc.poses();
        const int index = op["pose"].toInt();
        if (index < 0 || index >= int(poses.size())) return false;
        poses[size_t(index)].mins = vecFromJson(op["mins"]);
        poses[size_t(index)].maxs = vecFromJson(op["maxs"]);
        push(doc, new SetPosesCommand(&doc, "Edit pose", poses));
    } else if (name == "grid") {
        doc.setGridSize(op["size"].toInt());
    } else if (name == "undo") {
        for (int k = 0; k < op["steps"].toInt() && doc.undoStack()->canUndo(); ++k) doc.undoStack()->undo();
    } else if (name == "redo") {
        for (int k = 0; k < op["steps"].toInt() && doc.undoStack()->canRedo(); ++k) doc.undoStack()->redo();
    } else {
        return false;
    }
    return true;
}

} // namespace

bool isFileOp(const QJsonObject& op) { return op["op"] == "save" || op["op"] == "reopen"; }

bool applyEditOp(EditorDocument& doc, const QJsonObject& op, QString& error) {
    const QString name = op["op"].toString();
    if (isFileOp(op) || applyOtherOp(doc, name, op) || applyBrushOp(doc, name, op)) return true;
    error = QString("cannot apply edit op: %1").arg(QString::fromUtf8(editOpLine(op)).trimmed());
    return false;
}

QString documentDigest(const DocumentData& data) {
    QJsonObject json = documentToJson(data, std::string());
    json.remove("camera"); // view state, like the working point
    json.remove("workingPoint");
    json.remove("view");
    return QCryptographicHash::hash(QJsonDocument(json).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256).toHex();
}

std::optional<DocumentData> roundTripped(const DocumentData& data, QString& error) {
    std::string treeHash;
    return documentFromJson(documentToJson(data, std::string()), treeHash, error);
}

QByteArray editOpLine(const QJsonObject& op) { return QJsonDocument(op).toJson(QJsonDocument::Compact) + "\n"; }

std::vector<QJsonObject> readEditScript(const QString& path, QString& error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = path + ": " + file.errorString();
        return {};
    }
    std::vector<QJsonObject> ops;
    int line = 0;
    while (!file.atEnd()) {
        ++line;
        const QByteArray text = file.readLine().trimmed();
        if (text.isEmpty()) continue;
        const QJsonDocument json = QJsonDocument::fromJson(text);
        if (!json.isObject() || !json.object().contains("op")) {
            error = QString("%1:%2: not an edit op").arg(path).arg(line);
            return {};
        }
        ops.push_back(json.object());
    }
    return ops;
}

} // namespace shallot

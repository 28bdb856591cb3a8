#pragma once
// Entity edits the tools and menus share: reading and moving an origin, picking, and the
// undo steps that move, delete and duplicate a selection of brushes and entities together.
#include "tools/tool.h"
#include "io/map_file.h"

#include <optional>
#include <vector>

class QUndoCommand;

namespace shallot {

class Editor;
class EditorDocument;
struct Brush;

// The entity with its "origin" set (added when it had none).
MapEntity withOrigin(MapEntity entity, const Vec3& origin);
// The entity moved: its origin (when it has one) and its brushes.
MapEntity translatedEntity(MapEntity entity, const Vec3& offset);
// The entity with `key` set to `value` (the last of repeated keys; added when absent).
MapEntity withKey(MapEntity entity, const std::string& key, const std::string& value);

// The visible entity under a 2D view point: the point entity with the smallest box there
// (they stand on brushes: they come first), else a brush entity whose brush is nearer the
// viewer there than every world brush.
std::optional<int> pickEntity2d(const Editor& editor, const ViewPoint& p);
// The visible entity the ray from `origin` along `direction` meets first (a point entity's
// box, a brush entity's brushes; not one it starts inside), with the distance along the ray.
std::optional<std::pair<int, double>> pickEntity3d(const Editor& editor, const Vec3& origin, const Vec3& direction);

// One undo step that replaces the selected brushes by `brushes` (in selection order; none
// to leave them) and moves the selected entities by `entityOffset`. Null when nothing changes.
QUndoCommand* moveSelectionCommand(EditorDocument& doc, const QString& text, const std::vector<Brush>& brushes,
                                   const Vec3& entityOffset);
// The same with an offset per selected entity (in entity selection order).
QUndoCommand* moveSelectionCommand(EditorDocument& doc, const QString& text, const std::vector<Brush>& brushes,
                                   const std::vector<Vec3>& entityOffsets);
// The selected brushes moved by `offset`, in selection order.
std::vector<Brush> translatedSelection(const EditorDocument& doc, const Vec3& offset);
// The selected brushes and entities moved by `offset` exactly (a nudge: no floor following,
// no snapping), as one undo step; null when nothing is selected.
QUndoCommand* nudgeSelectionCommand(EditorDocument& doc, const Vec3& offset);
// Deletes the selected brushes and entities, as one undo step (null when none is selected).
QUndoCommand* deleteSelectionCommand(EditorDocument& doc);
// Copies of the selected brushes and entities moved by `offset`, selected, as one step.
QUndoCommand* duplicateSelectionCommand(EditorDocument& doc, const Vec3& offset);

} // namespace shallot

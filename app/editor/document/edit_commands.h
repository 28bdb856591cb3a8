#pragma once
// Undo commands: every edit of the document is one of these, pushed on its QUndoStack.
// A drag is previewed by the tool and pushed as one command when the mouse is released.
#include "document/editor_document.h"

#include <QUndoCommand>

namespace shallot {

// Removes some brushes and inserts others (each at a given index). Covers add, delete,
// duplicate, move, resize, clip, CSG subtract, hollow, rotate and flip: in-place edits
// remove and insert at the same indices. The selection after redo is `selectAfter`.
class ReplaceBrushesCommand : public QUndoCommand {
public:
    ReplaceBrushesCommand(EditorDocument* doc, const QString& text, std::vector<int> removed,
                          std::vector<std::pair<int, Brush>> inserted, std::vector<int> selectAfter,
                          QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;

private:
    EditorDocument* doc_;
    std::vector<std::pair<int, Brush>> removed_; // with their old contents
    std::vector<std::pair<int, Brush>> inserted_;
    std::vector<int> selectBefore_, selectAfter_;
};

// Convenience: replace the brushes at `indices` (ascending) by `replacements`, in place.
ReplaceBrushesCommand* replaceInPlace(EditorDocument* doc, const QString& text, const std::vector<int>& indices,
                                      const std::vector<Brush>& replacements);

// The same for entities (positions in EditorDocument::entities()): add, delete, duplicate,
// move, key edits. An edit of brushes and entities together (moving a selection of both)
// is one QUndoCommand with a ReplaceBrushesCommand and a ReplaceEntitiesCommand as children.
class ReplaceEntitiesCommand : public QUndoCommand {
public:
    ReplaceEntitiesCommand(EditorDocument* doc, const QString& text, std::vector<int> removed,
                           std::vector<std::pair<int, MapEntity>> inserted, std::vector<int> selectAfter,
                           QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;

private:
    EditorDocument* doc_;
    std::vector<std::pair<int, MapEntity>> removed_; // with their old contents
    std::vector<std::pair<int, MapEntity>> inserted_;
    std::vector<int> selectBefore_, selectAfter_;
};

// Replaces the entities at `indices` (ascending) by `replacements`, in place; the entity
// selection stays.
ReplaceEntitiesCommand* replaceEntitiesInPlace(EditorDocument* doc, const QString& text, const std::vector<int>& indices,
                                               const std::vector<MapEntity>& replacements, QUndoCommand* parent = nullptr);

class SetPosesCommand : public QUndoCommand {
public:
    SetPosesCommand(EditorDocument* doc, const QString& text, std::vector<Pose> poses);
    void redo() override { doc_->setPoses(after_); }
    void undo() override { doc_->setPoses(before_); }

private:
    EditorDocument* doc_;
    std::vector<Pose> before_, after_;
};

// Changes the game the level is for. Poses that are the old game's defaults become the new
// game's (their boxes and blocking sets follow the game); poses of the designer's own stay.
class SetGameCommand : public QUndoCommand {
public:
    SetGameCommand(EditorDocument* doc, Game game);
    void redo() override;
    void undo() override;

private:
    EditorDocument* doc_;
    Game before_, after_;
    bool posesFollow_; // the poses were the old game's defaults
    std::vector<Pose> posesBefore_, posesAfter_;
};

// Loads entity definitions (.fgd text) into the document, or clears them (empty text).
class SetEntityDefinitionsCommand : public QUndoCommand {
public:
    SetEntityDefinitionsCommand(EditorDocument* doc, QString path, std::string text);
    void redo() override { doc_->setEntityDefinitions(afterPath_, afterText_); }
    void undo() override { doc_->setEntityDefinitions(beforePath_, beforeText_); }

private:
    EditorDocument* doc_;
    QString beforePath_, afterPath_;
    std::string beforeText_, afterText_;
};

class SetRaysCommand : public QUndoCommand {
public:
    SetRaysCommand(EditorDocument* doc, const QString& text, std::vector<TestRay> rays);
    void redo() override { doc_->setRays(after_); }
    void undo() override { doc_->setRays(before_); }

private:
    EditorDocument* doc_;
    std::vector<TestRay> before_, after_;
};

} // namespace shallot

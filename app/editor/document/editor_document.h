#pragma once
// The open document in the editor: its data, selection, undo stack and file state.
// Views and docks read it; every change goes through an undo command (edit_commands.h),
// which calls the mutators below and so emits the change signals.
#include "model/document_data.h"

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <vector>

namespace shallot {

class EditorDocument : public QObject {
    Q_OBJECT
public:
    explicit EditorDocument(QObject* parent = nullptr);

    const DocumentData& data() const { return data_; }
    const std::vector<Brush>& brushes() const { return data_.world.brushes; }
    const std::vector<Pose>& poses() const { return data_.world.poses; }
    const std::vector<TestRay>& rays() const { return data_.rays; }
    // Every entity but worldspawn: entities()[i] is the file's entity i + 1 (see DocumentData).
    const std::vector<MapEntity>& entities() const { return data_.entities; }
    QUndoStack* undoStack() { return &undo_; }

    // Replaces the whole document (new, open, recover); clears undo and selection. With
    // `compiled`, the caller provides the tree (no compile is scheduled).
    void reset(DocumentData data, const QString& filePath, bool compiled = false);
    const QString& filePath() const { return filePath_; }
    void setFilePath(const QString& path);
    bool isModified() const { return !undo_.isClean(); }
    void markSaved() { undo_.setClean(); }
    // Unsaved though nothing was done yet (recovered work: closing asks to save it).
    void markUnsaved() { undo_.resetClean(); }
    // Increases on every change of what the compiler reads (brushes, poses, bounds).
    uint64_t worldRevision() const { return worldRevision_; }

    // Mutators for commands. Indices are positions in brushes().
    void removeBrushes(const std::vector<int>& ascendingIndices);
    void insertBrushes(const std::vector<std::pair<int, Brush>>& ascendingPositions);
    void setPoses(std::vector<Pose> poses);
    // The game the level is for (its default poses are set apart, by the caller).
    void setGame(Game game);
    // Indices are positions in entities(). Brushes that name entities by number
    // (Brush::source.entity) are renumbered, so a .map export still puts them back.
    void removeEntities(const std::vector<int>& ascendingIndices);
    void insertEntities(const std::vector<std::pair<int, MapEntity>>& ascendingPositions);
    // The .fgd the document's entity classes come from (its text: the document works
    // without the file), or empty for Quake's built-in classes.
    void setEntityDefinitions(QString path, std::string text);
    void setRays(std::vector<TestRay> rays);
    void setCamera(const CameraState& camera) {
        data_.camera = camera;
        emit cameraChanged();
    }
    void setGridSize(int size);
    // The view weight over which leaves are problems (at least 1); saved with the document.
    void setViewWeightLimit(uint32_t limit);
    void setDarkLimit(int limit); // clamped to 1..255
    void setLightBounces(int bounces); // clamped to 0..kMaxEditorLightBounces
    // Where the 2D views cut the level (DocumentData::workingPoint): view state, no undo.
    Vec3 workingPoint() const { return data_.workingPoint.value_or(Vec3::Zero()); }
    void setWorkingPoint(const Vec3& point) {
        if (data_.workingPoint == point) return;
        data_.workingPoint = point;
        emit workingPointChanged();
    }

    // What the views show (DocumentData::view), set before a save: view state, no undo, no
    // signal (the views already show it).
    void setViewState(ViewState view) { data_.view = std::move(view); }

    const std::vector<int>& selection() const { return selection_; }
    bool isSelected(int brush) const;
    void setSelection(std::vector<int> brushes);
    // Shift-click: the brush (entity) leaves the selection when in it, else joins it.
    void toggleSelected(int brush);
    void toggleEntitySelected(int entity);
    // Selected entities (positions in entities()), apart from the brushes.
    const std::vector<int>& entitySelection() const { return entitySelection_; }
    bool isEntitySelected(int entity) const;
    void setEntitySelection(std::vector<int> entities);
    bool selectionEmpty() const { return selection_.empty() && entitySelection_.empty(); }

signals:
    void brushesChanged();
    void posesChanged();
    void gameChanged();
    void raysChanged();
    void selectionChanged();
    void entitiesChanged();
    void cameraChanged(); // view state: no undo step, no compile
    void workingPointChanged(); // likewise
    void entityDefinitionsChanged();
    void worldChanged();     // anything the compiler reads changed
    void worldReplaced(bool compiled); // reset(): a new world, already compiled or not
    void gridSizeChanged(int size);
    void viewWeightLimitChanged(uint32_t limit);
    void darkLimitChanged(int limit);
    void lightBouncesChanged(int bounces);
    void filePathChanged(const QString& path);
    void documentReset();

private:
    DocumentData data_;
    QString filePath_;
    QUndoStack undo_;
    std::vector<int> selection_;
    std::vector<int> entitySelection_;
    uint64_t worldRevision_ = 0;
};

} // namespace shallot

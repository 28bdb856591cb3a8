#include "document/edit_commands.h"

#include "io/game_profile.h"

namespace shallot {

ReplaceBrushesCommand::ReplaceBrushesCommand(EditorDocument* doc, const QString& text, std::vector<int> removed,
                                             std::vector<std::pair<int, Brush>> inserted, std::vector<int> selectAfter,
                                             QUndoCommand* parent)
    : QUndoCommand(text, parent), doc_(doc), inserted_(std::move(inserted)), selectBefore_(doc->selection()),
      selectAfter_(std::move(selectAfter)) {
    std::sort(removed.begin(), removed.end());
    for (int i : removed) removed_.emplace_back(i, doc->brushes()[size_t(i)]);
    std::sort(inserted_.begin(), inserted_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

namespace {
template <class T>
std::vector<int> indicesOf(const std::vector<std::pair<int, T>>& v) {
    std::vector<int> out;
    for (const auto& [i, b] : v) out.push_back(i);
    return out;
}
} // namespace

void ReplaceBrushesCommand::redo() {
    doc_->removeBrushes(indicesOf(removed_));
    doc_->insertBrushes(inserted_);
    doc_->setSelection(selectAfter_);
}

void ReplaceBrushesCommand::undo() {
    doc_->removeBrushes(indicesOf(inserted_));
    doc_->insertBrushes(removed_);
    doc_->setSelection(selectBefore_);
}

ReplaceBrushesCommand* replaceInPlace(EditorDocument* doc, const QString& text, const std::vector<int>& indices,
                                      const std::vector<Brush>& replacements) {
    std::vector<std::pair<int, Brush>> inserted;
    for (size_t k = 0; k < indices.size(); ++k) inserted.emplace_back(indices[k], replacements[k]);
    return new ReplaceBrushesCommand(doc, text, indices, std::move(inserted), doc->selection());
}

ReplaceEntitiesCommand::ReplaceEntitiesCommand(EditorDocument* doc, const QString& text, std::vector<int> removed,
                                               std::vector<std::pair<int, MapEntity>> inserted,
                                               std::vector<int> selectAfter, QUndoCommand* parent)
    : QUndoCommand(text, parent), doc_(doc), inserted_(std::move(inserted)), selectBefore_(doc->entitySelection()),
      selectAfter_(std::move(selectAfter)) {
    std::sort(removed.begin(), removed.end());
    for (int i : removed) removed_.emplace_back(i, doc->entities()[size_t(i)]);
    std::sort(inserted_.begin(), inserted_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

void ReplaceEntitiesCommand::redo() {
    doc_->removeEntities(indicesOf(removed_));
    doc_->insertEntities(inserted_);
    doc_->setEntitySelection(selectAfter_);
}

void ReplaceEntitiesCommand::undo() {
    doc_->removeEntities(indicesOf(inserted_));
    doc_->insertEntities(removed_);
    doc_->setEntitySelection(selectBefore_);
}

ReplaceEntitiesCommand* replaceEntitiesInPlace(EditorDocument* doc, const QString& text, const std::vector<int>& indices,
                                               const std::vector<MapEntity>& replacements, QUndoCommand* parent) {
    std::vector<std::pair<int, MapEntity>> inserted;
    for (size_t k = 0; k < indices.size(); ++k) inserted.emplace_back(indices[k], replacements[k]);
    return new ReplaceEntitiesCommand(doc, text, indices, std::move(inserted), doc->entitySelection(), parent);
}

SetPosesCommand::SetPosesCommand(EditorDocument* doc, const QString& text, std::vector<Pose> poses)
    : QUndoCommand(text), doc_(doc), before_(doc->poses()), after_(std::move(poses)) {}

SetGameCommand::SetGameCommand(EditorDocument* doc, Game game)
    : QUndoCommand(QString("Game: %1").arg(gameTitle(game))), doc_(doc), before_(doc->data().game), after_(game),
      posesFollow_(samePoseBoxes(doc->poses(), gamePoses(before_))), posesBefore_(doc->poses()),
      posesAfter_(posesFollow_ ? gamePoses(game) : doc->poses()) {}

void SetGameCommand::redo() {
    doc_->setGame(after_);
    if (posesFollow_) doc_->setPoses(posesAfter_);
}

void SetGameCommand::undo() {
    doc_->setGame(before_);
    if (posesFollow_) doc_->setPoses(posesBefore_);
}

SetEntityDefinitionsCommand::SetEntityDefinitionsCommand(EditorDocument* doc, QString path, std::string text)
    : QUndoCommand("Load entity definitions"), doc_(doc),
      beforePath_(QString::fromStdString(doc->data().entityDefinitionsPath)), afterPath_(std::move(path)),
      beforeText_(doc->data().entityDefinitions), afterText_(std::move(text)) {}

SetRaysCommand::SetRaysCommand(EditorDocument* doc, const QString& text, std::vector<TestRay> rays)
    : QUndoCommand(text), doc_(doc), before_(doc->rays()), after_(std::move(rays)) {}

} // namespace shallot

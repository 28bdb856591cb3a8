#pragma once
// What a document keeps of the views (DocumentData::view): the pose shown, the overlays
// on, the cell filters and the entity categories hidden. Taken from the editor before a
// save, shown again when the document opens; a level opened for the first time shows its
// player's walking pose with the leaf cells on.
#include "model/document_data.h"

#include <QString>
#include <optional>

namespace shallot {

class Editor;

// What the editor shows now.
ViewState currentViewState(const Editor& editor);

// Shows `saved` (a name this build does not know is left out). Without one (a .map, a
// document saved before views were kept): `preferredPose` when the level has a pose of
// that name (Preferences), else walkingPose, with the leaf cells on.
void showViewState(Editor& editor, const std::optional<ViewState>& saved, const QString& preferredPose);

// The pose the player walks with: the one whose box is the player start's hull box
// (poseForHullBox, as the spawn checks pick it), else the pose named as the game's player
// pose (gamePoses: "player", Half-Life's "human"), else the first pose that is a box;
// -1 for a level without poses.
int walkingPose(const Editor& editor);

} // namespace shallot

#pragma once
// Edit > Game (the game the level is for, one undo step) and Edit > Contents (what the
// selected brushes are made of: shown by the checks, each contents toggled for the whole
// selection in one undo step, as TrenchBroom's content flags are).
class QMenu;

namespace shallot {

class Editor;

// Adds both submenus to `edit`. Their actions are named "gameQuake", "gameQuake2",
// "gameHalfLife", "gameQuake3", "contentsNonsolid", "contentsSolid", "contentsPlayerclip"...
void addGameMenus(QMenu* edit, Editor& editor);

} // namespace shallot

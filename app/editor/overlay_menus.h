#pragma once
// View menu controls for what the views show: the pose selector and the overlay toggles
// (on the Overlays toolbar too), the cell filters, the legends, cross-sections, and
// View > Entities (each category shown or hidden). Every control follows the editor when
// something else changes it (a document opening with its saved view: services/view_state.h).
class QMenu;
class QToolBar;

namespace shallot {

class Editor;

// Adds the overlay controls to `view` and `bar`. Actions are named "overlayLeafcells",
// "overlayPortals", ... (overlay_names.h), "greyUnreachable", "cellsByBitset", "legends",
// "sections2d"; the cell filter actions "cellsEmpty", "cellsSolid", "cellsDiffers", "cellsAll".
void addOverlayControls(QMenu* view, QToolBar* bar, Editor& editor);

// View > Entities: actions "showEntities0".."showEntities4", one per EntityCategory.
void addEntityMenu(QMenu* view, Editor& editor);

} // namespace shallot

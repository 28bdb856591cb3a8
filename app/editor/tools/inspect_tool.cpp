#include "inspect_tool.h"

#include "../editor.h"
#include "view_picking.h"

namespace shallot {

bool InspectTool::press(const ViewPoint& p) {
    emit editor_.inspectRequested(placeInView(editor_, p));
    return true;
}

} // namespace shallot

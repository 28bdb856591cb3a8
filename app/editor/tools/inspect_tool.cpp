#include "tools/inspect_tool.h"

#include "editor.h"

namespace shallot {

bool InspectTool::press(const ViewPoint& p) {
    // The grid point under the cursor at the view's working depth: in the top view, at the
    // working height (a room's air, not its floor or the void above its roof).
    Vec3 at = editor_.snap(p.world);
    at[p.depthAxis] = p.world[p.depthAxis];
    emit editor_.inspectRequested(at);
    return true;
}

} // namespace shallot

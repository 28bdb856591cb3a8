#include "overlay_names.h"

namespace shallot {

std::optional<QString> overlayActionName(const QString& name) {
    static const std::pair<const char*, const char*> names[] = {{"cells", "overlayLeafcells"},
                                                                {"portals", "overlayPortals"},
                                                                {"union", "overlayExpandedworld"},
                                                                {"reach", "overlayReachability"},
                                                                {"rays", "overlayTestrays"},
                                                                {"walkable", "overlayWalkable"}};
    for (const auto& [shortName, action] : names)
        if (name == shortName || name == action) return QString(action);
    return std::nullopt;
}

} // namespace shallot

#include "overlay_names.h"

namespace shallot {

namespace {

const std::pair<const char*, const char*> kNames[] = {{"cells", "overlayLeafcells"},
                                                      {"portals", "overlayPortals"},
                                                      {"union", "overlayExpandedworld"},
                                                      {"reach", "overlayReachability"},
                                                      {"rays", "overlayTestrays"},
                                                      {"walkable", "overlayWalkable"},
                                                      {"visible", "overlayVisible"},
                                                      {"weight", "overlayViewweight"},
                                                      {"dark", "overlayToodark"},
                                                      {"q3capsule", "overlayQuake3capsule"}};

} // namespace

QStringList overlayActionNames() {
    QStringList out;
    for (const auto& [shortName, action] : kNames) out << action;
    return out;
}

std::optional<QString> overlayActionName(const QString& name) {
    for (const auto& [shortName, action] : kNames)
        if (name == shortName || name == action) return QString(action);
    return std::nullopt;
}

} // namespace shallot

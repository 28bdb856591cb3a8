#pragma once
// The overlays' names on the command line (--overlays, SHALLOT_BENCH_OVERLAYS) and the
// object names of the main window's actions that toggle them.
#include <QString>
#include <QStringList>
#include <optional>

namespace shallot {

// "overlayLeafcells" for "cells" (also for "overlayLeafcells" itself); nothing for an
// unknown name.
std::optional<QString> overlayActionName(const QString& name);

// The names overlayActionName knows, for messages.
inline constexpr const char* kOverlayNames = "cells, portals, union, reach, rays, walkable, visible, weight, dark, q3capsule";

// Every overlay's action name, in menu order.
QStringList overlayActionNames();

} // namespace shallot

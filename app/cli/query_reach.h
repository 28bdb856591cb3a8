#pragma once
#include "compile/bsp_tree.h"

#include <QJsonObject>

namespace shallot::cli {

// The query op {"op":"reach","pose":"<name>","from":[x,y,z],"to":[x,y,z]}: can an agent in
// that pose get from one point to the other over the tree's open portals?
//   -> {"reachable":bool,"from_leaf":N,"to_leaf":N}
// A point in solid for the pose (after the nudge of placeStart) has leaf -1 and is
// reachable from nowhere. A query it cannot answer gives {"error":"..."} and ok = false.
// With "movers" the query processor passes the world compiled with the movers placed.
QJsonObject answerReach(const BspTree& tree, const QJsonObject& query, bool& ok);

} // namespace shallot::cli

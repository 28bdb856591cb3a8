#pragma once
#include "compile/bsp_tree.h"
#include "portal/tree_pvs.h"
#include "world/world.h"

#include <QJsonObject>
#include <mutex>
#include <optional>

namespace shallot::cli {

// The query op {"op":"visible","from":[x,y,z],"to":[x,y,z]} (issue #39): may a point see
// another, for the tree's sight pose (the point pose at the reference point)?
//   -> {"pvs":bool,"pvs_known":bool,"clear":bool,"from_leaf":N,"to_leaf":N}
// pvs: the leaf of `to` is in the PVS of the leaf of `from` (query/point_visibility.h);
// true with pvs_known false when either point is in solid for the sight pose or there is
// no PVS. clear: the segment from -> to meets no solid of the sight pose (an exact trace;
// from == to asks whether the point is empty). The PVS is the one a .obsp stores
// (shallot-cli vis); a .obsp without one answers pvs_known false. For a .map or .shallot
// it is computed from the world on the first visible query (the full flow, as shallot-cli
// vis: seconds on a Quake level) and kept for the rest of the stream. A tree without a
// sight pose answers every visible query with an error.
class VisibleQueries {
public:
    // `stored` and `world` (either may be null) outlive this object.
    VisibleQueries(const BspTree& tree, const TreePvs* stored, const World* world)
        : tree_(tree), stored_(stored), world_(world) {}
    QJsonObject answer(const QJsonObject& query, bool& ok) const;

private:
    const TreePvs* pvs() const; // stored_, or computed once from world_, or null

    const BspTree& tree_;
    const TreePvs* stored_;
    const World* world_;
    mutable std::once_flag computeOnce_;
    mutable std::optional<TreePvs> computed_;
};

} // namespace shallot::cli

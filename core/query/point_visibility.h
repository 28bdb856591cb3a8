#pragma once
// Whether one point may see another (issue #39): shallot-cli query's "visible" op and the
// runtime's visible(). Two answers: the PVS's (portal/tree_pvs.h: the leaves may see each
// other) and the segment's own (it meets no solid of the sight pose, traced exactly).
#include "compile/bsp_tree.h"
#include "portal/tree_pvs.h"

#include <span>
#include <vector>

namespace shallot {

struct PointVisibility {
    bool pvs = true;       // the leaf of `to` is in the PVS of the leaf of `from`; true when not known
    bool pvsKnown = false; // a PVS is given and neither leaf is solid for its pose
    bool clear = false;    // the segment meets no solid of the sight pose (no start in solid, no hit)
    int32_t fromLeaf = 0, toLeaf = 0;
};

// For `sight` (sightPose(tree), >= 0) and `pvs` (computed for `tree`, or null: then pvs is
// true and not known). from == to is allowed: clear says whether the point is empty.
PointVisibility pointVisibility(const BspTree& tree, int sight, const TreePvs* pvs, const Vec3& from, const Vec3& to);

// The same for each pair (from.size() == to.size()), the segments traced on `threads`
// threads (traceBatch): the same answers as one by one.
std::vector<PointVisibility> pointVisibilityBatch(const BspTree& tree, int sight, const TreePvs* pvs,
                                                  std::span<const Vec3> from, std::span<const Vec3> to, int threads);

} // namespace shallot

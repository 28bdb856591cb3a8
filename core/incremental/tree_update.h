#pragma once
// Rebuilding only the part of a BSP tree that an edit reaches.
//
// An edit removes the polygons of some sources (the union faces of the brushes it
// touched) and adds new ones. The old tree is walked from the root:
//  - a subtree that holds none of the removed polygons and that no added polygon reaches
//    has the same polygons as before: it is copied whole (its leaves keep their solidity);
//  - a node whose splitter still has a polygon on it facing its way (its support: an old
//    one not removed, or an added one) is kept: the added polygons are partitioned by it
//    and both children are walked. A fresh build could have chosen that splitter, so the
//    tree stays a valid autopartition and a map tree's leaves may still read their
//    solidity off the side of their parent's splitter;
//  - anywhere else the subtree is built anew from the polygons in its cell: the added
//    ones that reached it plus the old fragments kept below it that were not removed
//    (candidates again unless a splitter above retired them).
// The result answers every point query as a fresh compile does; its shape differs (the
// splitters of kept nodes were chosen for the old polygons).
#include "compile/bsp_builder.h"

#include <vector>

namespace shallot {

struct TreeEdit {
    // Per previous world brush: bit p set when the polygons of source (pose p, brush) are
    // removed. A map tree's polygons all carry pose 0: mapTreePose says which bit applies.
    const std::vector<uint64_t>& removedPoses;
    int mapTreePose = -1;
    const std::vector<int32_t>& newOfOld;  // previous brush index -> current (-1: gone)
    std::vector<BuildPolygon> added;       // current brush numbering
};

struct TreeUpdate {
    std::vector<int32_t> nodeSource;  // per node: the previous node whose subtree it copies, or -1
    std::vector<int32_t> leafOfOld;   // per previous leaf: its copy, or -1
    size_t copiedNodes = 0, keptNodes = 0, rebuiltNodes = 0;
};

// Makes `out` the tree for the edited polygons from `old`, which it leaves as it was (the
// compiler's previous result may still be shown or queried), and replaces `record` (leaf
// cells of the previous ones are shared, not copied). `context` must be the one the tree
// was built with, but for the planes, which may have grown. `out` must not be `old`.
TreeUpdate updateTree(const BspTree& old, BspTree& out, TreeRecord& record, TreeEdit& edit, const BuildContext& context,
                      BuildStats* stats);

} // namespace shallot

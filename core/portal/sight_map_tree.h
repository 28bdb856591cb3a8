#pragma once
// The sight pose's map tree compiled from brushes alone, with its portals: the tree whose
// leaves are the PVS's clusters (potentially_visible_set.h, cluster_visibility.h), for a
// tree kept without its map trees (an .obsp, a .shallot's stored compile) or of a subset of
// the brushes (the structural ones).
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "world/brush.h"
#include "world/pose.h"

#include <optional>
#include <string>
#include <vector>

namespace shallot {

// Nothing, and `error` says why, when the brushes do not compile. Throws CompileCancelled.
std::optional<BspTree> compileSightMapTree(const std::vector<Brush>& brushes, const Pose& sight, const Aabb& bounds,
                                           int threads, const CancelToken* cancel, std::string* error);

} // namespace shallot

#pragma once
// The thesis's PVS (Ranta-Eskola, "Calculating the PVS"), kept as a comparison for the
// portal flow (potentially_visible_set.h): points sampled on each leaf's portals (the
// splitting planes it meets its neighbours on), and a leaf B counted visible from A when a
// segment from a sample of A to a sample of B meets no solid. Every pair it finds is truly
// visible, but it is not conservative: a leaf seen only through a part of a portal between
// the samples is missed. docs/visibility.md gives how many it misses.
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"
#include "portal/potentially_visible_set.h"

namespace shallot {

// Samples are moved this far off their portal into the leaf they stand for, so that they
// read that leaf (a point on a split plane reads its front side).
inline constexpr double kSampleIntoLeaf = 0.01;

struct SampledPvsSettings {
    int pose = 0;
    // Per portal: its centroid and each vertex pulled this fraction of the way to it.
    double vertexPull = 0.1;
    int threads = 1;
    const CancelToken* cancel = nullptr;
};

// The sampled PVS of every empty leaf of `tree` out of the void's reach (leaves in reach of
// it get themselves only). Throws CompileCancelled when settings.cancel is cancelled.
PotentiallyVisibleSet sampledPvs(const BspTree& tree, const SampledPvsSettings& settings);

} // namespace shallot

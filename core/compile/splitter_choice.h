#pragma once
#include "compile/bsp_partition.h"

#include <optional>

namespace shallot {

// Constants of the splitter heuristic (benchmarked in docs/performance.md).
struct SplitterParams {
    double splitWeight = 32.0;     // cost of each polygon the plane splits
    double balanceWeight = 1.0;    // cost per polygon of imbalance |front - back|
    // Below depth balanceFreeDepth the balance weighs balanceWeight; every
    // balanceDepthStep levels deeper it weighs balanceWeight once more. Without it a
    // terrain's thousands of distinct slanted planes are peeled off nearly one per level
    // (ericw_q1_mountain: depth 193 and 15% more nodes); the Quake maps' trees rarely
    // reach that depth and stay as they were (docs/performance.md). A step of 0 keeps the
    // balance weight the same at every depth.
    int balanceFreeDepth = 24;
    double balanceDepthStep = 4.0;
    double coplanarWeight = 0.0;   // credit for each polygon on the plane (retired by it)
    double nonAxialFactor = 1.25;  // score multiplier for planes not parallel to an axis
    size_t maxCandidates = 24;     // distinct candidate planes scored per node (evenly sampled)
    size_t maxScored = 1024;       // polygons each candidate is scored against (evenly sampled)
    size_t axialOnlyAbove = 256;   // above this many polygons only axial candidates are tried
    // Lookahead (trees that carry cells: the onion; bsp_builder.cpp): a node with at most
    // lookaheadBelow live polygons tries its lookaheadCandidates best-scored splitters and
    // keeps the one whose greedy subtree has the fewest nodes. 0 turns it off.
    size_t lookaheadBelow = 0;
    size_t lookaheadCandidates = 3;

    // Every field: trees built with different constants differ (incremental updates compare).
    bool operator==(const SplitterParams&) const = default;
};

// The plane to split a node at `depth`'s polygons by, or nothing when no polygon is a
// candidate any more (the node is a leaf). Score = splitWeight * splits + balance *
// |front - back| - coplanarWeight * polygons on the plane, times nonAxialFactor for
// non-axial planes, where balance is balanceWeight grown with the depth as above,
// counting only polygons that can still become splitters (retired ones cost no node);
// sampling keeps it O(candidates * scored) per node instead of the O(n^2) of scoring every
// plane against every polygon.
std::optional<PlaneId> chooseSplitter(const std::vector<BuildPolygon>& polygons, const std::vector<Plane>& planes,
                                      const SplitterParams& params, int depth);

// The `count` best candidate planes by the score above, best first.
std::vector<PlaneId> rankSplitters(const std::vector<BuildPolygon>& polygons, const std::vector<Plane>& planes,
                                   const SplitterParams& params, int depth, size_t count);

// The balance weight at `depth` (see SplitterParams::balanceFreeDepth).
double balanceWeightAt(const SplitterParams& params, int depth);

} // namespace shallot

#pragma once
// The potentially visible set (PVS) of every leaf of a tree for one pose: the leaves that
// may be seen from somewhere in it (the thesis's "Calculating the PVS"). Leaf B is in
// PVS(A) unless no segment from a point of A to a point of B passes only through empty
// leaves and the portals between them; the answer is conservative (every leaf such a
// segment reaches is in the set, never a miss) and, with the full flow, as tight as
// portal flow with separating planes (Quake's vis at its full level), computed as:
//
//  1. every portal open for the pose becomes two one-way portals, each facing the leaf it
//     leads into;
//  2. base flow: for each one-way portal P, the one-way portals Q that might be seen
//     through it: a flood from P's leaf through portals lying partly beyond P's plane
//     whose plane P lies partly before (Q would face away from every point of P otherwise);
//  3. full flow (optional): from each P, a depth-first walk through the leaves beyond it
//     carrying the part of P that can still see ("source") and the last portal passed,
//     cut to what can be seen through every portal so far ("pass"): each next portal Q is
//     cut to the front of P, the source to the back of Q, and Q by the separating planes
//     between source and pass (planes through an edge of one and a vertex of the other
//     with the two on opposite sides: a line through source and pass stays in front of
//     them). Q is seen when something is left; the walk goes on only through portals
//     that every portal passed might see (the base flow's sets, or the final sets of
//     portals done in earlier waves, intersected: the same answer for any thread count).
//     The waves are of 64 portals, smallest base sets first (Quake's vis order), or, with
//     localWaves, picked by each portal's own geometry, so that an edit changes the waves
//     of the portals it touches only and an update can be exact (pvs_update.h).
//
// A leaf's PVS is itself, the leaves its one-way portals see, and, since a segment seen
// from B to A is seen from A to B, every leaf that sees it. Solid leaves have empty sets.
// The leaves in reach of the void around the level (reachableFromOutside: outside a sealed
// level; everything connected to it when the level leaks) all see each other, without a
// flow: no eye goes there, and a leaking level gets no PVS inside, as Quake's vis refuses
// it.
// Windings are cut with kPvsClipMargin of slack on the kept side, so rounding can only
// keep a leaf, never lose one.
#include "compile/bsp_tree.h"
#include "compile/cancel_token.h"

#include <cstdint>
#include <vector>

namespace shallot {

// How much a cut keeps beyond its plane (world units): above the rounding of winding
// vertices up to the world's 65536 (1e-11), far below a designer's unit; a portal that
// only touches what could see it within this counts as seen.
inline constexpr double kPvsClipMargin = 1e-3;

struct PvsSettings {
    int pose = 0;               // the pose whose empty leaves and open portals count
    bool fullFlow = true;       // false: the base flow only (fast, looser: Quake's vis -fast)
    // Waves picked by the portals' geometry, not their base sets' sizes: what updatePvs
    // needs (pvs_update.h); the sets differ a little from the waves by size (id_e1m1:
    // average 152.1 against 151.6) and the full flow takes about 1.3 times as long.
    bool localWaves = false;
    int threads = 1;
    const CancelToken* cancel = nullptr;
};

struct PvsStats {
    size_t oneWayPortals = 0;
    size_t emptyLeaves = 0;     // of which outsideLeaves are in reach of the void
    size_t outsideLeaves = 0;
    // Leaves in the PVS of an empty leaf out of the void's reach (Quake's "average leafs
    // visible"), on average and at most.
    double averageVisible = 0;
    size_t largestVisible = 0;
    double baseMs = 0, flowMs = 0;
};

// One bit per (leaf, leaf) pair, row by row.
class PotentiallyVisibleSet {
public:
    PotentiallyVisibleSet() = default;
    PotentiallyVisibleSet(size_t leafCount);

    size_t leafCount() const { return leafCount_; }
    bool visible(int32_t from, int32_t to) const {
        return (bits_[size_t(from) * words_ + size_t(to) / 64] >> (size_t(to) % 64)) & 1u;
    }
    void set(int32_t from, int32_t to) { bits_[size_t(from) * words_ + size_t(to) / 64] |= uint64_t(1) << (size_t(to) % 64); }
    size_t countFrom(int32_t from) const;
    // The leaves visible from `from`, in index order.
    std::vector<int32_t> leavesFrom(int32_t from) const;
    const uint64_t* row(int32_t from) const { return bits_.data() + size_t(from) * words_; }
    uint64_t* row(int32_t from) { return bits_.data() + size_t(from) * words_; }
    size_t words() const { return words_; }
    bool operator==(const PotentiallyVisibleSet&) const = default;

private:
    size_t leafCount_ = 0;
    size_t words_ = 0;
    std::vector<uint64_t> bits_;
};

// What a flow keeps for an update after an edit (pvs_update.h); defined in portal_flow.h.
struct PvsFlowRecord;

// The PVS of every leaf of `tree` (its portals must be generated) for settings.pose; with
// `record`, what the flow found is kept there. Throws CompileCancelled when
// settings.cancel is cancelled.
PotentiallyVisibleSet computePvs(const BspTree& tree, const PvsSettings& settings, PvsStats* stats = nullptr,
                                 PvsFlowRecord* record = nullptr);

} // namespace shallot

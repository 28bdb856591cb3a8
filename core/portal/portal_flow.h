#pragma once
// The steps of the PVS's portal flow (potentially_visible_set.h) that computePvs and
// updatePvs (pvs_update.h) share: the one-way portals, a portal's base flow and a portal's
// full flow, and the waves the full flow runs in.
#include "compile/bsp_tree.h"
#include "compile/stopwatch.h"
#include "portal/potentially_visible_set.h"

#include <cstdint>
#include <vector>

namespace shallot {

using PvsBits = std::vector<uint64_t>;
inline bool testBit(const PvsBits& b, size_t i) { return (b[i / 64] >> (i % 64)) & 1u; }
inline void setBit(PvsBits& b, size_t i) { b[i / 64] |= uint64_t(1) << (i % 64); }

struct OneWayPortal {
    Plane plane;        // facing into `into`
    int32_t from, into; // leaves
    std::vector<Vec3> winding;
    // A hash of the plane and the winding's vertices, bit for bit: a portal an edit did not
    // touch keeps it (sameGeometry says whether two portals are the same).
    uint64_t key = 0;
};
bool sameGeometry(const OneWayPortal& a, const OneWayPortal& b);

struct OneWayPortals {
    std::vector<OneWayPortal> portals;         // in pairs: 2k leads back through 2k + 1
    std::vector<std::vector<int32_t>> leaving; // per leaf, the one-way portals out of it
};

// The portals open for `pose` but those between leaves in reach of the void (`outside`).
OneWayPortals oneWayPortals(const BspTree& tree, int pose, const std::vector<bool>& outside);

// The base flow: the one-way portals that might be seen through `source`.
PvsBits baseFlow(const OneWayPortals& all, int32_t source);

// The full flow's waves: portals in one wave flow side by side, each narrowing its walk by
// the final sets of the portals of earlier waves and by the base sets of the others.
struct FlowWaves {
    std::vector<uint32_t> waveOf;             // per one-way portal
    std::vector<std::vector<int32_t>> waves;  // the portals of each wave, in order
};
// Waves of kFlowWave, smallest base sets first (Quake's vis order: fastest).
FlowWaves wavesBySize(const std::vector<PvsBits>& might);
// Waves by the portals' keys alone (localWaves, pvs_update.h): a portal's wave, and so
// which sets narrow its walk, changes only when the portal itself does.
FlowWaves wavesByKey(const OneWayPortals& all);

// The full flow of `source`: the one-way portals seen through it. `seen` holds the final
// sets of the portals of earlier waves than source's (read only for those).
PvsBits fullFlow(const OneWayPortals& all, const std::vector<PvsBits>& might, const std::vector<PvsBits>& seen,
                 const std::vector<uint32_t>& waveOf, int32_t source);

// What computePvs found, kept for updatePvs: the one-way portals, their base sets
// (`might`) and final sets (`seen`: the base sets without the full flow).
struct PvsFlowRecord {
    int pose = 0;
    bool fullFlow = true;
    bool localWaves = false;
    std::vector<bool> outside; // per leaf: in reach of the void
    OneWayPortals portals;
    std::vector<PvsBits> might, seen;
};

// The leaves' PVS from the one-way portals' final sets (potentially_visible_set.h, step 4).
PotentiallyVisibleSet pvsOfFlows(const BspTree& tree, int pose, const std::vector<bool>& outside,
                                 const OneWayPortals& all, const std::vector<PvsBits>& seen);
// The figures of a PVS (its one-way portals and times left at zero).
PvsStats pvsStats(const BspTree& tree, int pose, const std::vector<bool>& outside, const PotentiallyVisibleSet& pvs);

// The end of computePvs and updatePvs: the leaves' PVS from `flows`' final sets, its figures
// in `stats` (baseMs given; the flow's time is `clock`'s lap, taken after the PVS is made)
// and, when asked, the flows handed to `record` for the next update.
PotentiallyVisibleSet finishPvs(const BspTree& tree, const PvsSettings& settings, PvsFlowRecord flows, double baseMs,
                                Stopwatch& clock, PvsStats* stats, PvsFlowRecord* record);

} // namespace shallot

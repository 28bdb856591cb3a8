#pragma once
// The PVS after an edit, from what the flow before it found (issue 39, "Live"): the same
// sets, bit for bit, as computePvs with localWaves on the edited tree, recomputing only the
// flows an edit can change.
//
// A one-way portal's flow reads only the leaves it enters and, there, the portals leaving
// them: their geometry, the bits of its own base set for them and of the sets that narrow
// its walk (base sets, or final sets of portals of earlier waves). Its walk enters the leaf
// it leads into and the leaves its final set leads into, no others: stepping through a
// portal sees it, and what a walk prunes as "nothing new beyond it" would see nothing new.
// So where all those leaves are still there with the same portals out of them (the same
// planes and vertices, bit for bit, matched by geometry) and those sets still hold the same
// bits for those portals, the flow walks the same steps with the same arithmetic and finds
// the same set: it is kept, and every other flow is computed again. The base flow's flood
// is kept in the same way (the leaves it enters: the one its portal leads into and those its
// set leads into). With localWaves a portal's wave comes from its own geometry, so a kept
// portal is in the same wave before and after and reads the same kinds of sets.
//
// The leaves an edit leaves alone keep their portals bit for bit when the tree around them
// is kept (core/incremental's updateTree copies the subtrees an edit does not reach); where
// a tree is compiled again from scratch, nothing may match, and the update computes it all.
#include "portal/portal_flow.h"

namespace shallot {

struct PvsUpdateStats {
    bool fromScratch = false;    // the previous record could not be used (pose, flow or waves differ)
    size_t portals = 0;          // one-way portals of the edited tree
    size_t matchedPortals = 0;   // of which the same as before (plane and vertices)
    size_t matchedLeaves = 0;    // leaves with the same one-way portals out of them as before
    size_t baseFlowsKept = 0, fullFlowsKept = 0;
    // Full flows computed again because the portal or a leaf its walk entered is new, and
    // because a set its walk read changed (the rest of the portals: fullFlowsKept).
    size_t flowsThroughTheEdit = 0, flowsWithChangedSets = 0;
};

// The PVS of `tree` for settings (localWaves must be on for the full flow to be updated),
// equal to computePvs(tree, settings), from `previous`, a record of an earlier tree of the
// same world. Writes its own record to `record` when given. Throws CompileCancelled.
PotentiallyVisibleSet updatePvs(const PvsFlowRecord& previous, const BspTree& tree, const PvsSettings& settings,
                                PvsStats* stats = nullptr, PvsFlowRecord* record = nullptr,
                                PvsUpdateStats* update = nullptr);

// A PVS of the edited tree to show at once while updatePvs computes the exact one: the
// final set of every portal whose walk (in `previous`, a full flow) entered only leaves the
// edit kept, renumbered; for every other portal P its base set, less each portal Q whose way
// back's set lacks P's way back (twice: kProvisionalPasses in pvs_update.cpp, each pass by
// the sets the one before left). Conservative: a segment from a kept portal that passes
// only through portals and empty leaves crosses, leaf by kept leaf, only portals the old
// walk saw (each leaf has the same portals out of it, so the segment was there
// before the edit too), so the old set still holds what it can see, whatever changed
// elsewhere; a segment through P and then Q passes back through Q's way back and then P's;
// and a base set holds what the portal sees. As tight as the full flow away from the edit,
// nearly so through it; not exact, nor a superset of the full flow's sets (which are not
// symmetric), so its record is marked a base flow and no exact update starts from it.
// settings.fullFlow is not read. Without a full flow in `previous` it is the base flow's
// update. In `update`, fullFlowsKept counts the final sets kept and flowsThroughTheEdit the
// portals given narrowed base sets. Throws CompileCancelled.
PotentiallyVisibleSet provisionalPvs(const PvsFlowRecord& previous, const BspTree& tree, const PvsSettings& settings,
                                     PvsStats* stats = nullptr, PvsFlowRecord* record = nullptr,
                                     PvsUpdateStats* update = nullptr);

} // namespace shallot

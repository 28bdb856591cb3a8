#pragma once
// What sets what off while a level runs (Play, `simulate --fired`), read once from the
// file: the touch fields of doors, plats and buttons, the triggers an agent walks into,
// the relays and counters between them, and each firing's delay. The games' rules
// (Quake's triggers.qc, doors.qc, buttons.qc, plats.qc read as a description):
// docs/movers.md "Play".
#include "io/map_file.h"
#include "movers/entity_graph.h"
#include "movers/mover.h"

#include <vector>

namespace shallot {

// trigger_multiple's time before it fires again when "wait" is unset (Quake, Quake 2 and
// Half-Life alike).
inline constexpr double kTriggerMultipleWait = 0.2;
// trigger_counter's firings before it fires when "count" is unset.
inline constexpr int kTriggerCounterDefault = 2;

// A trigger as it runs: touched (an agent's box overlapping `bounds`) or used, it fires
// the entities of `fires`.
struct RunTrigger {
    int entity = -1;
    TriggerKind kind = TriggerKind::Other;
    Aabb bounds;          // empty: it is only used, never touched
    double wait = -1.0;   // seconds before it fires again (-1: once only)
    int count = 1;        // firings (touches or uses) before it fires: a counter's "count"
    bool startsOff = false; // Quake 2's TRIGGERED flag: touchable only once used
    bool works = true;    // false: a trigger_key for an item the level never gives
    std::vector<int> fires;
};

struct FiringRules {
    std::vector<int> moverOf;    // entity index -> index in the movers, -1
    std::vector<int> triggerOf;  // entity index -> index in `triggers`, -1
    std::vector<double> delayOf; // entity index -> seconds its firing waits ("delay", 0)
    std::vector<std::vector<int>> firesOf; // entity index -> the entities its targets use
    std::vector<RunTrigger> triggers;      // file order
    // Per mover: a key door an agent opens by touching it with its key (the level gives
    // the key; without a key holder, MoverFiring takes every agent to carry it).
    std::vector<bool> keyOpens;
    // Per mover: a train that runs from the level's start (unnamed, or Quake 2's START_ON);
    // the others wait to be used.
    std::vector<bool> startsRunning;
    // The level's teleporters (EntityGraph::teleports), run by Play and `simulate` whether
    // the movers are fired or cycle.
    std::vector<Teleport> teleports;
    // The key items agents pick up (EntityGraph::keys: Quake's silver and gold).
    std::vector<KeyItem> keys;
};

// The places an agent touches to set something off in a level run by `rules`: the boxes of
// the triggers it can touch, the touch fields of doors and plats, buttons and key doors
// (their boxes grown by kTouchReach), and the teleporters. Play's agents seek them
// (SimulationOptions::seekShare).
std::vector<Aabb> workingPlaces(const std::vector<Mover>& movers, const FiringRules& rules);

// The rules of `map` for `movers` (LevelMovers::movers of the same file) and `graph`
// (buildEntityGraph of the same file).
FiringRules buildFiringRules(const MapFile& map, const std::vector<Mover>& movers, const EntityGraph& graph);

} // namespace shallot

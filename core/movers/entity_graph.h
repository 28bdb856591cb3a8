#pragma once
// Who fires whom in a level: targets and targetnames, the triggers and buttons that open
// doors, teleporters and their destinations, and the keys the level gives. What travel
// and the mover checks read of the entities (docs/movers.md).
#include "geometry/aabb.h"
#include "io/map_file.h"
#include "movers/mover.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace shallot {

// One name an entity refers to: its `target` (or `killtarget`; Quake 2's `pathtarget`,
// `deathtarget`, `combattarget`; a Half-Life multi_manager's keys) and every entity whose `targetname` is that name, in file order (empty: it names
// nothing).
struct EntityTarget {
    int entity = -1;     // the entity that fires
    std::string key;     // "target", "killtarget", or the multi_manager key
    std::string name;    // the value
    std::vector<int> named;
    // Whether firing it uses (opens, starts) what it names: false for "killtarget"
    // (removes it), Quake 2's "combattarget" (a place to run to) and a path_corner's
    // "target" (the next corner).
    bool fires = true;
};

enum class TriggerKind : uint8_t {
    Multiple, // trigger_multiple (Quake 2, Half-Life too)
    Once,     // trigger_once
    Relay,    // trigger_relay: no brushes, fires when fired
    Counter,  // trigger_counter: fires after `count` firings
    Key,      // Quake 2's trigger_key: fires only for a player with its `item`
    Button,   // func_button: pressed by touch (or shot when it has health)
    Other,    // any other entity with a `target` (a monster's death, an item's pick-up...)
};
// "multiple", "once", "relay", "counter", "key", "button", "other"
const char* triggerKindName(TriggerKind kind);

// An entity that fires targets when something happens to it.
struct EntityTrigger {
    int entity = -1;
    TriggerKind kind = TriggerKind::Other;
    std::string classname;
    Aabb bounds;          // its brushes' box (empty for point entities and relays)
    std::string item;     // Key: the item it wants (Quake 2 "item", e.g. "key_blue_key")
    std::vector<int> fires; // entities its targets name (each once, ascending)
};

// A trigger_teleport (Quake 2: misc_teleporter) and where it sends you.
struct Teleport {
    int entity = -1;
    Aabb bounds;             // the trigger's brushes' box (Quake 2: its origin's pad)
    int destination = -1;    // the entity its target names first, -1 when none
    Vec3 destinationOrigin = Vec3::Zero(); // valid when destination >= 0
    bool needsFiring = false; // Quake: a teleporter with a targetname works only once fired
    // The game puts the teleported entity's origin this far above the destination's
    // (kTeleportArrivalLift...): an agent's reference point lands there.
    double arrivalLift = 0.0;
    // Where the game puts a teleported entity's origin: the destination's, raised.
    Vec3 arrival() const { return destinationOrigin + Vec3(0, 0, arrivalLift); }
};

// How far above its destination's origin each game puts a teleported origin: Quake's
// info_teleport_destination raises itself by 27 when it spawns (misc.qc); Quake 2's
// teleporter_touch adds 10, Quake 3's TeleportPlayer 1; Half-Life's trigger_teleport puts a player's feet 1 above
// the destination, and its player's origin is 36 above its feet.
inline constexpr double kQuakeTeleportArrivalLift = 27.0;
inline constexpr double kQuake2TeleportArrivalLift = 10.0;
inline constexpr double kQuake3TeleportArrivalLift = 1.0;
inline constexpr double kHalfLifeTeleportArrivalLift = 37.0;

// An item that gives a key.
struct KeyItem {
    int entity = -1;
    std::string classname;
    KeyKind kind = KeyKind::None; // Quake's silver/gold; None for Quake 2's key_* items
    Vec3 origin = Vec3::Zero();
};

struct EntityGraph {
    std::unordered_map<std::string, std::vector<int>> named; // targetname -> entities
    std::vector<EntityTarget> targets;   // every target of every entity, file order
    std::vector<EntityTrigger> triggers; // every entity that fires something, file order
    std::vector<Teleport> teleports;
    std::vector<KeyItem> keys;
    // Per entity index: the entities its firing targets name, each once, ascending.
    std::vector<std::vector<int>> firesOf;

    // Entities whose targetname is `name` (empty when none or name is empty).
    const std::vector<int>& entitiesNamed(const std::string& name) const;
    // Targets that name entity `entity` (indices into `targets`, ascending).
    std::vector<int> targetsNaming(int entity) const;
    // Does the level give a key of `kind` (Quake) / an item of class `classname` (Quake 2)?
    // Everything firing `entity` sets off: what it fires, what those fire when fired
    // (relays, counters, doors and buttons fire their targets too) and so on, each once,
    // ascending; a cycle ends where it comes back. `entity` itself only when a cycle
    // fires it again.
    std::vector<int> firedFrom(int entity) const;
    bool givesKey(KeyKind kind) const;
    bool givesItem(const std::string& classname) const;
};

// The graph of `map`'s entities (indices as in the file, worldspawn 0), for map.game.
EntityGraph buildEntityGraph(const MapFile& map);

} // namespace shallot

#pragma once
// A level's brush entities as objects: doors, plats, trains, buttons that move, and the
// static ones (func_wall and friends). The rules are the games' (Quake's doors.qc,
// plats.qc, buttons.qc read as a description): docs/movers.md.
//
// Positions: a mover's brushes are kept exactly as the file has them ("the file
// position"); every place the mover can be is an offset from there. Offset zero is not
// always where the game spawns it: a plat without a targetname rests at its bottom, a
// START_OPEN door at its open end, a train at its first corner (spawnState).
#include "geometry/aabb.h"
#include "world/brush.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shallot {

enum class MoverKind : uint8_t {
    Door,       // func_door (Quake, Quake 2, Half-Life)
    SecretDoor, // func_door_secret: back, then aside
    Plat,       // func_plat: a lift between its top (the file position) and its bottom
    Train,      // func_train: along its path_corner chain
    Button,     // func_button: pressed in along its angle, fires its target
    Static,     // func_wall, func_illusionary, rotating doors (not modelled): never moves
};
// "door", "secret_door", "plat", "train", "button", "static"
const char* moverKindName(MoverKind kind);

// Quake's two keys (item_key1 silver, item_key2 gold); Quake 2's keys are items named by
// a trigger_key (EntityGraph), not a door flag.
enum class KeyKind : uint8_t { None, Silver, Gold };
// "", "silver", "gold"
const char* keyKindName(KeyKind kind);

// Where a mover is along its motion.
//  - Closed: at its first stop (QuakeC's pos1: a door's closed place, a plat's top, a
//    train's first corner). Open: at its last stop (pos2: a door open, a plat at its
//    bottom, a train at the last corner of its chain).
//  - Fraction f in [0, 1]: that far along the stops' polyline by length (0 closed, 1 open).
//  - Corner n: at stop n (a train's n-th corner, 0 the one its `target` names).
struct MoverState {
    enum class Type : uint8_t { Closed, Open, Fraction, Corner };
    Type type = Type::Closed;
    double fraction = 0.0; // Fraction only
    int corner = 0;        // Corner only

    static MoverState closed() { return {}; }
    static MoverState open() { return {Type::Open, 1.0, 0}; }
    static MoverState at(double fraction) { return {Type::Fraction, fraction, 0}; }
    static MoverState atCorner(int corner) { return {Type::Corner, 0.0, corner}; }
    bool operator==(const MoverState&) const = default;
};

// "closed", "open", "corner N", or the fraction as shortest round-trip text ("0.25").
std::string formatMoverState(const MoverState& state);
// The inverse: "closed", "open", "corner N" (N >= 0), or a number in [0, 1]; else nothing.
std::optional<MoverState> parseMoverState(std::string_view text);

// The places a mover stops at, as offsets from its file position, in the order it visits
// them: a door, button or plat two (closed, open), a secret door three (closed, its first
// move, open), a train one per corner of its chain from the first, a static object one
// (zero).
struct MoverMotion {
    std::vector<Vec3> stops{Vec3::Zero()};
    // Seconds it waits at each stop before it moves on (same size as stops): a door's or
    // button's `wait` at its open stop (-1: never returns; a TOGGLE door waits for its next
    // trigger: -1 too), a train's corners' `wait`; 0 where it does not stop by itself.
    std::vector<double> waits{0.0};
    // A train's chain runs from the last stop back to this stop (-1 when the chain ends,
    // which stops Quake with "train_next: no next target").
    int loopsTo = -1;
};

struct Mover {
    int entity = -1;       // index of its entity in the file (worldspawn 0)
    int line = 0;          // of the entity's opening brace
    MoverKind kind = MoverKind::Static;
    std::string classname; // as written
    std::vector<Brush> brushes; // at the file position (illusionary ones NonSolid)
    Aabb bounds;           // of the brushes at the file position (their vertices)
    MoverMotion motion;
    double speed = 0.0;    // units per second along the motion (0 for static objects)
    double wait = 0.0;     // the entity's `wait` with the game's default (-1: stays)
    int spawnflags = 0;
    std::string targetname; // "" when none
    std::string target;     // "" when none (a train's: its first corner)
    int health = 0;         // a door or button with health opens when shot
    KeyKind key = KeyKind::None; // a Quake door's GOLD_KEY / SILVER_KEY
    // Linked doors (Quake: touching func_doors without DONT_LINK; Quake 2: the same `team`)
    // move as one: the index in LevelMovers::movers of the group's first mover in file
    // order (its own index when alone or not a door).
    int master = -1;
    MoverState spawn;       // where the game puts it when the level starts
    // Where a player touching it opens or starts it, fixed in the world (the games' trigger
    // fields do not move): a door group's trigger field (every member has the group's), a
    // Half-Life door's own box, a plat's inside trigger, a button's own box at its file
    // position. Empty when touch does nothing (a named, shootable or key door: keys are
    // tried when the door itself is touched; Quake's DONT_LINK doors get no field at all).
    Aabb touchBounds;

    // The offset from the file position at `state`. A Corner out of range, or a fraction
    // that is not finite, is clamped to the nearest stop (closed for NaN).
    Vec3 offsetAt(const MoverState& state) const;
    // The brushes' bounds at `state`.
    Aabb boundsAt(const MoverState& state) const;
    // Every place the brushes pass through: the bounds at every stop, joined.
    Aabb sweptBounds() const;

    // Seconds it takes from `from` to `to` at its speed (mover_timing.cpp): along its stops,
    // with the waits of the stops strictly between; a train only forward along its chain
    // (through its loop when `to` is behind `from`). 0 from a place to itself; infinity
    // when it never gets there (no finite positive speed, a train's chain that ends
    // before). Closed and open are the first and last stop, a corner its stop.
    double secondsBetween(const MoverState& from, const MoverState& to) const;
    // Its offset `seconds` after the level starts when it is kept going: a train runs its
    // chain from its spawn corner, waiting each corner's wait (its loop for ever, or
    // stopping at the end of a chain that ends); a door, secret door, plat or button goes
    // from where it spawns to the other end through its stops, waits there, comes back,
    // waits, and goes again (as if fired again as soon as it can be). A wait of -1 stays.
    // Without a finite positive speed it stays where it spawns.
    Vec3 offsetAtTime(double seconds) const { return offsetAtTimeFrom(spawn, seconds); }
    // The same, begun at `from` (closed, open or a train's corner) instead of its spawn state.
    Vec3 offsetAtTimeFrom(const MoverState& from, double seconds) const;
    // Seconds one round trip from `from` takes when it is fired once (a door, button, plat
    // or secret door: out to the far end, its wait there, back): the first time
    // offsetAtTimeFrom(from, t) is at `from` again. Infinity when it never comes back (a
    // wait of -1, a train, no finite positive speed); 0 for a static object.
    double roundTripSeconds(const MoverState& from) const;
};

// An agent's box touches a solid brush (a button, a key door) when it comes this close: the
// box stops at the brush, it does not enter it (travel's openers, Play's firing).
inline constexpr double kTouchReach = 1.0;
// `box` grown by kTouchReach on every side (empty stays empty): where an agent's box
// touches a solid box.
Aabb grownByTouchReach(const Aabb& box);
// Where an agent's box sets mover `m` off by touch: its touch field, grown by kTouchReach
// when that is the mover's own solid box (a button, a Half-Life door: touched from
// outside it); a zone walked into (a door's trigger field, a plat's) as it is. Empty when
// no touch sets it off (key doors are touched with their key: grownByTouchReach(box)).
Aabb touchFieldOf(const Mover& m);

// What building the movers noticed about an entity (a key that is not a number, a train
// without corners): the mover is still built, with the game's default in its place.
struct MoverNote {
    int entity = -1;
    int line = 0;
    std::string message; // one line for people
};

struct LevelMovers {
    std::vector<Mover> movers; // file order
    std::vector<MoverNote> notes;

    // The mover of entity `entity`, or null (a binary search: movers are in file order).
    const Mover* forEntity(int entity) const;
    // Indices in `movers` of the group `movers[index]` belongs to (itself alone for most),
    // ascending. Linear in the movers: for every group at once, bucket by `master`.
    std::vector<int> group(int index) const;
};

} // namespace shallot

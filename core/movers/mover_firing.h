#pragma once
// Movers as the game runs them while a level plays (Play from the level's start,
// `simulate --fired`): each rests where it spawns until something uses it, then makes one
// trip (out, its wait, back) and rests again. Used by an agent touching its field (a door
// group's trigger field, a plat's inside trigger, a button, a key door whose key the level
// holds), or by a trigger, relay, counter or button that fires its targetname. Quake's
// rules (doors.qc, plats.qc, buttons.qc, triggers.qc read as a description):
//  - a door used while opening goes on; waiting open, waits again from the start; closing,
//    opens again. A TOGGLE door goes to the other end and stays until used again;
//  - a plat touched while waiting at the top leaves one second after the touch; a plat
//    someone fires (it has a targetname) waits at the top until then, goes down, and is
//    a plat like the others from there;
//  - a button fires its targets when it is in; a door when it starts to open; a firing
//    waits its entity's "delay";
//  - a train runs its chain for ever once started (from the start when rules say so).
// Positions are offsets from the file position, as MoverState's. docs/movers.md "Play".
#include "movers/firing_rules.h"
#include "movers/mover.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace shallot {

// A plat touched while waiting at its top leaves this long after the touch (plats.qc).
inline constexpr double kPlatTouchHold = 1.0;
// A Quake trigger_teleport with a targetname teleports only this long after it is used
// (triggers.qc: teleport_use sets nexttime).
inline constexpr double kTeleportUseWindow = 0.2;

class MoverFiring {
public:
    struct Counts {
        uint64_t trips = 0;          // trips begun (a door group's members count once each)
        uint64_t triggerFirings = 0; // triggers, relays, counters, buttons and doors that fired targets
    };

    // `movers` and `rules` (of the same level) must outlive it. `startSeconds`: the level's
    // clock when the run begins (trains that start with the level are that far along).
    MoverFiring(const std::vector<Mover>& movers, const FiringRules& rules, double startSeconds = 0.0);

    // Does an agent carrying `key` touch `box`? If so it gives the key up (doors.qc takes
    // it from the player) and the answer is true.
    using KeyHolder = std::function<bool(const Aabb& box, KeyKind key)>;
    // One step at level time `now`: what agents touch (`touching(box)`: does any agent's
    // box overlap `box`?) fires, then every use that is due by `now` is carried out. A key
    // door opens for an agent `holder` says carries its key, or without a holder for any
    // agent (every key the level holds taken as carried). Call before moving the movers
    // for the step.
    void touch(double now, const std::function<bool(const Aabb&)>& touching, const KeyHolder& holder = {});

    // Where mover k is now, and where it would be `dt` seconds on along its trip.
    Vec3 offset(size_t k) const { return offsetAfter(k, 0.0); }
    Vec3 offsetAfter(size_t k, double dt) const;
    // Moves mover k's trip on by `dt` (not called while it is held up by an agent it would
    // push into something: it waits). Fires a button's targets as it arrives.
    void advance(size_t k, double dt, double now);
    // Mover k could not make this step's move (an agent in its way would be pushed into
    // something) and stays where it is. A door whose wait is not -1 (doors.qc: door_blocked)
    // and a plat (plats.qc: plat_crush) turn back the way they came, from where they are:
    // one that was closing opens again, waits its wait and closes; the rest (trains,
    // buttons, secret doors, doors that stay open, one-way trips) try again next step.
    void blocked(size_t k);
    bool running(size_t k) const { return runs_[k].running; }
    // The level time entity `entity` was last used at (-infinity: never): a Quake
    // teleporter with a targetname works for kTeleportUseWindow after it.
    double lastUsed(int entity) const;
    const Counts& counts() const { return counts_; }

private:
    struct Run {
        MoverState rest;          // where it is when not running
        MoverState from;          // where the running trip began
        MoverState restAfter;     // where it rests once the trip is over
        double clock = 0.0;       // seconds into the trip
        double end = 0.0;         // the trip is over at this clock (infinity: never)
        double arrival = 0.0;     // clock at the far end
        bool running = false;
        bool armed = true;        // a named plat: false until first used
    };
    struct TriggerState {
        double readyAt = 0.0;     // a trigger_multiple waits until then
        int left = 1;             // firings before it fires (counters)
        bool spent = false;       // trigger_once, a counter that fired
        bool on = true;           // Quake 2's TRIGGERED triggers: off until used
    };
    struct Use {
        double at;
        int entity;
        bool operator>(const Use& o) const { return at > o.at || (at == o.at && entity > o.entity); }
    };

    void useEntity(int entity, double now);
    void useMover(size_t k, double now, bool touched);
    void fireTrigger(size_t t, double now);
    void fireTargets(int entity, double now);
    void startTrip(size_t k, const MoverState& from, const MoverState& restAfter, bool roundTrip);

    const std::vector<Mover>& movers_;
    const FiringRules& rules_;
    std::vector<Run> runs_;
    std::vector<std::vector<int>> groups_; // by master: the movers of a door group
    std::vector<uint32_t> touchedAt_;      // by master: the step its group was last touched in
    std::vector<TriggerState> triggers_;
    std::vector<Use> pending_;     // a min-heap by time
    std::vector<uint32_t> usedAt_; // per entity: the step it was last used in (a cycle of relays ends there)
    std::vector<double> usedSeconds_; // per entity: the level time of its last use
    uint32_t step_ = 0;
    Counts counts_;
};

} // namespace shallot

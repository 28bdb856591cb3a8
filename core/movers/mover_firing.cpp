// Movers fired by touch and by triggers (mover_firing.h).
#include "movers/mover_firing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shallot {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr int kDoorToggle = 32; // the same bit in Quake, Quake 2 and Half-Life

bool isToggleDoor(const Mover& m) { return m.kind == MoverKind::Door && (m.spawnflags & kDoorToggle) != 0; }

// The end a trip from `from` goes to: the open end from the closed one, and back.
MoverState otherEnd(const MoverState& from) {
    return from.type == MoverState::Type::Open ? MoverState::closed() : MoverState::open();
}

// The wait at the far end of a two-stop trip from `from` (-1: stays there).
double farWait(const Mover& m, const MoverState& from) {
    const std::vector<double>& waits = m.motion.waits;
    if (waits.empty()) return 0.0;
    return from.type == MoverState::Type::Open ? waits.front() : waits.back();
}

} // namespace

MoverFiring::MoverFiring(const std::vector<Mover>& movers, const FiringRules& rules, double startSeconds)
    : movers_(movers), rules_(rules), runs_(movers.size()), groups_(movers.size()), touchedAt_(movers.size(), 0),
      triggers_(rules.triggers.size()), usedAt_(rules.moverOf.size(), 0),
      usedSeconds_(rules.moverOf.size(), -kNever) {
    for (size_t k = 0; k < movers.size(); ++k) {
        const int master = movers[k].master;
        groups_[master >= 0 && size_t(master) < movers.size() ? size_t(master) : k].push_back(int(k));
    }
    for (size_t k = 0; k < movers.size(); ++k) {
        Run& run = runs_[k];
        run.rest = movers[k].spawn;
        // A plat someone fires waits at its top until then (plat_trigger_use).
        run.armed = !(movers[k].kind == MoverKind::Plat && !movers[k].targetname.empty());
        if (k < rules.startsRunning.size() && rules.startsRunning[k]) {
            startTrip(k, run.rest, run.rest, true);
            run.clock = std::max(startSeconds, 0.0);
        }
    }
    for (size_t t = 0; t < triggers_.size(); ++t) {
        triggers_[t].left = rules.triggers[t].count;
        triggers_[t].on = !rules.triggers[t].startsOff;
    }
}

void MoverFiring::startTrip(size_t k, const MoverState& from, const MoverState& restAfter, bool roundTrip) {
    const Mover& m = movers_[k];
    Run& run = runs_[k];
    run.from = from;
    run.restAfter = restAfter;
    run.clock = 0.0;
    run.running = true;
    if (m.kind == MoverKind::Train) {
        run.arrival = run.end = kNever;
    } else {
        run.arrival = m.secondsBetween(from, otherEnd(from));
        run.end = roundTrip ? m.roundTripSeconds(from) : run.arrival;
    }
    ++counts_.trips;
}

Vec3 MoverFiring::offsetAfter(size_t k, double dt) const {
    const Mover& m = movers_[k];
    const Run& run = runs_[k];
    if (!run.running) return m.offsetAt(run.rest);
    const double t = run.clock + dt;
    return t >= run.end ? m.offsetAt(run.restAfter) : m.offsetAtTimeFrom(run.from, t);
}

void MoverFiring::advance(size_t k, double dt, double now) {
    Run& run = runs_[k];
    if (!run.running) return;
    const double before = run.clock;
    run.clock += dt;
    // buttons.qc: the targets fire once the button is in (button_wait).
    if (movers_[k].kind == MoverKind::Button && before < run.arrival && run.clock >= run.arrival)
        fireTargets(movers_[k].entity, now);
    if (run.clock >= run.end) {
        run.running = false;
        run.rest = run.restAfter;
        run.clock = 0.0;
    }
}

void MoverFiring::blocked(size_t k) {
    const Mover& m = movers_[k];
    Run& run = runs_[k];
    if (!run.running || (m.kind != MoverKind::Door && m.kind != MoverKind::Plat) || m.motion.stops.size() != 2) return;
    if (!(run.end > run.arrival) || !std::isfinite(run.end)) return; // one way: a toggle door, the named plat's first trip
    const double wait = farWait(m, run.from);
    if (wait < 0.0) return;
    // Both legs of a two-stop round trip take as long, so the place at `clock` on one leg is
    // the place at end - clock on the other.
    const bool moving = run.clock < run.arrival || run.clock > run.arrival + wait;
    if (moving) run.clock = run.end - run.clock;
}

void MoverFiring::fireTargets(int entity, double now) {
    if (entity < 0 || size_t(entity) >= rules_.firesOf.size() || rules_.firesOf[size_t(entity)].empty()) return;
    ++counts_.triggerFirings;
    const double at = now + rules_.delayOf[size_t(entity)];
    for (const int target : rules_.firesOf[size_t(entity)]) {
        pending_.push_back({at, target});
        std::push_heap(pending_.begin(), pending_.end(), std::greater<>());
    }
}

void MoverFiring::fireTrigger(size_t t, double now) {
    const RunTrigger& rule = rules_.triggers[t];
    TriggerState& state = triggers_[t];
    if (state.spent || now < state.readyAt || !rule.works) return;
    if (--state.left > 0) return; // a counter not there yet
    state.left = rule.count;
    fireTargets(rule.entity, now);
    if (rule.wait < 0.0 || rule.kind == TriggerKind::Counter) state.spent = true;
    else state.readyAt = now + rule.wait;
}

void MoverFiring::useMover(size_t k, double now, bool touched) {
    const Mover& m = movers_[k];
    Run& run = runs_[k];
    switch (m.kind) {
    case MoverKind::Static: return;
    case MoverKind::Train:
        if (!run.running) startTrip(k, run.rest, run.rest, true);
        return;
    case MoverKind::Button:
    case MoverKind::SecretDoor:
        if (run.running) return;
        startTrip(k, run.rest, run.rest, true);
        if (m.kind == MoverKind::SecretDoor) fireTargets(m.entity, now);
        return;
    case MoverKind::Plat:
        if (!run.armed) { // the named plat's one use: down, then a plat like the others
            if (touched || run.running) return;
            run.armed = true;
            startTrip(k, run.rest, otherEnd(run.rest), false);
            return;
        }
        if (!touched) return;
        if (!run.running) {
            startTrip(k, run.rest, run.rest, true);
        } else if (run.clock >= run.arrival) {
            const double wait = farWait(m, run.from);
            if (wait >= 0.0 && run.clock < run.arrival + wait)
                run.clock = std::max(run.arrival, run.arrival + wait - kPlatTouchHold);
        }
        return;
    case MoverKind::Door: break;
    }
    // A door group: every member by its own state (they may move at different speeds).
    const std::vector<int>& group = groups_[m.master >= 0 && size_t(m.master) < movers_.size() ? size_t(m.master) : k];
    for (const int j : group) {
        const Mover& d = movers_[size_t(j)];
        Run& r = runs_[size_t(j)];
        if (!r.running) {
            if (isToggleDoor(d)) startTrip(size_t(j), r.rest, otherEnd(r.rest), false);
            else startTrip(size_t(j), r.rest, r.rest, true);
            fireTargets(d.entity, now);
            continue;
        }
        if (r.clock < r.arrival) continue; // opening: goes on
        const double wait = farWait(d, r.from);
        if (wait < 0.0) continue;                      // stays open
        if (r.clock < r.arrival + wait) r.clock = r.arrival; // waiting: waits again
        else if (d.motion.stops.size() == 2) {          // closing: opens again from where it is
            r.clock = std::max(0.0, 2.0 * r.arrival + wait - r.clock);
            fireTargets(d.entity, now);
        }
    }
}

double MoverFiring::lastUsed(int entity) const {
    if (entity < 0 || size_t(entity) >= usedSeconds_.size()) return -kNever;
    return usedSeconds_[size_t(entity)];
}

void MoverFiring::useEntity(int entity, double now) {
    if (entity < 0 || size_t(entity) >= usedAt_.size()) return;
    // Each entity is used once a step at most: relays firing each other without a delay
    // would otherwise never end.
    if (usedAt_[size_t(entity)] == step_) return;
    usedAt_[size_t(entity)] = step_;
    usedSeconds_[size_t(entity)] = now;
    const int k = rules_.moverOf[size_t(entity)];
    if (k >= 0) {
        useMover(size_t(k), now, false);
        return;
    }
    const int t = rules_.triggerOf[size_t(entity)];
    if (t < 0) return;
    const RunTrigger& rule = rules_.triggers[size_t(t)];
    switch (rule.kind) {
    case TriggerKind::Multiple:
    case TriggerKind::Once:
        if (!triggers_[size_t(t)].on) { // Quake 2's trigger_enable
            triggers_[size_t(t)].on = true;
            return;
        }
        fireTrigger(size_t(t), now);
        return;
    case TriggerKind::Relay:
    case TriggerKind::Counter:
    case TriggerKind::Key: fireTrigger(size_t(t), now); return;
    case TriggerKind::Button:
    case TriggerKind::Other: return; // buttons are movers; monsters and items do not fire when used
    }
}

void MoverFiring::touch(double now, const std::function<bool(const Aabb&)>& touching, const KeyHolder& holder) {
    ++step_;
    for (size_t k = 0; k < movers_.size(); ++k) {
        const Mover& m = movers_[k];
        const Aabb field = touchFieldOf(m);
        if (!field.empty() && touching(field)) {
            // A door group is touched once a step, whichever member's field it was.
            const bool grouped = m.kind == MoverKind::Door && m.master >= 0 && size_t(m.master) < movers_.size();
            const size_t key = grouped ? size_t(m.master) : k;
            if (touchedAt_[key] == step_) continue;
            touchedAt_[key] = step_;
            useMover(k, now, true);
        } else if (k < rules_.keyOpens.size() && rules_.keyOpens[k] && !runs_[k].running) {
            const Aabb near = grownByTouchReach(m.boundsAt(runs_[k].rest));
            if (!near.empty() && (holder ? holder(near, m.key) : touching(near))) useMover(k, now, true);
        }
    }
    for (size_t t = 0; t < triggers_.size(); ++t) {
        const RunTrigger& rule = rules_.triggers[t];
        const TriggerState& state = triggers_[t];
        if (rule.bounds.empty() || state.spent || !state.on || now < state.readyAt) continue;
        if (touching(rule.bounds)) fireTrigger(t, now);
    }
    while (!pending_.empty() && pending_.front().at <= now) {
        std::pop_heap(pending_.begin(), pending_.end(), std::greater<>());
        const Use use = pending_.back();
        pending_.pop_back();
        useEntity(use.entity, now);
    }
}

} // namespace shallot

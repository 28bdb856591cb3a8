// The firing rules of a level (firing_rules.h): which triggers are touched, how long they
// wait before firing again, and each entity's delay.
#include "movers/firing_rules.h"

#include "movers/mover_keys.h"

#include <algorithm>
#include <cmath>

namespace shallot {
namespace {

// Spawnflags that take a trigger out of reach of a walking player, per game: Quake's
// trigger_multiple/once NOTOUCH; Quake 2's NOT_PLAYER; Half-Life's "No Clients".
constexpr int kQuakeNoTouch = 1;
constexpr int kQuake2NotPlayer = 2;
constexpr int kQuake2Triggered = 4; // starts off until used
constexpr int kHalfLifeNoClients = 2;
constexpr int kQuake2TrainStartOn = 1;

bool touchedByPlayers(Game game, int spawnflags) {
    switch (game) {
    case Game::Quake: return (spawnflags & kQuakeNoTouch) == 0;
    case Game::Quake2:
    case Game::Quake3: return (spawnflags & kQuake2NotPlayer) == 0;
    case Game::HalfLife: return (spawnflags & kHalfLifeNoClients) == 0;
    }
    return true;
}

RunTrigger runTrigger(const EntityTrigger& t, const MapEntity& entity, Game game, const EntityGraph& graph) {
    std::vector<MoverNote> ignored; // the mover build reports bad keys; here the default stands
    RunTrigger r;
    r.entity = t.entity;
    r.kind = t.kind;
    r.fires = t.fires;
    const int flags = spawnflagsOf(entity, t.entity, ignored);
    const bool touchable = t.kind == TriggerKind::Multiple || t.kind == TriggerKind::Once;
    // A trigger with health is shot, not touched (multi_touch is not set for it).
    if (touchable && healthOf(entity, t.entity, ignored) <= 0 && touchedByPlayers(game, flags)) r.bounds = t.bounds;
    r.startsOff = touchable && (game == Game::Quake2 || game == Game::Quake3) && (flags & kQuake2Triggered) != 0;
    if (t.kind == TriggerKind::Multiple) {
        const std::optional<double> wait = numberKey(entity, t.entity, "wait", ignored);
        r.wait = wait && *wait != 0.0 ? *wait : kTriggerMultipleWait;
    }
    if (t.kind == TriggerKind::Counter) {
        const std::optional<double> count = numberKey(entity, t.entity, "count", ignored);
        r.count = count && *count >= 1.0 && *count < 1e6 ? int(*count) : kTriggerCounterDefault;
    }
    if (t.kind == TriggerKind::Key) r.works = graph.givesItem(t.item);
    // Half-Life's multi_manager fires its targets when used, as a relay does (their own
    // per-target delays are not read).
    if (t.kind == TriggerKind::Other && t.classname == "multi_manager") r.kind = TriggerKind::Relay;
    return r;
}

} // namespace

FiringRules buildFiringRules(const MapFile& map, const std::vector<Mover>& movers, const EntityGraph& graph) {
    const size_t n = map.entities.size();
    FiringRules rules;
    rules.moverOf.assign(n, -1);
    rules.triggerOf.assign(n, -1);
    rules.delayOf.assign(n, 0.0);
    rules.firesOf = graph.firesOf;
    rules.firesOf.resize(n);
    for (size_t k = 0; k < movers.size(); ++k)
        if (movers[k].entity >= 0 && size_t(movers[k].entity) < n) rules.moverOf[size_t(movers[k].entity)] = int(k);
    for (const EntityTrigger& t : graph.triggers) {
        if (t.entity < 0 || size_t(t.entity) >= n) continue;
        rules.triggerOf[size_t(t.entity)] = int(rules.triggers.size());
        rules.triggers.push_back(runTrigger(t, map.entities[size_t(t.entity)], map.game, graph));
    }
    // "delay" only where the entity fires something: a light's "delay" is its falloff.
    std::vector<MoverNote> ignored;
    for (size_t e = 0; e < n; ++e) {
        if (rules.firesOf[e].empty()) continue;
        const std::optional<double> delay = numberKey(map.entities[e], int(e), "delay", ignored);
        if (delay && *delay > 0.0 && std::isfinite(*delay)) rules.delayOf[e] = *delay;
    }
    rules.keyOpens.assign(movers.size(), false);
    for (size_t k = 0; k < movers.size(); ++k)
        rules.keyOpens[k] = movers[k].key != KeyKind::None && graph.givesKey(movers[k].key);
    rules.startsRunning.assign(movers.size(), false);
    const bool quake2 = map.game == Game::Quake2 || map.game == Game::Quake3;
    for (size_t k = 0; k < movers.size(); ++k)
        rules.startsRunning[k] = movers[k].kind == MoverKind::Train &&
                                 (movers[k].targetname.empty() || (quake2 && (movers[k].spawnflags & kQuake2TrainStartOn) != 0));
    rules.teleports = graph.teleports;
    for (const KeyItem& k : graph.keys)
        if (k.kind != KeyKind::None) rules.keys.push_back(k);
    return rules;
}

std::vector<Aabb> workingPlaces(const std::vector<Mover>& movers, const FiringRules& rules) {
    std::vector<Aabb> places;
    for (const RunTrigger& t : rules.triggers)
        if (!t.bounds.empty() && t.works) places.push_back(t.bounds);
    for (size_t k = 0; k < movers.size(); ++k) {
        const Mover& m = movers[k];
        if (const Aabb field = touchFieldOf(m); !field.empty()) {
            places.push_back(field);
        } else if (k < rules.keyOpens.size() && rules.keyOpens[k]) {
            if (const Aabb keyDoor = grownByTouchReach(m.boundsAt(m.spawn)); !keyDoor.empty()) places.push_back(keyDoor);
        }
    }
    for (const Teleport& t : rules.teleports)
        if (!t.bounds.empty() && t.destination >= 0) places.push_back(t.bounds);
    return places;
}

} // namespace shallot

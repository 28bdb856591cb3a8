// never_opens: door groups, secret doors, plats and trains that nothing opens or starts.
#include "check/mover_check_parts.h"

#include <algorithm>

namespace shallot {
namespace {

// The secret door flag that lets it be shot open even with a targetname: Quake's
// SECRET_YES_SHOOT, Quake 2's SECRET_ALWAYS_SHOOT.
int secretShootFlag(Game game) { return game == Game::Quake ? 16 : 1; }

const char* keyItemName(KeyKind key) { return key == KeyKind::Gold ? "item_key2" : "item_key1"; }

// Who fires each entity: for every entity, the entities whose firing targets name it.
// A Quake 2 trigger_key whose item the level never gives fires nothing.
std::vector<std::vector<int>> firersOf(const MoverCheckInput& input) {
    const EntityGraph& graph = *input.graph;
    std::vector<bool> silent(input.map->entities.size(), false);
    for (const EntityTrigger& t : graph.triggers)
        if (t.kind == TriggerKind::Key && !graph.givesItem(t.item)) silent[size_t(t.entity)] = true;
    std::vector<std::vector<int>> firers(input.map->entities.size());
    for (const EntityTarget& t : graph.targets) {
        if (!t.fires || silent[size_t(t.entity)]) continue;
        for (const int e : t.named) firers[size_t(e)].push_back(t.entity);
    }
    return firers;
}

struct Firing {
    bool byOthers = false; // an entity outside the group fires one of its names
    bool bySelf = false;   // only the group's own targets name it
};

Firing firingOf(const std::vector<int>& entities, const std::vector<std::vector<int>>& firers) {
    Firing f;
    for (const int e : entities)
        for (const int by : firers[size_t(e)]) {
            if (std::find(entities.begin(), entities.end(), by) == entities.end()) f.byOthers = true;
            else f.bySelf = true;
        }
    return f;
}

std::string namesText(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "\"" : ", \"") + n + "\"";
    return text;
}

std::string selfNote(const Firing& f) {
    return f.bySelf ? " (only its own target names it, and a mover does not open itself)" : "";
}

void checkDoorGroup(const MoverCheckInput& input, const std::vector<int>& group,
                    const std::vector<std::vector<int>>& firers, std::vector<SpawnProblem>& out) {
    const LevelMovers& level = *input.movers;
    std::vector<int> entities;
    std::vector<std::string> names;
    bool health = false;
    KeyKind key = KeyKind::None;
    for (const int i : group) {
        const Mover& m = level.movers[size_t(i)];
        entities.push_back(m.entity);
        if (!m.targetname.empty() && std::find(names.begin(), names.end(), m.targetname) == names.end())
            names.push_back(m.targetname);
        health = health || m.health > 0;
        if (m.key == KeyKind::Gold || (m.key == KeyKind::Silver && key == KeyKind::None)) key = m.key;
    }
    // Touched open: a door (group) with no name, no health and no key gets a trigger
    // field (not a Quake DONT_LINK door: buildMovers's touchBounds).
    const bool touched = !level.movers[size_t(group.front())].touchBounds.empty();
    const bool keyGiven = key != KeyKind::None && input.graph->givesKey(key);
    const Firing firing = firingOf(entities, firers);
    if (touched || health || keyGiven || firing.byOthers) return;
    const Mover& master = level.movers[size_t(group.front())];
    SpawnProblem p = moverProblem(SpawnProblemKind::NeverOpens, master);
    p.entities.assign(entities.begin() + 1, entities.end());
    const std::string linked = group.size() > 1 ? " (with " + std::to_string(group.size() - 1) + " linked doors)" : "";
    if (key != KeyKind::None) {
        p.message = describeMover(master) + linked + " never opens: it waits for the " + keyKindName(key) + " key (" +
                    keyItemName(key) + "), which the level never gives" +
                    (names.empty() ? "" : ", and nothing fires its targetname " + namesText(names));
    } else if (names.empty()) {
        p.message = describeMover(master) + " never opens: Quake gives a DONT_LINK door no trigger field, and it has "
                                            "no targetname, no health to be shot open and no key";
    } else {
        p.message = describeMover(master) + linked + " never opens: nothing fires its targetname " + namesText(names) +
                    " and it has no health to be shot open" + selfNote(firing);
    }
    out.push_back(std::move(p));
}

void checkNamedMover(const Mover& m, const std::vector<std::vector<int>>& firers, const std::string& what,
                     std::vector<SpawnProblem>& out) {
    const Firing firing = firingOf({m.entity}, firers);
    if (firing.byOthers) return;
    SpawnProblem p = moverProblem(SpawnProblemKind::NeverOpens, m);
    p.message = describeMover(m) + " " + what + ": nothing fires its targetname \"" + m.targetname + "\"" + selfNote(firing);
    out.push_back(std::move(p));
}

} // namespace

void findNeverOpens(const MoverCheckInput& input, std::vector<SpawnProblem>& out) {
    const LevelMovers& level = *input.movers;
    const std::vector<std::vector<int>> firers = firersOf(input);
    // Door groups, each once (from its master), members in file order.
    std::vector<std::vector<int>> groups(level.movers.size());
    for (size_t i = 0; i < level.movers.size(); ++i)
        if (level.movers[i].kind == MoverKind::Door) groups[size_t(level.movers[i].master)].push_back(int(i));
    for (const std::vector<int>& group : groups)
        if (!group.empty()) checkDoorGroup(input, group, firers, out);
    for (const Mover& m : level.movers) {
        if (m.targetname.empty()) continue;
        switch (m.kind) {
        case MoverKind::SecretDoor:
            // Shot open unless it has a name and no flag to be shot anyway.
            if ((m.spawnflags & secretShootFlag(input.map->game)) == 0)
                checkNamedMover(m, firers, "never opens (it is shot open only without a targetname)", out);
            break;
        case MoverKind::Plat: checkNamedMover(m, firers, "never comes down from its top", out); break;
        case MoverKind::Train: checkNamedMover(m, firers, "never starts", out); break;
        case MoverKind::Door:   // by group, above
        case MoverKind::Button: // always pressed by touch (or shot with health)
        case MoverKind::Static: break;
        }
    }
}

} // namespace shallot

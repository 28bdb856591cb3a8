#include "check/mover_checks.h"

#include "check/mover_check_parts.h"
#include "movers/brush_bounds.h"
#include "movers/build_movers.h"

#include <algorithm>

namespace shallot {
namespace {

// Quake's Chthon (boss.qc) finds the two doors it opens by their `target` "lightning"
// itself, not by a targetname: such a door names no entity, rightly.
bool markerTarget(Game game, const MapEntity& entity, const EntityTarget& t) {
    if (game != Game::Quake || t.key != "target" || t.name != "lightning") return false;
    std::string cls = entity.classname();
    for (char& c : cls)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return cls == "func_door";
}

// missing_target: one problem per entity and key whose value names no entity.
void findMissingTargets(const MoverCheckInput& input, std::vector<SpawnProblem>& out) {
    for (const EntityTarget& t : input.graph->targets) {
        if (!t.named.empty()) continue;
        const MapEntity& entity = input.map->entities[size_t(t.entity)];
        if (markerTarget(input.map->game, entity, t)) continue;
        SpawnProblem p;
        p.kind = SpawnProblemKind::MissingTarget;
        p.entity = t.entity;
        p.classname = entity.classname();
        const Aabb bounds = brushesBounds(entity.brushes);
        p.origin = entity.origin().value_or(bounds.empty() ? Vec3::Zero() : Vec3((bounds.mins + bounds.maxs) * 0.5));
        p.box = bounds;
        p.targetKey = t.key;
        p.targetName = t.name;
        p.message = describeSpawnEntity(p.classname, t.entity, entity.line) + " key \"" + t.key + "\" names \"" +
                    t.name + "\", which no entity has as its targetname";
        out.push_back(std::move(p));
    }
}

// bad_mover: what building the movers noted.
void findBadMovers(const MoverCheckInput& input, std::vector<SpawnProblem>& out) {
    for (const MoverNote& note : input.movers->notes) {
        SpawnProblem p;
        p.kind = SpawnProblemKind::BadMover;
        p.entity = note.entity;
        if (note.entity >= 0 && size_t(note.entity) < input.map->entities.size()) {
            const MapEntity& entity = input.map->entities[size_t(note.entity)];
            p.classname = entity.classname();
            if (const Mover* mover = input.movers->forEntity(note.entity); mover && !mover->bounds.empty()) {
                p.origin = (mover->bounds.mins + mover->bounds.maxs) * 0.5;
                p.box = mover->bounds;
            } else {
                p.origin = entity.origin().value_or(Vec3::Zero());
            }
        }
        p.message = note.message;
        out.push_back(std::move(p));
    }
}

} // namespace

std::string describeMover(const Mover& mover) { return describeSpawnEntity(mover.classname, mover.entity, mover.line); }

SpawnProblem moverProblem(SpawnProblemKind kind, const Mover& mover) {
    SpawnProblem p;
    p.kind = kind;
    p.entity = mover.entity;
    p.classname = mover.classname;
    if (!mover.bounds.empty()) p.origin = (mover.bounds.mins + mover.bounds.maxs) * 0.5;
    p.box = mover.bounds;
    return p;
}

void mergeProblems(std::vector<SpawnProblem>& problems, std::vector<SpawnProblem> more) {
    problems.insert(problems.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    std::stable_sort(problems.begin(), problems.end(), [](const SpawnProblem& a, const SpawnProblem& b) {
        return a.entity != b.entity ? a.entity < b.entity : a.kind < b.kind;
    });
}

std::vector<SpawnProblem> checkMovers(const MoverCheckInput& input) {
    std::vector<SpawnProblem> problems;
    if (!input.map || !input.movers || !input.graph) return problems;
    const EntityClassTable quake = input.classes ? EntityClassTable() : EntityClassTable::quake();
    const EntityClassTable& classes = input.classes ? *input.classes : quake;
    findNeverOpens(input, problems);
    findMissingTargets(input, problems);
    findBlocked(input, classes, problems);
    findBadMovers(input, problems);
    mergeProblems(problems, {});
    return problems;
}

std::vector<SpawnProblem> checkMovers(const MapFile& map, const EntityClassTable* classes) {
    const LevelMovers movers = buildMovers(map);
    const EntityGraph graph = buildEntityGraph(map);
    return checkMovers({&map, &movers, &graph, classes});
}

MapFile mapOfDocumentEntities(const std::vector<MapEntity>& entities, Game game,
                              const std::vector<std::pair<std::string, std::string>>& worldKeys) {
    MapFile map;
    map.game = game;
    map.entities.reserve(entities.size() + 1);
    MapEntity worldspawn{worldKeys, {}};
    if (!worldspawn.value("classname")) worldspawn.keys.insert(worldspawn.keys.begin(), {"classname", "worldspawn"});
    map.entities.push_back(std::move(worldspawn));
    map.entities.insert(map.entities.end(), entities.begin(), entities.end());
    return map;
}

} // namespace shallot

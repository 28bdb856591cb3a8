#include "level_objects_source.h"

#include "game_option.h"

#include "io/map_reader.h"
#include "movers/build_movers.h"
#include "movers/entity_graph.h"

#include <array>

namespace shallot::cli {

std::shared_ptr<const LevelObjects> loadLevelObjects(const std::string& path, const TreeAndWorld& input, int threads) {
    if (input.movers) return std::shared_ptr<const LevelObjects>(input.movers, &input.movers->level);
    if (hasExtension(path, ".obsp") || hasExtension(path, ".shallot")) return nullptr;
    const MapReadResult read = readMapFile(path, mapGameOption());
    if (!read.ok()) return nullptr;
    const World* world = input.world ? &*input.world : nullptr;
    return std::make_shared<const LevelObjects>(buildLevelObjects(
        buildMovers(*read.map), input.tree.poses, world ? world->bounds : defaultWorldBounds(), threads));
}

FiringRules loadFiringRules(const TreeAndWorld& input, const LevelMovers& movers) {
    MapFile map;
    if (input.movers) {
        map = input.movers->entities;
    } else {
        map.entities = input.entities;
        map.game = input.game;
    }
    return buildFiringRules(map, movers.movers, buildEntityGraph(map));
}

std::shared_ptr<const TravelLevel> loadTravelLevel(const TreeAndWorld& input) {
    if (input.movers) return std::make_shared<const TravelLevel>(storedTravelLevel(input.movers->entities));
    if (!input.world || input.entities.empty()) return nullptr;
    MapFile map;
    map.entities = input.entities;
    map.game = input.game;
    TravelLevel level = travelLevelOf(map);
    addLiquidsAndLadders(level, *input.world);
    return std::make_shared<const TravelLevel>(std::move(level));
}

std::optional<ObspMovers> moversToStore(const std::string& input, const std::vector<MapEntity>& entities, Game game,
                                        const std::vector<Pose>& treePoses, const Aabb& bounds, int threads) {
    if (hasExtension(input, ".shallot")) return std::nullopt;
    MapFile map;
    map.file = input;
    map.entities = entities;
    map.game = game;
    return obspMoversOf(map, treePoses, bounds, threads);
}

std::string describeMovers(const LevelMovers& movers) {
    constexpr std::array kinds{MoverKind::Door, MoverKind::SecretDoor, MoverKind::Plat,
                               MoverKind::Train, MoverKind::Button, MoverKind::Static};
    std::string out;
    for (const MoverKind kind : kinds) {
        int count = 0;
        for (const Mover& m : movers.movers) count += m.kind == kind;
        if (count == 0) continue;
        if (!out.empty()) out += ", ";
        out += std::to_string(count) + " " + moverKindName(kind);
    }
    return out.empty() ? "none" : out;
}

} // namespace shallot::cli

#include "level_objects_source.h"

#include "game_option.h"
#include "tree_source.h"

#include "io/map_reader.h"
#include "movers/build_movers.h"

#include <array>

namespace shallot::cli {

std::optional<LevelObjects> loadLevelObjects(const std::string& path, const BspTree& tree, const World* world,
                                             int threads) {
    if (hasExtension(path, ".obsp") || hasExtension(path, ".shallot")) return std::nullopt;
    const MapReadResult read = readMapFile(path, mapGameOption());
    if (!read.ok()) return std::nullopt;
    return buildLevelObjects(buildMovers(*read.map), tree.poses, world ? world->bounds : defaultWorldBounds(), threads);
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

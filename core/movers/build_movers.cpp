#include "movers/build_movers.h"

#include "io/game_contents.h"
#include "movers/brush_bounds.h"
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

namespace shallot {
namespace {

std::string valueOr(const MapEntity& entity, std::string_view key) {
    const std::string* v = entity.value(key);
    return v ? *v : std::string();
}

bool nonSolidEntity(Game game, const std::string& classname) {
    std::string cls = classname;
    for (char& c : cls)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    // Every game's func_illusionary is drawn but never collides (Quake's is SOLID_NOT too).
    return cls == "func_illusionary" || illusionaryEntity(game, cls);
}

} // namespace

LevelMovers buildMovers(const MapFile& map) {
    LevelMovers level;
    const TargetnameIndex names = indexTargetnames(map);
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& entity = map.entities[i];
        if (entity.brushes.empty()) continue;
        const std::string classname = entity.classname();
        const std::optional<MoverKind> kind = moverKindOf(map.game, classname);
        if (!kind) continue;
        Mover mover;
        mover.entity = int(i);
        mover.line = entity.line;
        mover.kind = *kind;
        mover.classname = classname;
        mover.brushes = entity.brushes;
        const bool nonSolid = nonSolidEntity(map.game, classname);
        for (Brush& brush : mover.brushes)
            if (nonSolid || isOriginBrush(brush)) brush.contents = BrushContents::NonSolid;
        mover.bounds = brushesBounds(mover.brushes);
        if (mover.bounds.empty())
            level.notes.push_back({mover.entity, entity.line,
                                   classname + " (entity " + std::to_string(i) + ", line " + std::to_string(entity.line) +
                                       ") has no valid brush: it does not move"});
        mover.spawnflags = spawnflagsOf(entity, mover.entity, level.notes);
        mover.targetname = valueOr(entity, "targetname");
        mover.target = valueOr(entity, "target");
        switch (*kind) {
        case MoverKind::Door: setDoorMotion(mover, entity, map.game, level.notes); break;
        case MoverKind::SecretDoor: setSecretDoorMotion(mover, entity, map.game, level.notes); break;
        case MoverKind::Plat: setPlatMotion(mover, entity, map.game, level.notes); break;
        case MoverKind::Train: setTrainMotion(mover, map, names, level.notes); break;
        case MoverKind::Button: setButtonMotion(mover, entity, map.game, level.notes); break;
        case MoverKind::Static: break;
        }
        level.movers.push_back(std::move(mover));
    }
    linkDoors(level, map);
    setTouchBounds(level, map);
    return level;
}

} // namespace shallot

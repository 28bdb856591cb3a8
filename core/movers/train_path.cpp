// A train's motion: the path_corner chain from its `target`, each corner a stop.
#include "movers/brush_bounds.h"
#include "movers/mover_keys.h"
#include "movers/mover_motion.h"

#include <unordered_map>

namespace shallot {
namespace {

// The first entity (in file order, as the games' find() from the world) named `name`.
int firstNamed(const TargetnameIndex& names, const std::string& name) {
    if (name.empty()) return -1;
    const auto it = names.find(name);
    return it == names.end() || it->second.empty() ? -1 : it->second.front();
}

// The point of the train that sits on a corner, relative to its file position: Quake's
// and Quake 2's trains put their mins there, Half-Life's its centre, Quake 3's its origin
// (its "origin" key, the origin brush's centre, else the world's origin).
Vec3 anchorOf(const Mover& mover, const MapEntity& entity, Game game) {
    if (mover.bounds.empty()) return Vec3::Zero();
    switch (game) {
    case Game::Quake:
    case Game::Quake2: return mover.bounds.mins;
    case Game::HalfLife: return (mover.bounds.mins + mover.bounds.maxs) * 0.5;
    case Game::Quake3:
        if (const std::optional<Vec3> origin = entity.origin()) return *origin;
        return originBrushCentre(mover.brushes).value_or(Vec3::Zero());
    }
    return mover.bounds.mins;
}

std::string describe(const MapEntity& entity, int index) {
    return entity.classname() + " (entity " + std::to_string(index) + ", line " + std::to_string(entity.line) + ")";
}

} // namespace

TargetnameIndex indexTargetnames(const MapFile& map) {
    TargetnameIndex names;
    for (size_t i = 0; i < map.entities.size(); ++i)
        if (const std::string* name = map.entities[i].value("targetname"); name && !name->empty())
            names[*name].push_back(int(i));
    return names;
}

void setTrainMotion(Mover& mover, const MapFile& map, const TargetnameIndex& names, std::vector<MoverNote>& notes) {
    const MapEntity& entity = map.entities[size_t(mover.entity)];
    mover.speed = numberOr(entity, mover.entity, "speed", 100.0, notes); // every game's default
    // The train's own wait is not used between corners (each corner's is); kept as read.
    mover.wait = numberKey(entity, mover.entity, "wait", notes).value_or(0.0);
    mover.motion.stops = {Vec3::Zero()};
    mover.motion.waits = {0.0};
    mover.motion.loopsTo = -1;
    mover.spawn = MoverState::atCorner(0);
    if (mover.target.empty()) {
        notes.push_back({mover.entity, entity.line,
                         describe(entity, mover.entity) + " has no target: it has no path (Quake stops with "
                                                          "\"func_train without a target\")"});
        return;
    }
    const Vec3 anchor = anchorOf(mover, entity, map.game);
    // Each corner once: a chain that comes back to a corner loops there (a cycle is how a
    // train runs for ever), so the walk ends after at most one visit per entity.
    std::unordered_map<int, int> stopOfCorner;
    std::vector<Vec3> stops;
    std::vector<double> waits;
    int corner = firstNamed(names, mover.target);
    while (corner >= 0) {
        if (const auto seen = stopOfCorner.find(corner); seen != stopOfCorner.end()) {
            mover.motion.loopsTo = seen->second;
            break;
        }
        const MapEntity& cornerEntity = map.entities[size_t(corner)];
        const std::optional<Vec3> origin = cornerEntity.origin();
        if (!origin) {
            notes.push_back({corner, cornerEntity.line,
                             describe(cornerEntity, corner) + " on the path of " + describe(entity, mover.entity) +
                                 " has no valid origin: the path ends before it"});
            break;
        }
        stopOfCorner[corner] = int(stops.size());
        stops.push_back(*origin - anchor);
        waits.push_back(numberKey(cornerEntity, corner, "wait", notes).value_or(0.0));
        const std::string* next = cornerEntity.value("target");
        if (!next || next->empty()) {
            notes.push_back({corner, cornerEntity.line,
                             describe(cornerEntity, corner) + " on the path of " + describe(entity, mover.entity) +
                                 " has no target: the train stops there (Quake: \"train_next: no next target\")"});
            break;
        }
        corner = firstNamed(names, *next);
    }
    if (stops.empty()) return; // its target names nothing usable: missing_target says so
    mover.motion.stops = std::move(stops);
    mover.motion.waits = std::move(waits);
}

} // namespace shallot

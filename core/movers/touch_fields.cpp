// Where touching a door or button opens it: the games' trigger fields (a plat's inside
// trigger is set with its motion, plat_motion.cpp).
#include "movers/mover_motion.h"

namespace shallot {
namespace {

constexpr int kQuakeDontLink = 4;    // DOOR_DONT_LINK: LinkDoors returns before the field
// Quake's door field reaches this far past the group's box across, and up and down
// (spawn_field); Quake 2's only across (Think_SpawnDoorTrigger).
constexpr double kDoorFieldAcross = 60.0, kQuakeDoorFieldUpDown = 8.0;

Aabb grown(const Aabb& box, const Vec3& by) { return box.empty() ? box : Aabb{box.mins - by, box.maxs + by}; }

// Door groups by master: the trigger field when none of them is named, shootable or keyed.
void doorFields(LevelMovers& level, Game game) {
    std::vector<std::vector<size_t>> groups(level.movers.size());
    for (size_t i = 0; i < level.movers.size(); ++i)
        if (level.movers[i].kind == MoverKind::Door) groups[size_t(level.movers[i].master)].push_back(i);
    for (const std::vector<size_t>& group : groups) {
        if (group.empty()) continue;
        Aabb box;
        bool field = true;
        for (const size_t i : group) {
            const Mover& m = level.movers[i];
            box.add(m.bounds);
            // Half-Life's doors are touched themselves, unless named.
            if (game == Game::HalfLife) field = field && m.targetname.empty();
            else field = field && m.targetname.empty() && m.health <= 0 && m.key == KeyKind::None;
            if (game == Game::Quake && (m.spawnflags & kQuakeDontLink) != 0) field = false;
        }
        if (!field || box.empty()) continue;
        const Aabb touch = game == Game::HalfLife ? box
                           : game == Game::Quake
                               ? grown(box, Vec3(kDoorFieldAcross, kDoorFieldAcross, kQuakeDoorFieldUpDown))
                               : grown(box, Vec3(kDoorFieldAcross, kDoorFieldAcross, 0.0));
        for (const size_t i : group) level.movers[i].touchBounds = game == Game::HalfLife ? level.movers[i].bounds : touch;
    }
}

} // namespace

void setTouchBounds(LevelMovers& level, const MapFile& map) {
    doorFields(level, map.game);
    for (Mover& m : level.movers) {
        if (m.kind == MoverKind::Button && m.health <= 0) m.touchBounds = m.bounds;
    }
}

} // namespace shallot

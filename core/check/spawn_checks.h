#pragma once
// Spawn checks: the mistakes Quake reports only in its console ("walkmonster in wall at",
// "Bonus item fell out of level at"), found per entity from the compiled onion tree (for
// boxes a pose carries) and the brushes (for any other box). Rules: docs/spawn-checks.md.
#include "check/walking_reach.h"
#include "compile/bsp_tree.h"
#include "io/map_file.h"
#include "world/entity_class.h"
#include "world/world.h"

#include <functional>
#include <string>
#include <vector>

namespace shallot {

// An overlap shallower than this is contact, not "in" a brush. Quake's own point test puts
// a point lying on a plane on its empty side, so a player start standing on a floor (its
// box touching it) is fine; rounding of the expanded planes is below 1e-4. Two entities'
// boxes overlap when they share more than this on every axis (touching boxes are fine).
inline constexpr double kSpawnContactTolerance = 0.01;
// Quake raises a walking or flying monster this far before it drops it and tests its place.
inline constexpr double kMonsterRaise = 1.0;
// Quake raises an item this far, then drops it at most kItemDropDistance.
inline constexpr double kItemRaise = 6.0;
inline constexpr double kItemDropDistance = 256.0;

// An entity of the level as the checks see it. `index` numbers entities as in the file
// (worldspawn 0). Entities without a usable "origin" have hasOrigin = false.
struct SpawnEntity {
    int index = -1;
    std::string classname;
    Vec3 origin = Vec3::Zero();
    bool hasOrigin = false;
    std::string originText;  // the "origin" value as written ("" when the key is missing)
    bool hasBrushes = false; // a brush entity: not checked
    int line = 0;            // of its opening brace in the file, 0 when not from a file
    // "spawnflags": 256 / 512 / 1024 not in easy / normal / hard, 2048 not in deathmatch
    // (the engine removes such entities); 1 on monster_zombie: crucified (never moves).
    int spawnflags = 0;
    // A trigger_teleport's or trigger_push's brushes' box (monsters in a closet a teleporter
    // empties are not unreachable; a push carries the player); empty for every other entity.
    Aabb brushBounds;
    // A trigger_push's velocity (quakePushVelocity); zero for every other entity.
    Vec3 pushVelocity = Vec3::Zero();
};

// Unreachable: no flight through the pose's portals reaches a player start;
// UnreachableWalking: a walking monster that could fly there, but it and the player never
// meet on foot (check/walking_reach.h). The mover checks (check/mover_checks.h) add
// NeverOpens, MissingTarget, Blocked and BadMover.
enum class SpawnProblemKind {
    Stuck, FellOut, Leak, Unreachable, BadOrigin, UnreachableWalking,
    NeverOpens, MissingTarget, Blocked, BadMover
};
// "stuck", "fell_out", "leak", "unreachable", "bad_origin", "unreachable_walking",
// "never_opens", "missing_target", "blocked", "bad_mover"
const char* spawnProblemName(SpawnProblemKind kind);

struct SpawnProblem {
    SpawnProblemKind kind = SpawnProblemKind::Stuck;
    int entity = -1;            // SpawnEntity::index
    std::string classname;
    Vec3 origin = Vec3::Zero();
    int pose = -1;              // index into World::poses, -1 when checked with the box alone
    Aabb box;                   // the box tested, in world coordinates
    std::vector<int> brushes;   // World::brushes indices the box is in (stuck, fell_out in solid)
    std::vector<int> entities;  // other entities' indices whose boxes it overlaps (stuck)
    std::vector<Vec3> path;     // leak: start, portal centres..., a point on the world box
    // leak: where the path leaves the level: the opening's portals (leakHole, with the point
    // entities as the level's inside) grown by the pose's box, so that it spans the opening
    // in the brushes the box passes through; empty when none was found.
    Aabb hole;
    // missing_target: the key ("target", "killtarget"...) and the name nothing has.
    std::string targetKey, targetName;
    std::string message;        // one line for people: what is wrong and where
};

struct SpawnCheckInput {
    const World* world = nullptr;            // brushes and poses (required)
    const BspTree* onion = nullptr;          // compiled from *world; null: brushes only
    const EntityClassTable* classes = nullptr;
    std::vector<SpawnEntity> entities;
    // Also walk each walking monster to the player starts over its pose's navigation mesh
    // (check/walking_reach.h): the UnreachableWalking problem. The meshes come from
    // `navMeshes` when given (the onion's, by each pose's rules), else are built here.
    bool walking = true;
    NavMeshSource navMeshes = {};
    // The level's movers and triggers (kept by reference): the player's walk then opens
    // doors, rides plats and trains, takes teleporters (movers/travel.h), and swims and
    // climbs ladders as travel's links do (give the world's liquids and ladders with it:
    // addLiquidsAndLadders); without, the compiled world's holes where the doors are are
    // walked through, nothing is ridden and the player swims by PlayerMotion::water.
    const TravelLevel* travel = nullptr;
    bool travelInOrder = false; // PlayerMotion::travelInOrder
    // When the walking check is about to run: called with every other problem (ordered as
    // the result is), to show them before the meshes are built; false skips the walking
    // check (the result is then those problems).
    std::function<bool(const std::vector<SpawnProblem>&)> beforeWalking = {};
};

// Every problem, ordered by entity index then kind. Thread-safe; reads its input only.
// Without input.classes, Quake's classes (EntityClassTable::quake()) are used.
std::vector<SpawnProblem> checkSpawns(const SpawnCheckInput& input);

// The entities of a .map (firstIndex 0: entities[0] is worldspawn, index 0) or of a
// document (DocumentData::entities, whose entities[i] is entity i + 1: firstIndex 1).
std::vector<SpawnEntity> spawnEntities(const std::vector<MapEntity>& entities, int firstIndex);

// The pose that carries a hull box: the first of `poses` whose box has exactly the hull
// box's size (for hull 0 the point pose); -1 when none has. The pose's reference point for
// the box is box.mins - pose.mins.
int poseForHullBox(const std::vector<Pose>& poses, const Aabb& hullBox);

// How an entity is named in messages: "monster_ogre (entity 12, line 345)".
std::string describeSpawnEntity(const std::string& classname, int index, int line);

} // namespace shallot

#pragma once
// Typed travel over a pose's navigation mesh (issue 40, item 4): the mesh's own links
// (walk, step, drop, jump) plus links through the level's movers and triggers, each with
// its rule and its time at Quake's speeds. Rules and limits: docs/movers.md, "Travel".
//
// The compiled world leaves brush entities out, so a door's opening is a hole in the
// static world; a closed door is put back as a gate: the mesh links inside its closed
// volume (configuration space) are usable only once it is opened. Plats, trains and
// doors that make a floor are links between the floors beside their top at their stops.
#include "check/trigger_push.h"
#include "compile/bsp_tree.h"
#include "movers/entity_graph.h"
#include "movers/mover.h"
#include "nav/nav_mesh.h"
#include "world/brush_geometry.h"
#include "world/world.h"
#include "world/pose.h"

#include <memory>
#include <vector>

namespace shallot {

enum class TravelKind : uint8_t { Walk, Step, Drop, Jump, Door, Plat, Train, Teleport, Push, Swim, WaterJump, Ladder };
// "walk", "step", "drop", "jump", "door", "plat", "train", "teleport", "push", "swim",
// "water_jump", "ladder"
const char* travelKindName(TravelKind kind);

// Quake's player runs at sv_maxspeed (320 units a second); a fall is timed under
// sv_gravity (kPushGravity, 800).
inline constexpr double kWalkSpeed = 320.0;
// In water the wished speed is scaled by 0.7 (Quake's SV_WaterMove, Quake 2's pmove).
inline constexpr double kSwimSpeed = 0.7 * kWalkSpeed;
// Quake 2's and Half-Life's players climb ladders at 200 units a second.
inline constexpr double kLadderSpeed = 200.0;
// A floor is on a ladder when the box standing there comes this close to it (Quake 2's
// pmove looks 1 unit ahead for a ladder; a little more for rounding of the floor samples).
inline constexpr double kLadderReach = 2.0;
// A body of water with more floors than this is swum through hubs (kSwimHubs of its floors,
// spread out) rather than from every floor to every other: the links stay linear in floors.
inline constexpr size_t kMaxSwimClique = 64;
inline constexpr size_t kSwimHubs = 24;

// What travel reads of a level besides its tree: its movers, entities and pushes.
struct TravelLevel {
    LevelMovers movers;
    EntityGraph graph;
    std::vector<PushVolume> pushes;
    // Per entity: it has health, so it fires when shot (a trigger_multiple or button with
    // health): travel takes it as fired from the start, from wherever it is seen.
    std::vector<char> shootable;
    // The player swims in `water` (water and slime brushes; lava kills) and climbs
    // `ladders` (Quake 2's ladder contents, Half-Life's func_ladder), world-space shapes.
    std::vector<BrushGeometry> water;
    std::vector<BrushGeometry> ladders;
};

// The movers, entity graph, trigger_pushes and func_ladders of a parsed .map
// (travel_level.cpp). The world's liquids and ladder brushes come from its compiled world:
// addLiquidsAndLadders.
TravelLevel travelLevelOf(const MapFile& map);
// The contents the player swims in (water, slime; lava kills), and those travel swims in or
// climbs (ladder).
inline constexpr BrushContents kSwumContents = BrushContents::Water | BrushContents::Slime;
inline constexpr BrushContents kTravelledContents = kSwumContents | BrushContents::Ladder;
// The shapes of the brushes whose contents meet `contents` (inside `bounds`; invalid
// brushes left out).
std::vector<BrushGeometry> brushShapes(const std::vector<Brush>& brushes, BrushContents contents, const Aabb& bounds);
// Adds `world`'s water, slime and ladder brushes to `level` (a .map's or document's world).
void addLiquidsAndLadders(TravelLevel& level, const World& world);
// The travel level of the entities an .obsp stores (objects/obsp_movers.h): travelLevelOf
// them, with the liquids and ladders among the worldspawn brushes kept with them (those of
// kTravelledContents).
TravelLevel storedTravelLevel(const MapFile& stored);

// A link beyond the mesh's own, from polygon to polygon: boarding at `start`, arriving at
// `end` after `seconds`. `needs`: the entity that must have been fired (opened, started)
// first, -1 when none (a named plat or train, a Quake teleporter with a targetname).
struct TravelLink {
    TravelKind kind = TravelKind::Walk;
    int32_t from = -1, to = -1;
    Vec3 start = Vec3::Zero(), end = Vec3::Zero();
    double seconds = 0.0;
    int entity = -1; // the mover's, teleporter's or push's entity
    int needs = -1;
    // A door gate (index in TravelGraph::gates) whose closed volume the link passes through
    // (a swim past a door standing in water): usable as the gate's mesh links are.
    int32_t gate = -1;
    // The way between start and end when it is not straight: a swim round corners
    // (movers/swim_network.h), through these points in order.
    std::vector<Vec3> via = {};
    // A push's flight (PushFlight::path): the triggers and buttons the box meets on the way
    // are touched from its takeoff (travel_openers.cpp).
    std::vector<Aabb> flight = {};
};

// A door group closed across the mesh: its members' configuration-space boxes at their
// spawn places. Open from the start when shootable (health, or a secret door that may be
// shot); else opened by firing any member (a touch field counts as firing: TravelOpener).
// A door that spawns open (START_OPEN) rests in its open place for good: firing it would
// only shut its drawn place, which is left open (not modelled).
struct DoorGate {
    std::vector<int> entities;  // the members' entities
    std::vector<Aabb> boxes;    // where the pose's reference point would be inside a member
    double seconds = 0.0;       // the slowest member's time to open
    bool free = false;          // shootable: passable from the start
    bool touched = false;       // has a touch field (opened by walking up to it)
    bool shut = false;          // never passable (a START_OPEN door's resting place)
};

// A place that fires entities when the agent stands in it: a trigger's or button's box, a
// door's touch field, a key door itself (wanting its key). `polygons`: the mesh polygons
// from which the pose's box touches it, `points` a floor point of each.
struct TravelOpener {
    int entity = -1;
    std::vector<int> fires; // entities set off (its own firedFrom, and a door group's members)
    KeyKind key = KeyKind::None; // wanted before it fires (a key door)
    bool shot = false; // fires from the start (TravelLevel::shootable)
    std::vector<int32_t> polygons;
    std::vector<Vec3> points;
};

// A key item on the mesh: the polygon below it (-1: none).
struct TravelKey {
    KeyKind kind = KeyKind::None;
    int entity = -1;
    int32_t polygon = -1;
    Vec3 point = Vec3::Zero();
};

// Where the agent stands on a mover at one of its stops (the standing box: the reference
// point over its top) and the floors beside it, from which it steps on.
struct TravelFloor {
    Aabb standing;
    std::vector<int32_t> polygons;
    std::vector<Vec3> points;
};

struct TravelGraph {
    // The pose's mesh cut along the closed doors' volumes (nav/cut_at_boxes.h): polygon and
    // link indices here are this mesh's.
    std::shared_ptr<const NavMesh> mesh;
    std::vector<TravelLink> links;
    std::vector<std::vector<uint32_t>> linksFrom; // per polygon, its travel links
    std::vector<DoorGate> gates;
    std::vector<int32_t> gateOfLink; // per mesh link, the gate closing it, or -1
    std::vector<TravelOpener> openers; // touched from the mesh, or from a mover's top (floors)
    std::vector<TravelKey> keys;
    std::vector<TravelFloor> floors; // the movers' tops at their stops
    size_t entityCount = 0; // the level's entities (fired flags are per entity)
};

// The typed travel of `mesh` (pose `pose`, whose box is poses[pose]) in `level`. Paths
// and reach over it use graph.mesh, not `mesh`.
TravelGraph buildTravelGraph(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const TravelLevel& level);

// The pieces, one file each: door gates (travel_doors.cpp), plats, trains and doors as
// floors (travel_riders.cpp), teleports and pushes (travel_jumps.cpp), openers and keys
// (travel_openers.cpp).
struct WaterFloor; // check/walking_reach.h
class SwimNetwork; // movers/swim_network.h

struct SwimmingFloor {
    int32_t polygon = -1;
    Vec3 point = Vec3::Zero();
    double length = 0.0; // of the swim
};

// The level's bodies of water as the pose's travel swims them (travel_liquids.cpp): each
// body's floors (waterFloors) and swim network, found when first asked for, for the swims
// between floors and for riders stopping in the water. Made once for a graph, on its mesh.
class WaterBodies {
public:
    WaterBodies(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const TravelLevel& level);
    ~WaterBodies();
    size_t count() const;
    const std::vector<WaterFloor>& floors(size_t body);
    // Its places are the body's floors (the points of those in the water).
    const SwimNetwork& network(size_t body);
    // The floors in the water a swimmer reaches from `at` (where the pose's reference point
    // puts its box in a body of the level's water), nearest by the swim first, each at the
    // point the swim ends on; none when `at` is not in the water.
    std::vector<SwimmingFloor> floorsSwimmingTo(const Vec3& at);

private:
    struct State;
    std::unique_ptr<State> state_;
};

void addDoorGates(TravelGraph& graph, const NavMesh& mesh, const Pose& pose, const TravelLevel& level);
// A top stopping in the water is boarded from the floors `water` swims to.
void addRiderLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level, WaterBodies& water);
void addTeleportAndPushLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level);
void addOpeners(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level);
// Swims between the floors of a body of water, water jumps out of it, ladder climbs
// (travel_liquids.cpp).
void addSwimAndLadderLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level, WaterBodies& water);

// The polygons of the mesh whose floor samples (walking_reach.h) put the pose's reference
// point inside `box` (configuration space), with the first such sample of each.
void polygonsTouching(const NavMesh& mesh, const Aabb& box, std::vector<int32_t>& polygons, std::vector<Vec3>& points);

} // namespace shallot

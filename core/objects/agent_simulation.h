#pragma once
// Many moving agents (the collision seed's update loop): every step each agent walks
// towards the next corner of its path over its pose's navigation mesh, by a collide-and-
// slide move against the world, the placed objects and every other agent (CollisionScene,
// through the grid and spheres, never n squared), then falls under gravity. Moves of one
// step all read the positions the step started from, so agents move in parallel and the
// result does not depend on the thread count; then the seed's Colliding(entity) check
// puts back every agent that ended overlapping another (or an object) where it was.
// Around that, the level as a game runs it (docs/movers.md "Play"): objects move first and
// carry their riders (who stand still while carried), fired runs pick up keys, and
// teleporters move the agents in them last.
#include "nav/nav_mesh.h"
#include "objects/collision_scene.h"
#include "movers/entity_graph.h"
#include "movers/mover.h"
#include "movers/mover_firing.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace shallot {

// Quake's walking: sv_maxspeed 320 units/s, sv_gravity 800 units/s^2.
inline constexpr double kAgentSpeed = 320.0;
inline constexpr double kAgentGravity = 800.0;
// A path corner counts as reached within this distance across (the box's reference point
// stops short of corners by rounding and by sliding along walls).
inline constexpr double kCornerReached = 1.0;
// An agent that got less than this far towards its goal in kStuckSeconds picks another goal.
inline constexpr double kStuckDistance = 32.0;
inline constexpr double kStuckSeconds = 2.0;
// Spawn points are lifted this far off the floor (a point on the floor's plane may read
// solid by rounding); the agent then falls onto it.
inline constexpr double kSpawnLift = 0.25;
// A Quake key item's box (items.qc: setsize '-16 -16 -24' '16 16 32'), dropped to the
// floor below its origin as PlaceItem drops it (from 6 above, at most kKeyDropDistance).
inline constexpr double kKeyHalfWidth = 16.0;
inline constexpr double kKeyBelowOrigin = 24.0;
inline constexpr double kKeyAboveOrigin = 32.0;
inline constexpr double kKeyDropDistance = 256.0;

struct SimulationOptions {
    int agents = 100;
    double stepSeconds = 1.0 / 60.0; // simulated time per step
    uint64_t seed = 1;
    int threads = 1;
    std::vector<int> poses; // tree pose indices the agents take in turn (empty: every non-point pose)
    double speed = kAgentSpeed;
    double gravity = kAgentGravity;
    int spawnAttempts = 32; // random floor points tried per agent before it is left out
    // The mover each of the scene's objects is, one per object (null: none moves): an
    // object is where Mover::offsetAtTime puts it on its own clock (the game's cycle kept
    // going; static ones stay).
    const std::vector<Mover>* movers = nullptr;
    // Seconds after the level's start at which the run begins: time() and every object's
    // clock start there (the caller places the objects at offsetAtTime(startSeconds)).
    double startSeconds = 0.0;
    // With rules (of the level of `movers`), the movers rest until fired as the game fires
    // them (movers/mover_firing.h: touch fields, buttons, triggers) instead of cycling; the
    // caller places the objects where they spawn.
    const FiringRules* firing = nullptr;
    // With `firing`, agents pick up the level's keys (FiringRules::keys) by touching their
    // box, and a key door opens for an agent that carries its key, which gives it up.
    // The level's teleporters (EntityGraph::teleports): an agent whose box overlaps one is
    // put at its destination, raised as the game raises it (Teleport::arrivalLift), when
    // its box fits there; it then finds a new path from where it lands. One that needs
    // firing (Quake's, with a targetname) works only with `firing`, kTeleportUseWindow
    // after it was used.
    const std::vector<Teleport>* teleports = nullptr;
    // Places agents go to on purpose (workingPlaces: buttons, triggers, touch fields,
    // teleporters): this share of the goals an agent picks is a random floor point from
    // which its box touches a random one of them (the rest random floors, as without).
    const std::vector<Aabb>* seekPlaces = nullptr;
    double seekShare = 0.0;
};

struct SimulationReport {
    int agents = 0;       // placed (a crowded level may hold fewer than asked)
    int steps = 0;
    StageCounts moves;     // the moves' queries (walk and fall)
    StageCounts colliding; // the Colliding(entity) checks after each step
    double stepSeconds = 0.0;     // wall time of the steps (paths included)
    // Processor time of the steps, all threads (std::clock): on a machine shared with other
    // work the wall time is not the simulation's own.
    double cpuSeconds = 0.0;
    double pathSeconds = 0.0;     // of which finding paths (summed over threads)
    double navSeconds = 0.0;      // building the navigation meshes (before the steps)
    uint64_t pathsFound = 0, pathsMissed = 0;
    uint64_t putBack = 0;         // moves undone by Colliding
    uint64_t goalsReached = 0, stuck = 0;
    uint64_t objectMoves = 0;     // steps objects moved
    uint64_t objectsBlocked = 0;  // steps an object stayed because an agent it pushed could not go
    uint64_t agentsPushed = 0;    // agents carried or pushed by a moving object
    uint64_t moverTrips = 0;      // with firing rules: trips the movers began
    uint64_t firings = 0;         // with firing rules: triggers, buttons and doors that fired targets
    uint64_t teleported = 0;      // agents a teleporter moved
    uint64_t teleportsRefused = 0; // times the destination had no room for an agent in the teleporter
    uint64_t keysPickedUp = 0;    // with firing rules: key items agents took
    uint64_t keysUsed = 0;        // with firing rules: key doors agents opened with their keys
};

class AgentSimulation {
public:
    // Builds each agent pose's navigation mesh over `world` (with the poses' own walking
    // rules) and places the agents on random floors, never overlapping one another. The
    // scene is kept by reference: its objects may be moved between steps.
    AgentSimulation(CollisionScene& scene, const SimulationOptions& options);
    ~AgentSimulation();

    // One step of every agent; the scene's agents are then the places the Colliding check
    // saw (before put-backs), until the next step.
    void step();
    double time() const { return time_; }
    const std::vector<Vec3>& positions() const { return positions_; }
    const std::vector<int>& poses() const { return poses_; }
    const SimulationReport& report() const { return report_; }

private:
    struct Agent;
    struct Worker;
    // Moves every object along its cycle by one step, carrying the agents standing on it
    // and pushing those in its way by as much (Quake's SV_PushMove); an object that would
    // push an agent into anything stays where it is, its clock stopped; fired as the game
    // fires them, doors and plats then turn back (MoverFiring::blocked).
    void moveObjects();
    // Moves the agents standing in a working teleporter to its destination (after the
    // step's moves: what Quake's touch does at the end of the physics frame).
    void teleportAgents();
    // The first agent (lowest index) touching a key item not yet taken takes it.
    void pickUpKeys(SceneScratch& scratch);
    void stepAgent(size_t i, Worker& worker);
    bool newPath(size_t i, Worker& worker);
    // A random point of the pose's walkable polygons (of one component, or of all with -1).
    Vec3 randomFloorPoint(int pose, int component, uint64_t& rng) const;
    // Runs job(worker, i) for every agent, the agents split in contiguous runs over the workers.
    template <class Job>
    void forAgents(const Job& job);

    CollisionScene& scene_;
    SimulationOptions options_;
    std::vector<std::unique_ptr<NavMesh>> meshes_; // by tree pose (null: no agent of it)
    // By tree pose, then by walking component (the last entry: every polygon): polygon
    // indices and the running sums of their areas, to pick floors by area.
    struct Floors {
        std::vector<int32_t> polygons;
        std::vector<double> areaSums;
    };
    std::vector<std::vector<Floors>> floors_;
    // A place agents seek, for one pose: the floor points from which its box touches it,
    // and the place's middle, which an agent walks on towards once there (into a trigger,
    // up against a button) until it is stuck or reaches it.
    struct SeekPlace {
        std::vector<Vec3> points;
        Vec3 middle;
    };
    std::vector<std::vector<SeekPlace>> seekPlaces_; // by tree pose: the places it can touch
    std::vector<Vec3> positions_, next_;
    std::vector<int> poses_;
    std::vector<Agent> agents_;
    std::vector<Worker> workers_;
    double time_ = 0.0;
    std::vector<double> objectClocks_; // each object's time along its cycle
    std::unique_ptr<MoverFiring> firing_; // with options_.firing: the movers' trips instead of the clocks
    std::vector<Aabb> keyBoxes_;          // with options_.firing: its keys' boxes on the floor
    std::vector<bool> keyTaken_;
    SimulationReport report_;
};

} // namespace shallot

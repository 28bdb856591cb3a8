#pragma once
// The collision world: the static world tree, placed objects (each its own tree, moved by
// a translation) and agents (each its pose's box at its position). Every query answers
// for all of them at once, each object tested in its own frame, with the collision seed's
// broad phase in front: the uniform grid (uniform_grid.h), then bounding spheres, then
// boxes, then the exact test; stage_counts.h counts what each stage settled.
#include "objects/collision_object.h"
#include "objects/stage_counts.h"
#include "objects/uniform_grid.h"
#include "query/slide_move.h"

#include <span>
#include <vector>

namespace shallot {

// The grid's cell side when none is given: four Quake player widths, so a player-sized
// agent's move overlaps at most four cells.
inline constexpr double kDefaultGridCell = 128.0;

// A query's region is grown by this on every side before the broad phase: far more than
// the trace tolerances and nudges (kStartSolidNudge) that reach past a segment's ends.
inline constexpr double kQueryRegionMargin = 1.0;

// Working memory of one thread's queries (CollisionScene is const while it answers).
struct SceneScratch {
    std::vector<uint32_t> stamps; // grid ids already seen, by stamp
    uint32_t stamp = 0;
    std::vector<uint32_t> near;   // grid candidates
    std::vector<uint32_t> objects, agents; // what reached the exact test
    std::vector<uint8_t> touched; // per exact candidate: found in contact
    bool timed = false;           // the current query is one of the timed ones (stage_counts.h)
    // The object whose answer the last trace gave (its contact, or its start in solid);
    // -1 when the world's or an agent's did, or nothing was hit.
    int hitObject = -1;
};

// What a query leaves out and how it is counted.
struct SceneQuery {
    int pose = 0;   // index into the world tree's poses (objects share them)
    int self = -1;  // an agent index to ignore (the agent that moves), or -1
    // When >= 0, only agents with a lower index are met (and counted as pairs): the seed's
    // sequential update loop, where agent i meets agents before it at their new places.
    int agentsBefore = -1;
};

class CollisionScene {
public:
    // `world` and the objects are kept by reference; every object must be compiled for
    // the world's poses. Objects start at offset zero; there are no agents.
    CollisionScene(const BspTree& world, std::vector<const CollisionObject*> objects, double cellSize = kDefaultGridCell);

    const BspTree& world() const { return world_; }
    size_t objectCount() const { return objects_.size(); }
    const CollisionObject& object(size_t i) const { return *objects_[i]; }
    const Vec3& objectOffset(size_t i) const { return offsets_[i]; }
    const std::vector<Vec3>& objectOffsets() const { return offsets_; }
    // Where object i is placed: its tree answers for p at p - offset. Call rebuildGrid
    // (or setAgents) after changing offsets, before querying.
    void setObjectOffset(size_t i, const Vec3& offset) { offsets_[i] = offset; }

    // The agents (their reference points and tree pose indices, kept by reference until the
    // next call); rebuilds the grid over the objects and them.
    void setAgents(std::span<const Vec3> positions, std::span<const int> poses);
    void rebuildGrid();
    size_t agentCount() const { return agentPositions_.size(); }
    // Agent i's box in world coordinates.
    Aabb agentBox(size_t i) const;

    // Whether p is solid for the pose in the world, in a placed object, or inside another
    // agent's box grown by the pose's (touching is not solid).
    bool isSolid(const SceneQuery& q, const Vec3& p, SceneScratch& scratch, StageCounts& counts) const;
    // The first contact along from -> to with traceSegment's conventions against all of
    // them; startSolid when the start is solid in any one; allSolid when the segment is
    // solid all along in one of them (the world, one object or one agent: a segment covered
    // only by several together reads false); `plane` is the world tree's plane id for a
    // world contact, else -1.
    TraceResult trace(const SceneQuery& q, const Vec3& from, const Vec3& to, SceneScratch& scratch,
                      StageCounts& counts) const;
    // Collide and slide (query/slide_move.h) against all of them.
    MoveResult move(const SceneQuery& q, const Vec3& from, const Vec3& delta, double stepHeight,
                    SceneScratch& scratch, StageCounts& counts, const MoveOptions& options = {}) const;
    // The seed's Colliding(entity): whether agent `self`, with its box at `position`,
    // overlaps another agent's box or a placed object's solid (the exact test for an object
    // is its tree's point test for the agent's pose).
    // With `earlierOnly`, only agents with a lower index than `self` are met.
    bool colliding(int self, const Vec3& position, SceneScratch& scratch, StageCounts& counts,
                   bool earlierOnly = false) const;

    // The agents whose boxes overlap `box` (through the grid and the boxes; no counts).
    void agentsOverlapping(const Aabb& box, SceneScratch& scratch, std::vector<uint32_t>& out) const;

    // The broad phase alone: fills scratch.objects and scratch.agents with what reaches the
    // exact test for a box of pose q.pose whose reference point stays in `region`, and
    // counts the grid, sphere and box stages. Public for the tests.
    void gather(const SceneQuery& q, const Aabb& region, SceneScratch& scratch, StageCounts& counts) const;

private:
    class Space;

    const BspTree& world_;
    std::vector<const CollisionObject*> objects_;
    std::vector<Vec3> offsets_;
    double cellSize_;
    Aabb extent_; // the grid's: the world tree's polygons
    std::span<const Vec3> agentPositions_;
    std::span<const int> agentPoses_;
    std::vector<Aabb> gridBoxes_; // objects (placed), then agents
    UniformGrid grid_;
};

} // namespace shallot

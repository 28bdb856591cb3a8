#pragma once
#include "compile/bsp_tree.h"
#include "compile/compiler.h"
#include "objects/collision_scene.h"
#include "objects/level_objects.h"
#include "objects/mover_shapes.h"
#include "objects/placed_move_spaces.h"
#include "query/box_trace.h"
#include "query/round_pose_queries.h"
#include "query_light.h"
#include "query_path.h"
#include "query_visible.h"
#include "world/world.h"

#include <QByteArray>
#include <QJsonObject>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace shallot::cli {

// Coordinates (points, box corners, step heights) of trace and move queries must lie
// within +-this: far outside any world (kDefaultWorldExtent is 65536), and small enough
// that no length or product in a trace overflows.
inline constexpr double kMaxQueryCoordinate = 1e9;

// Answers one JSON query line against a compiled tree (the `query` command's contract):
//   {"op":"classify","p":[x,y,z]} -> {"solid":{"<pose>":bool,...},"leaf":N}
//   {"op":"trace","pose":"<name>","from":[x,y,z],"to":[x,y,z]}
//     -> {"start_solid":bool,"hit":bool,"t":T,"point":[x,y,z],"normal":[x,y,z]}
//        t: the exact contact parameter of the box's reference point along from -> to (not
//        backed off) and point = from + t (to - from); normal: the unit normal of the surface
//        entered, facing against the motion. No hit: hit false, t 1, point = to. A start in
//        solid: start_solid true, hit false, t 0, point = from. Without a hit the normal is
//        [0,0,0]. from == to is an error (a zero-length sweep has no contact to report).
//   {"op":"trace","box":{"mins":[..],"maxs":[..]},"from":..,"to":..} -> the same for any
//        box (mins <= maxs). A box equal to a compiled pose's box is traced in the tree;
//        any other needs the brushes (a .map or .shallot input, or a .obsp with its brushes
//        section, which compile writes), else the answer is the error
//        "arbitrary boxes need the world: query a .map or .shallot".
//   {"op":"move","pose":"<name>","from":[x,y,z],"delta":[x,y,z],"step":H}
//     -> {"end":[x,y,z],"contacts":[{"point":[..],"normal":[..],"t":T},...],
//         "start_solid":bool,"stepped":bool}
//        collide and slide (query/slide_move.h); "step" (optional, default 0) is the step-up
//        height; t of a contact is the move time in [0, 1] at which it happened. A start in
//        solid gives start_solid true, end = from and no contacts.
//   Movers: on a level with movers (a .map: doors, plats, trains, buttons, func_wall...,
//        core/movers), classify, trace (pose, or a box equal to a pose's) and move answer for
//        the world plus every mover placed at its state, each tested in its own frame
//        (core/objects/collision_scene.h). The optional field
//        "movers":{"<entity index>":"open"|"closed"|F|"corner N",...} sets states (F a
//        number in [0, 1]: that far along its motion); a mover not named is where the level
//        spawns it. An entity index that is no mover, or a bad state, is an error; so is
//        "movers" naming one on an input without movers (a .shallot, or a .obsp written
//        before format version 6; compile -o of a .map stores them). Round poses
//        and arbitrary boxes meet the movers too, each mover's brushes exact for the
//        shape or box in its own frame (objects/mover_shapes.h). A trace whose contact (or
//        start in solid) is a mover's adds "mover": its entity index.
//   {"op":"reach",...} -> see query_reach.h.
//   {"op":"path",...} -> see query_path.h.
//   {"op":"visible",...} -> see query_visible.h.
//   {"op":"light",...} -> see query_light.h.
// A query's "id" (any JSON value), when it has one, is echoed in its answer.
// A round pose of the world (an ellipsoid or capsule, world/pose_shape.h) is in the tree as
// its bounding box under its own name and its inscribed box "NAME~inscribed"; classify,
// trace and move answer NAME exactly for the shape (query/round_pose_queries.h), in the
// same fields; NAME~inscribed answers as the box it is; reach and path walk NAME's
// bounding box (the tree's).
// A line it cannot answer (malformed JSON, missing or wrongly typed fields, non-finite or
// out-of-range numbers, unknown poses) gives {"error":"..."} and ok = false.
class QueryProcessor {
public:
    // `world` (optional, kept by reference) is what `tree` was compiled from; `pvs`
    // (optional, kept by reference) the PVS stored with the tree; `entities` (optional, kept
    // by reference) the level's entities, for light queries, and `file` its name in messages.
    // Throws std::invalid_argument for an invalid round pose of `world`.
    // `lighting` (optional, kept by reference): the lightmaps a .obsp stores.
    explicit QueryProcessor(const BspTree& tree, const World* world = nullptr, const TreePvs* pvs = nullptr,
                            const std::vector<MapEntity>* entities = nullptr, std::string file = {},
                            const LevelLighting* lighting = nullptr);
    QJsonObject answer(const QByteArray& line, bool& ok) const;
    // The level's movers as collision objects (kept by reference; null: none), at their
    // spawn states unless a query's "movers" says otherwise.
    void setLevelObjects(const LevelObjects* level);
    // Walking rules for every path query, over the poses' own (the query command's flags).
    void setPathOverrides(const NavOverrides& overrides) { paths_.setOverrides(overrides); }
    // The level's movers and triggers for path queries' typed travel (query_path.h).
    void setTravel(std::shared_ptr<const TravelLevel> level) { paths_.setTravel(std::move(level)); }
    // The blocking brushes a .obsp stores (kept by reference), for a processor without a
    // world: arbitrary boxes are swept against them and reach with "movers" compiles them
    // with the movers placed, as on the .map.
    void setStoredBrushes(const World* brushes) {
        if (!world_) brushes_ = brushes;
    }

private:
    QJsonObject answerOp(const QJsonObject& query, bool& ok) const;
    QJsonObject classify(const QJsonObject& query, bool& ok) const;
    QJsonObject trace(const QJsonObject& query, bool& ok) const;
    QJsonObject move(const QJsonObject& query, bool& ok) const;
    // query_reach.h on the world; with "movers", on the world compiled with the movers'
    // brushes where the field places them (their leaves are that tree's).
    QJsonObject reach(const QJsonObject& query, bool& ok) const;
    // The tree's pose with exactly this box whose tree answers for the box (no brush of the
    // world excludes the pose), or -1.
    int poseForBox(const Vec3& mins, const Vec3& maxs) const;
    const BoxTraceWorld& boxWorld() const; // built from brushes_ on first use
    // The round pose compiled as tree pose `pose`, or nothing.
    const MoveSpace* roundPose(int pose) const;
    // `world` (the round pose `roundPose`'s space) with the scene's movers placed in it,
    // each exact for the shape in its own frame; with no scene, `world` alone.
    PlacedMoveSpaces withMovers(const MoveSpace& world, int roundPose, const CollisionScene* scene) const;
    // Where the query's "movers" field places the level's movers (the others where they
    // spawn): nothing when it names none; false with `message` set for a bad field.
    bool moverOffsets(const QJsonObject& query, std::optional<std::vector<Vec3>>& offsets, QString& message) const;
    // The world and movers as the query's "movers" field places them: null when the level
    // has no movers and the query names none; false with `message` set for a bad field.
    bool sceneFor(const QJsonObject& query, std::unique_ptr<CollisionScene>& placed, const CollisionScene*& scene,
                  QString& message) const;

    // A round pose of the world: exact against the brushes, with the tree in front when
    // the tree holds both its boxes.
    struct RoundPose {
        int treePose = -1;
        std::unique_ptr<RoundPoseWorld> exact;
        std::unique_ptr<RoundPoseQueries> queries;
    };

    const BspTree& tree_;
    const World* world_;
    const World* brushes_; // the world's blocking brushes: world_, or those a .obsp stores
    mutable std::once_flag boxWorldOnce_;
    mutable std::unique_ptr<BoxTraceWorld> boxWorld_;
    PathQueries paths_; // builds each pose's navigation mesh on its first path query
    VisibleQueries visible_; // computes the PVS of a world on its first visible query
    LightQueries light_;     // lights the level on its first light query
    std::vector<RoundPose> round_;
    const LevelObjects* level_ = nullptr;
    std::unique_ptr<CollisionScene> spawnScene_; // the movers where the level spawns them
    // Their brushes for round poses and boxes other than the poses (null: no movers).
    std::unique_ptr<MoverShapes> moverShapes_;
    // The world compiled with the movers placed, per set of places a reach asked for.
    static constexpr size_t kPlacedTreesKept = 4;
    mutable std::mutex placedTreesMutex_;
    mutable std::vector<std::pair<std::vector<Vec3>, std::shared_ptr<const CompileResult>>> placedTrees_;
};

// Reads "[x,y,z]" with finite numbers; false otherwise.
bool readPoint(const QJsonValue& value, Vec3& out);
// A point of a trace, move or path query: readPoint within +-kMaxQueryCoordinate; the error
// for field `field` when it is not.
bool readQueryPoint(const QJsonValue& value, Vec3& out);
QString pointError(const char* field);
// The pose named by query["pose"]; -1 with `message` set when missing or unknown.
int readPose(const BspTree& tree, const QJsonObject& query, QString& message);

} // namespace shallot::cli

#pragma once
#include "compile/bsp_tree.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"

#include <QJsonObject>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace shallot::cli {

// Changes to a pose's own walking rules (Pose::nav) for one run or one query: each set
// field replaces the pose's value.
struct NavOverrides {
    std::optional<double> slope;      // walkableNormalZ, in (0, 1]
    std::optional<double> step;       // stepHeight
    std::optional<double> drop;       // maxDrop (infinity: any)
    std::optional<bool> jump;         // jumps on / off
    std::optional<double> jumpHeight; // set with jump = true ("--jump H,L")
    std::optional<double> jumpLength;

    NavSettings applied(NavSettings s) const;
    bool empty() const { return !slope && !step && !drop && !jump; }
};

// The command-line flags `--step H`, `--drop H|any`, `--jump H,L`, `--no-jump`,
// `--slope NZ` (shallot-cli nav; path queries): when args[i] is one, reads it and its value
// (advancing i) into `out` and returns 1; returns 0 when it is not one; -1 with `error` set
// when its value is missing or bad (negative, not a number, a slope outside (0, 1]).
int readNavFlag(const std::vector<std::string>& args, size_t& i, NavOverrides& out, std::string& error);

// The same as fields of a query line: "step": H, "drop": H or "any", "jump": [H, L], true
// (the pose's own height and length) or false, "slope": NZ. False with `error` set for a bad
// value; absent fields change nothing.
bool readNavFields(const QJsonObject& query, NavOverrides& out, QString& error);

// The settings as JSON: {"slope":..,"step":..,"drop":H or "any","jump":false or [H, L]}.
QJsonObject navSettingsJson(const NavSettings& s);

// The query op {"op":"path","pose":"<name>","from":[x,y,z],"to":[x,y,z]}: the walking path
// of an agent in that pose (nav/nav_path.h), under the pose's own walking rules
// (Pose::nav: Quake's ground, step and drop rules by default, jumps when the pose has them
// on), each end dropped straight down onto the floor below it first. Optional fields
// "step", "drop", "jump", "slope" (readNavFields) change the pose's rules for that query,
// after the processor's own overrides (setOverrides).
//   -> {"found":bool,"length":L,"points":[[x,y,z],...],"time":S,
//       "travel":[{"type":"walk"|"step"|"drop"|"jump"|"door"|"plat"|"train"|"teleport"|"push",
//                  "from":[x,y,z],"to":[x,y,z],"seconds":S,"entity":E},...]}
// points: the path's corners, each where the pose's reference point rests on a floor (a
// step, drop or jump is its takeoff point, then its landing point); not found: length 0,
// no points. time: seconds at Quake's speeds (movers/travel_reach.h); travel: the path's
// parts in order, consecutive walking joined, "entity" only on a door, plat, train or
// teleport (its entity index). With the level's movers (setTravel: a .map or .shallot),
// closed doors are gates opened by what the path reaches first, and plats, trains,
// teleporters and pushes are ridden; without (an .obsp), only walk, step, drop and jump.
// Optional field "travel": false walks the static world only (as the editor's Path tool).
// A pose's navigation mesh is built on the first path query for it under those
// rules (the last kMaxMeshes meshes are kept).
class PathQueries {
public:
    // `poses` (when given, as many as the tree's) say how each pose walks: a tree read from
    // an .obsp carries no walking rules, the world of its .shallot or .map does.
    explicit PathQueries(const BspTree& tree, const std::vector<Pose>* poses = nullptr) : tree_(tree), poses_(poses) {}
    QJsonObject answer(const QJsonObject& query, bool& ok) const;
    // Overrides applied to every path query's pose settings (shallot-cli query's flags).
    void setOverrides(const NavOverrides& overrides) { overrides_ = overrides; }
    // The level's movers and triggers for typed travel (before the first query).
    void setTravel(std::shared_ptr<const TravelLevel> level) { travel_ = std::move(level); }

    static constexpr size_t kMaxMeshes = 8;

private:
    struct Built;
    const Built& mesh(int pose, const NavSettings& settings) const;

    const BspTree& tree_;
    const std::vector<Pose>* poses_;
    NavOverrides overrides_;
    std::shared_ptr<const TravelLevel> travel_;
    mutable std::mutex mutex_;
    struct Built {
        int pose = 0;
        NavSettings settings;
        std::shared_ptr<const NavMesh> mesh;
        std::shared_ptr<const TravelGraph> travel; // over *mesh, with the level's movers
        std::shared_ptr<const TravelGraph> plain;  // over *mesh, without (the same when there are none)
    };
    mutable std::vector<Built> meshes_; // most recently used last
};

} // namespace shallot::cli

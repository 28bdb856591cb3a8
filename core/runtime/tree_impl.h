#pragma once
// What a shallot::runtime::Tree holds (private to core/runtime).
#include "compile/bsp_tree.h"
#include "movers/travel.h"
#include "nav/nav_mesh.h"
#include "objects/collision_scene.h"
#include "objects/mover_shapes.h"
#include "objects/obsp_movers.h"
#include "portal/tree_pvs.h"
#include "query/box_trace.h"
#include "query/round_pose_world.h"
#include "shallot/runtime.h"
#include "world/world.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace shallot::runtime {

struct Tree::Impl {
    // The level: shared by every tree withMovers makes from it.
    struct Level {
        BspTree tree;
        std::optional<World> world; // the brushes (with the tree's poses and bounds), when known
        std::vector<PoseBox> poses;
        std::vector<std::string> warnings;
        std::optional<TreePvs> pvs; // of the sight pose, when stored or computed
        std::shared_ptr<const ObspMovers> movers; // the movers and entities; null: none
        std::vector<Mover> moverList;
        // The movers where the level spawns them; other placements copy it (its world
        // extent, a walk over every polygon, is then not computed again).
        std::shared_ptr<const CollisionScene> spawnScene;
        // The movers' brushes for round poses and boxes other than the poses (with spawnScene).
        std::unique_ptr<const MoverShapes> moverShapes;

        // Built on the first traceBox that needs it; call_once keeps concurrent queries safe.
        std::once_flag boxWorldOnce;
        std::unique_ptr<BoxTraceWorld> boxWorld;
        // Each pose's navigation mesh, built on its first path query, and its travel graph
        // (with the level's movers and triggers) on its first travelPath.
        std::mutex navMutex;
        std::vector<std::unique_ptr<const NavMesh>> navMeshes;
        std::unique_ptr<const TravelLevel> travel;
        std::vector<std::unique_ptr<const TravelGraph>> travelGraphs;
    };

    // Round poses (withRoundPoses): each exact against the level's brushes.
    struct RoundPoses {
        std::vector<RoundPose> specs;
        std::vector<std::unique_ptr<const RoundPoseWorld>> exact; // per spec
    };

    std::shared_ptr<Level> level;
    const BspTree& tree;
    const std::optional<World>& world;
    const std::vector<std::string>& warnings;
    const std::optional<TreePvs>& pvs;
    // The movers placed at `states` (null when the level has none).
    std::shared_ptr<const CollisionScene> scene;
    std::vector<MoverSetting> states;
    // Round poses after the tree's poses (null: none); `poses` lists both.
    std::shared_ptr<const RoundPoses> round;
    std::vector<PoseBox> poses;
    // Per round pose: its exact world with the movers placed at `states`.
    std::vector<std::unique_ptr<const PlacedMoveSpaces>> roundWithMovers;

    // A level with the movers placed as `settings` say (checked by the caller; the others
    // where the level spawns them) and the round poses `round`.
    explicit Impl(std::shared_ptr<Level> l, const std::map<int, shallot::MoverState>& settings = {},
                  std::shared_ptr<const RoundPoses> round = nullptr);
    // The world compiled with the movers' brushes placed at `states` (reachWithMovers):
    // made on first use, an error when it cannot be (no brushes, the compile failed).
    struct PlacedWorld {
        std::optional<BspTree> tree;
        std::string error;
    };
    const PlacedWorld& placedWorld() const;
    mutable std::once_flag placedWorldOnce;
    mutable PlacedWorld placed;

    // The round pose at pose index `pose` (after the tree's), or null for a tree pose.
    const RoundPoseWorld* roundPose(int pose) const;
    // The same with the movers placed at `states` (what its queries answer), or null.
    const PlacedMoveSpaces* roundSpace(int pose) const;
    const BoxTraceWorld& boxTraceWorld() const;
    const NavMesh& navMesh(int pose) const;
    const TravelGraph& travelGraph(int pose) const;
};

// A level from its parts: the poses and the movers' descriptions filled in.
std::shared_ptr<Tree::Impl::Level> makeLevel(BspTree tree, std::optional<World> world, std::vector<std::string> warnings,
                                             std::optional<TreePvs> pvs, std::shared_ptr<const ObspMovers> movers);

// The movers' states of `impl` as its Impl constructor takes them (runtime_movers.cpp).
std::map<int, shallot::MoverState> currentSettings(const Tree::Impl& impl);

// Tree::compileMap's work (runtime_compile.cpp): the map read, its world built, poses
// chosen, compiled. Throws only what the standard library throws (bad_alloc).
Result<std::shared_ptr<const Tree::Impl>> compileMapFile(const std::string& mapPath, const std::vector<PoseBox>& poses,
                                                         int threads);

shallot::Vec3 toEigen(const Vec3& v);
Vec3 fromEigen(const shallot::Vec3& v);

} // namespace shallot::runtime

#pragma once
// Where each pose can walk in the newest compiled world (core/nav): its navigation meshes
// (of the world with the movers where the Movers dock places them: the Walkable overlay
// follows their state), and its typed travel through the level's doors, lifts, trains,
// teleporters and pushes (movers/travel.h) over the meshes of the world without the movers
// (MoverStates::staticWorld), as the game runs them and as `shallot-cli query`'s paths go,
// whatever the dock shows. Built after each compile or entity edit while the Walkable
// overlay is on, the Path tool is used or test rays exist, with the path of every test ray
// for every pose (the rays dock's Path column; drawn for the current pose with the Walkable
// overlay). The meshes come first (BackgroundStage::Following, after the tree's overlays);
// the travel, which waits for the world without the movers compiled at the lowest
// priority, follows at that priority (BackgroundStage::Later; 80-200 ms on id_e1m1), the
// travel before it shown meanwhile.
// Only the current pose's mesh is built unless test rays want every pose's: the designer
// must not pay for meshes nothing shows. The Walkable overlay's drawing of the pose it shows
// is made with each build, on its thread (walkable_drawing.h).
#include "movers/travel_reach.h"
#include "nav/nav_mesh.h"
#include "nav/nav_path.h"
#include "services/compile_service.h"
#include "services/nav_mesh_cache.h"
#include "services/walkable_drawing.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace shallot {

class Editor;

// Why no walking path was found, whole, as a designer reads it ("the goal is in solid for
// the player's box (too near a wall, or under a low ceiling)").
QString pathMissReason(NavPathMiss miss, const QString& pose);
// The same in a few words, for the views to draw at a placed path's goal ("start in solid").
QString pathMissShort(NavPathMiss miss);
// "Path for player: 1234 units, 7.3 s, 12 corners" and, when it goes through movers or
// triggers, "through door 12, plat 70, teleport 31" (entity indices); "No walking path for
// player: " and why (`why`, else pathMissReason), or (no path known yet) "Walkable surfaces
// for player are being built".
QString pathSummary(const std::optional<TravelPath>& path, const std::string& pose, const QString& why = {});
// "1234 units, 7.3 s" (the rays dock's Path column, the 2D views' label at a path's goal).
QString pathLengthAndTime(const TravelPath& path);

struct NavMeshes {
    std::shared_ptr<const CompiledWorld> world;
    // One per pose of the world's tree; null for a pose not built (see above).
    std::vector<std::shared_ptr<const NavMesh>> poses;
    // The world without the movers that travel walks (null: not compiled yet; until the one
    // of `world`'s edit is, and its travel built, the one before, whose travel is kept), and
    // per pose its travel through the movers and triggers of the document's entities at
    // `entityRevision`; null where none was built or no such world was there.
    std::shared_ptr<const CompiledWorld> travelWorld;
    std::vector<std::shared_ptr<const TravelGraph>> travel;
    uint64_t entityRevision = 0;
    double milliseconds = 0;    // to build the meshes
    const NavMesh* mesh(int pose) const { return pose >= 0 && size_t(pose) < poses.size() ? poses[size_t(pose)].get() : nullptr; }
    const TravelGraph* travelOf(int pose) const {
        return pose >= 0 && size_t(pose) < travel.size() ? travel[size_t(pose)].get() : nullptr;
    }
};

class NavService : public QObject {
    Q_OBJECT
public:
    // Meshes come from `cache` (shared with the walking spawn check).
    NavService(Editor& editor, std::shared_ptr<NavMeshCache> cache);
    // Builds the meshes of `world` that are wanted (the newest request wins).
    void request(std::shared_ptr<const CompiledWorld> world);
    // Whether the meshes shown are `world`'s and have every pose wanted now, with the travel
    // of the newest world without the movers when it is `world`'s.
    bool upToDate(const std::shared_ptr<const CompiledWorld>& world) const;
    const std::shared_ptr<const NavMeshes>& meshes() const { return meshes_; }
    // Per test ray, per pose: its path from its start to its end with typed travel (empty
    // before the first build).
    const std::vector<std::vector<TravelPath>>& rayPaths() const { return rayPaths_; }
    bool busy() const { return running_ || travelRunning_; }
    // Whether rayPaths() go through `world` (the newest compile) and the entities as they are:
    // false while its meshes or travel are built, when the paths shown are the level's before.
    bool pathsCurrent(const std::shared_ptr<const CompiledWorld>& world) const {
        return !busy() && !waiting_ && world && upToDate(world);
    }

    // The pose whose Walkable drawing the builds make with the meshes and travel (-1: none;
    // the overlay is off).
    void setDrawnPose(int pose) { drawnPose_ = pose; }
    // The drawing of `key` made with the newest build, handed over once: nothing when it was
    // made for another or not made.
    std::optional<WalkableMeshDrawing> takeMeshDrawing(const WalkableMeshKey& key);
    std::optional<WalkableTravelDrawing> takeTravelDrawing(const WalkableTravelKey& key);

signals:
    void built(); // new meshes and ray paths

private:
    void start();
    bool meshesUpToDate(const std::shared_ptr<const CompiledWorld>& world) const;
    // Whether travel through `travelWorld` and the entities at `entityRevision` is through
    // the newest world without the movers and the document's entities as they are.
    bool isNewestTravel(const std::shared_ptr<const CompiledWorld>& travelWorld, uint64_t entityRevision) const;
    // Whether the travel shown is that of the newest world without the movers and entities,
    // for every pose wanted (when that world is the meshes' world's; else none is built yet).
    bool travelUpToDate() const;
    // Builds the travel the meshes shown lack, unless a build runs (it asks again when done).
    void requestTravel();
    void show(std::shared_ptr<const NavMeshes> meshes);
    void showTravel(std::shared_ptr<const CompiledWorld> travelWorld, std::vector<std::shared_ptr<const TravelGraph>> travel,
                    uint64_t entityRevision);
    void findRayPaths();
    // The poses whose meshes are wanted: every pose while test rays exist, else the current one.
    std::vector<int> wantedPoses(size_t poseCount) const;

    Editor& editor_;
    std::shared_ptr<NavMeshCache> cache_;
    bool running_ = false;       // a mesh build
    bool travelRunning_ = false; // a travel build
    std::shared_ptr<const CompiledWorld> waiting_;
    std::shared_ptr<const NavMeshes> meshes_;
    std::vector<std::vector<TravelPath>> rayPaths_;
    // Counts the document's entity edits: travel is rebuilt when they change.
    uint64_t entityRevision_ = 1;
    int drawnPose_ = -1;
    std::optional<WalkableMeshDrawing> meshDrawing_;
    std::optional<WalkableTravelDrawing> travelDrawing_;
};

} // namespace shallot

#pragma once
// Where the level's movers stand in the editor (issue 40, docs/movers.md "In the editor"):
// as the game spawns them, all closed, all open, where the game's timing has them at a
// time, or left out of the world. The editor draws each mover's brushes there, ghosts the
// volume each brush sweeps, and compiles the world with the movers' brushes placed there
// as blocking brushes, so every overlay (cells, portals, walkable, paths...) sees a closed
// door as a wall and an open one as an opening; a state change is a brush move through the
// incremental compiler. While the movers play (mover_play.h) they are where the simulation
// has them, and the compiles that follow them are throttled so that edits come first.
//
// The spawn checks, the light and saved trees want the world the game compiles (brush
// entities are models of their own there): a second compile of the document's world
// alone follows each edit's compile (staticWorld), never a state change.
#include "services/compile_service.h"
#include "services/nav_mesh_cache.h"
#include "movers/firing_rules.h"
#include "movers/mover.h"

#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace shallot {

class Editor;

enum class MoverPlacement { Spawn, Closed, Open, Time, LeftOut };
// "spawn", "closed", "open", "time", "out" (ViewState::movers); and back, or nothing.
const char* moverPlacementName(MoverPlacement placement);
std::optional<MoverPlacement> moverPlacementNamed(std::string_view name);

class MoverStates : public QObject {
    Q_OBJECT
public:
    explicit MoverStates(Editor& editor);
    ~MoverStates() override;

    MoverPlacement placement() const { return placement_; }
    double seconds() const { return seconds_; } // of MoverPlacement::Time
    // The chosen state: view state (saved with the document), no undo step.
    void setPlacement(MoverPlacement placement, double seconds);
    bool sweptShown() const { return sweptShown_; }
    void setSweptShown(bool shown);

    const LevelMovers& movers() const { return movers_; }
    // What fires the movers when the level runs (Play from the level's start).
    const FiringRules& firingRules() const { return firingRules_; }
    // Where each mover (movers().movers order) is drawn and compiled now, from its file
    // position: the chosen state's, or the simulation's while playing.
    const std::vector<Vec3>& offsets() const { return offsets_; }
    // The movers' brushes are in the compiled world (not left out, and the level has some).
    bool compiledIn() const;
    // `world` with every mover's brushes appended, moved to offsets() (unchanged when they
    // are left out). Appended after the document's brushes: brush indices below
    // world.brushes.size() stay the document's.
    World withMovers(World world) const;

    // While playing: the movers drawn at the simulation's offsets; the compile follows at
    // most every kPlayCompileMs, and only when the compiler is idle.
    void showPlayOffsets(std::vector<Vec3> offsets);
    // Back to the chosen state.
    void endPlay();

    // The newest compile of the document's world without the movers (the main compile's
    // when they are left out): what the spawn checks, the light and saves read.
    const std::shared_ptr<const CompiledWorld>& staticWorld() const { return staticWorld_; }
    // Its navigation meshes (the walking check's), apart from the overlays' of the world
    // with the movers: one cache of both would build every mesh whole after each edit.
    const std::shared_ptr<NavMeshCache>& staticNavMeshes() const { return staticNavMeshes_; }

signals:
    void changed(); // placement, seconds or swept shown (the dock follows)
    void staticCompiled(std::shared_ptr<const CompiledWorld> world);

private:
    void rebuildMovers();
    void applyOffsets(std::vector<Vec3> offsets, bool throttled);
    std::vector<Vec3> chosenOffsets() const;
    void requestCompile();
    // `compiled` has the movers' brushes as they are placed now (the document's before them).
    bool compiledAsPlaced(const CompiledWorld& compiled) const;
    void mainCompiled(const std::shared_ptr<const CompiledWorld>& result);
    void setStatic(std::shared_ptr<const CompiledWorld> world);
    void rebuildSwept();

    Editor& editor_;
    MoverPlacement placement_ = MoverPlacement::Spawn;
    double seconds_ = 0.0;
    bool sweptShown_ = true;
    bool playing_ = false;
    LevelMovers movers_;
    FiringRules firingRules_;
    std::vector<Vec3> offsets_;
    std::vector<Brush> placedBrushes_; // what withMovers appends now
    CompileService staticCompiler_{nullptr, BackgroundStage::Later}; // no view shows it
    std::shared_ptr<const CompiledWorld> staticWorld_;
    std::shared_ptr<NavMeshCache> staticNavMeshes_ = std::make_shared<NavMeshCache>();
    QElapsedTimer playCompileClock_;
};

} // namespace shallot

#pragma once
// Where shallot-cli gets a compiled tree: a .obsp file, a .shallot document or a .map.
#include "compile/bsp_tree.h"
#include "io/map_file.h"
#include "io/obsp_format.h"
#include "light/level_light.h"
#include "portal/tree_pvs.h"
#include "world/world.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace shallot::cli {

// Whether the file name ends in `extension` (".shallot"), ignoring case.
bool hasExtension(const std::string& path, std::string_view extension);

// The tree of `path`: a .obsp is read; a .shallot gives its stored tree when that was
// compiled from the document's world (compileInputHash matches), else its world is
// compiled now; anything else is read as a .map and compiled (round poses as their two
// boxes, world/round_pose_boxes.h). Skipped brushes are reported
// on stderr as warnings. On failure returns nothing and sets `error`.
std::optional<BspTree> loadTreeFrom(const std::string& path, std::string& error);

// A tree and one of its poses, for commands that work on a single pose (portals, reach).
struct TreeAndPose {
    BspTree tree;
    int pose = -1;
};
// Loads the tree of `path` (as loadTreeFrom) and finds the pose named `pose`; on failure
// prints "shallot-cli: COMMAND: ..." and returns nothing with `exitCode` set (input error
// when the file cannot be read, usage error for an unknown pose).
std::optional<TreeAndPose> loadTreeForPose(const std::string& path, const std::string& pose, const std::string& command,
                                           int& exitCode);

// A tree and, when the input has one, the world it was compiled from.
struct TreeAndWorld {
    BspTree tree;
    std::optional<World> world; // set for a .shallot or a .map, not for a .obsp
    std::optional<TreePvs> pvs; // the PVS a .obsp stores
    std::vector<MapEntity> entities = {}; // a .shallot's or .map's (lights, brush entities)
    std::optional<LevelLighting> lighting = {}; // the lightmaps a .obsp stores
    Game game = Game::Quake; // the .map's (--game or detected) or the document's; a .obsp's movers say theirs
    std::shared_ptr<const ObspMovers> movers = {}; // the movers a .obsp stores (shallot-cli compile of a .map)
    // The blocking brushes a .obsp stores (its brushes section), with the tree's poses and
    // bounds: enough to sweep other boxes and to compile the world again with movers placed,
    // not a whole world (no liquids, no textures).
    std::optional<World> storedBrushes = {};
};

// As loadTreeFrom, also giving back the world of a .shallot or .map (queries that sweep
// boxes other than the compiled poses, and round poses, need the brushes) and the PVS of a
// .obsp (a damaged PVS section is reported on stderr as a warning and left out) and the
// movers it stores. With
// `poses`, they replace the world's poses before it is compiled (an error for a .obsp).
// A world's round poses are compiled as their bounding and inscribed boxes (treePoses).
std::optional<TreeAndWorld> loadTreeAndWorldFrom(const std::string& path, std::string& error,
                                                 const std::vector<Pose>* poses = nullptr);

} // namespace shallot::cli

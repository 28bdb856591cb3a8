#include "tree_source.h"

#include "cli_common.h"
#include "document_input.h"

#include "io/game_profile.h"
#include "io/obsp_format.h"
#include "objects/obsp_movers.h"
#include "world/round_pose_boxes.h"

#include <algorithm>
#include <iostream>

namespace shallot::cli {

namespace {

// Round poses go into the tree as their two boxes (world/round_pose_boxes.h).
std::optional<BspTree> compile(const World& world, const std::string& path, std::string& error) {
    World boxes = world;
    boxes.poses = treePoses(world.poses);
    CompileResult result = compileWorld(boxes);
    if (!result.error.empty()) {
        error = path + ": " + result.error;
        return std::nullopt;
    }
    for (const BrushProblem& p : result.problems) std::cerr << "warning: " << p.message << " (skipped)\n";
    return std::move(result.onion);
}

} // namespace

bool hasExtension(const std::string& path, std::string_view extension) {
    return path.size() >= extension.size() &&
           std::equal(extension.rbegin(), extension.rend(), path.rbegin(),
                      [](char a, char b) { return std::tolower((unsigned char)a) == std::tolower((unsigned char)b); });
}

std::optional<BspTree> loadTreeFrom(const std::string& path, std::string& error) {
    if (hasExtension(path, ".obsp")) {
        ObspReadResult read = readObspFile(path);
        if (!read.tree) error = path + ": " + read.error;
        return std::move(read.tree);
    }
    if (hasExtension(path, ".shallot")) {
        std::optional<DocumentInput> document = readDocumentInput(path, error);
        if (!document) return std::nullopt;
        if (document->tree) return std::move(document->tree);
        return compile(document->world, path, error);
    }
    const std::optional<LoadedWorld> loaded = loadWorld(path); // reports its errors itself
    if (!loaded) {
        error = path + ": no world to compile";
        return std::nullopt;
    }
    return compile(loaded->world, path, error);
}

std::optional<TreeAndWorld> loadTreeAndWorldFrom(const std::string& path, std::string& error,
                                                 const std::vector<Pose>* poses) {
    if (hasExtension(path, ".obsp")) {
        if (poses) {
            error = path + ": --pose needs the world (a .map or .shallot), a .obsp has only its tree";
            return std::nullopt;
        }
        ObspReadResult read = readObspFile(path);
        if (!read.tree) {
            error = path + ": " + read.error;
            return std::nullopt;
        }
        if (!read.pvsError.empty()) std::cerr << "warning: " << path << ": " << read.pvsError << " (no PVS)\n";
        if (!read.lightingError.empty())
            std::cerr << "warning: " << path << ": " << read.lightingError << " (no lightmaps)\n";
        TreeAndWorld out{std::move(*read.tree), std::nullopt, std::move(read.pvs), {}, std::move(read.lighting)};
        out.movers = std::move(read.movers);
        if (out.movers) out.game = out.movers->entities.game;
        if (read.brushes) out.storedBrushes = World{std::move(*read.brushes), out.tree.poses, out.tree.bounds};
        return out;
    }
    World world;
    std::optional<BspTree> tree;
    Game game = Game::Quake;
    std::vector<MapEntity> entities;
    if (hasExtension(path, ".shallot")) {
        std::optional<DocumentInput> document = readDocumentInput(path, error);
        if (!document) return std::nullopt;
        tree = std::move(document->tree);
        world = std::move(document->world);
        game = document->game;
        entities = std::move(document->entities);
    } else {
        std::optional<LoadedWorld> loaded = loadWorld(path); // reports its errors itself
        if (!loaded) {
            error = path + ": no world to compile";
            return std::nullopt;
        }
        world = std::move(loaded->world);
        game = loaded->game;
        entities = std::move(loaded->entities);
    }
    if (poses) {
        world.poses = *poses;
        // A pose given only a shape is blocked as the game's own poses of its kind are.
        for (Pose& pose : world.poses) applyGameBlocking(game, pose);
        tree.reset(); // a stored tree has the document's poses
    }
    if (!tree) tree = compile(world, path, error);
    if (!tree) return std::nullopt;
    TreeAndWorld out{std::move(*tree), std::move(world), std::nullopt, std::move(entities)};
    out.game = game;
    return out;
}

std::optional<TreeAndPose> loadTreeForPose(const std::string& path, const std::string& pose, const std::string& command,
                                           int& exitCode) {
    std::string error;
    std::optional<BspTree> tree = loadTreeFrom(path, error);
    if (!tree) {
        printError(command + ": " + error);
        exitCode = kExitInputError;
        return std::nullopt;
    }
    const int index = tree->poseIndex(pose);
    if (index < 0) {
        printError(command + ": " + path + " has no pose '" + pose + "'");
        exitCode = kExitUsage;
        return std::nullopt;
    }
    return TreeAndPose{std::move(*tree), index};
}

} // namespace shallot::cli

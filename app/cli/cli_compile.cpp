#include "cli_common.h"

#include "io/obsp_format.h"
#include "level_objects_source.h"
#include "world/round_pose_boxes.h"

#include <iostream>

namespace shallot::cli {

int runCompile(const std::vector<std::string>& args) {
    std::string input, output;
    std::vector<Pose> poses;
    bool stats = false;
    int threads = 1;
    SplitterParams splitter;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "-o" && hasValue) output = args[++i];
        else if (a == "--stats") stats = true;
        else if (a == "--threads" && hasValue) threads = std::max(1, std::atoi(args[++i].c_str()));
        else if (parseLookaheadOption(args, i, splitter)) continue;
        else if (a == "--pose" && hasValue) {
            std::string error;
            const std::optional<Pose> pose = parsePoseArgument(args[++i], error);
            if (!pose) {
                printError(error);
                return kExitUsage;
            }
            poses.push_back(*pose);
        } else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("compile: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty()) {
        printError("compile: no input .map given");
        return kExitUsage;
    }
    std::optional<LoadedWorld> loaded = loadWorld(input);
    if (!loaded) return kExitInputError;
    if (!poses.empty()) loaded->world.poses = poses;
    // A pose given only a box is blocked as the game's own poses of its kind are.
    for (Pose& pose : loaded->world.poses) applyGameBlocking(loaded->game, pose);

    // A .obsp stores boxes: a round pose's two boxes there would answer as a box under its
    // name, so it is refused rather than written inexactly.
    for (const Pose& pose : loaded->world.poses)
        if (pose.shape.isRound() && !output.empty()) {
            printError("compile: pose '" + pose.name + "' is round (" + poseShapeText(pose.shape) +
                       "): .obsp stores box poses only; query the .map or .shallot instead");
            return kExitUsage;
        }
    CompileOptions options;
    options.threads = threads;
    options.splitter = splitter;
    World compiled = loaded->world;
    compiled.poses = treePoses(loaded->world.poses);
    const CompileResult result = compileWorld(compiled, options);
    if (!result.error.empty()) {
        printError(input + ": " + result.error);
        return kExitInputError;
    }
    for (const BrushProblem& p : result.problems) std::cerr << "warning: " << p.message << " (skipped)\n";
    if (!output.empty()) {
        // With the brushes (2% of id_e1m1's file) the runtime sweeps any box without the .map;
        // with a .map's movers and entities, query answers on the .obsp as on the .map.
        const std::optional<ObspMovers> movers = moversToStore(input, loaded->entities, loaded->game, result.onion.poses,
                                                               loaded->world.bounds, threads);
        const std::string error =
            saveObspFile(result.onion, output, &loaded->world.brushes, nullptr, nullptr, movers ? &*movers : nullptr);
        if (!error.empty()) {
            printError(error);
            return kExitInputError;
        }
    }
    if (stats) {
        QJsonObject json = statsJson(result, loaded->parseMs);
        json["game"] = gameName(loaded->game);
        printJsonLine(json);
    }
    return kExitOk;
}

} // namespace shallot::cli

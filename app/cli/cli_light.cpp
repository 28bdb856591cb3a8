// shallot-cli light: Quake's direct light of a level (docs/lighting.md), computed with
// shadows through the point pose's tree, as one JSON line of figures.
#include "cli_common.h"

#include "compile/stopwatch.h"
#include "light/tree_lighting.h"
#include "light/tree_occluder.h"

#include <iostream>

namespace shallot::cli {

int runLight(const std::vector<std::string>& args) {
    std::string input;
    bool stats = false;
    int threads = 1;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--stats") stats = true;
        else if (a == "--threads" && hasValue) threads = std::atoi(args[++i].c_str());
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("light: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || threads < 1) {
        printError("light: usage: light IN.map|IN.shallot [--stats] [--threads N]");
        return kExitUsage;
    }
    Stopwatch total;
    std::optional<LoadedWorld> loaded = loadWorld(input);
    if (!loaded) return kExitInputError;
    // Shadows: the point pose's tree (the first point pose; the default point when none).
    World world = std::move(loaded->world);
    const int point = pointPoseIndex(world.poses);
    Pose pose;
    pose.name = "point";
    if (point >= 0) pose = world.poses[size_t(point)];
    const std::vector<Brush>& brushes = world.brushes;
    World shadowWorld{brushes, {pose}, world.bounds};
    Stopwatch clock;
    CompileOptions options;
    options.threads = threads;
    CompileResult compiled = compileWorld(shadowWorld, options);
    if (!compiled.error.empty()) {
        printError("light: " + input + ": " + compiled.error);
        return kExitInputError;
    }
    const double compileMs = clock.lapMs();
    const LightInput in{&world.brushes, &loaded->entities, world.bounds, input};
    const LevelLighting lit = lightLevelInTree(in, compiled.onion, 0, threads);
    for (const std::string& w : lit.warnings) std::cerr << "warning: " << w << "\n";
    const LightStats& s = lit.stats;
    QJsonObject out{{"faces", qint64(s.faces)},
                    {"outside_faces", qint64(s.outsideFaces)},
                    {"lightmapped_faces", qint64(s.lightmappedFaces)},
                    {"luxels", qint64(s.luxels)},
                    {"lights", qint64(s.lights)},
                    {"rays", qint64(s.rays)},
                    {"sample_tests", qint64(s.sampleTests)},
                    {"pose", QString::fromStdString(pose.name)},
                    {"threads", threads},
                    {"warnings", qint64(lit.warnings.size())}};
    if (stats)
        out["ms"] = QJsonObject{{"parse", loaded->parseMs},     {"compile", compileMs},  {"entities", s.msEntities},
                                {"faces", s.msFaces},           {"light", s.msLight},
                                {"total", loaded->parseMs + total.lapMs()}};
    printJsonLine(out);
    return kExitOk;
}

} // namespace shallot::cli

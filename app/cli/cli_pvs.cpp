// shallot-cli pvs: the potentially visible set of a level's sight pose (what the eye sees),
// computed on that pose's own map tree (docs/visibility.md), as one JSON line of figures.
#include "cli_common.h"

#include <QJsonArray>

#include "compile/stopwatch.h"
#include "portal/leaf_visibility.h"
#include "portal/sight_map_tree.h"
#include "portal/potentially_visible_set.h"

namespace shallot::cli {

int runPvs(const std::vector<std::string>& args) {
    std::string input, fromText;
    bool fast = false, list = false;
    int threads = 2;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--fast") fast = true;
        else if (a == "--list") list = true;
        else if (a == "--from" && hasValue) fromText = args[++i];
        else if (a == "--threads" && hasValue) threads = std::atoi(args[++i].c_str());
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("pvs: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    std::optional<Vec3> from;
    if (!fromText.empty() && !(from = parsePoint(fromText))) {
        printError("pvs: --from '" + fromText + "' must be three finite numbers X,Y,Z");
        return kExitUsage;
    }
    if (input.empty() || threads < 1) {
        printError("pvs: usage: pvs IN.map|IN.shallot [--fast] [--from X,Y,Z [--list]] [--threads N]");
        return kExitUsage;
    }
    std::optional<LoadedWorld> loaded = loadWorld(input);
    if (!loaded) return kExitInputError;
    const World world = std::move(loaded->world);
    const int sight = sightPose(world.poses);
    if (sight < 0) {
        printError("pvs: " + input + ": no pose is a point at the reference point (what the eye sees)");
        return kExitInputError;
    }
    const std::string poseName = world.poses[size_t(sight)].name;
    Stopwatch clock;
    std::string error;
    const std::optional<BspTree> compiled =
        compileSightMapTree(world.brushes, world.poses[size_t(sight)], world.bounds, threads, nullptr, &error);
    if (!compiled) {
        printError("pvs: " + input + ": " + error);
        return kExitInputError;
    }
    const BspTree& tree = *compiled;
    const double compileMs = clock.lapMs();

    PvsSettings settings;
    settings.fullFlow = !fast;
    settings.threads = threads;
    PvsStats stats;
    const PotentiallyVisibleSet pvs = computePvs(tree, settings, &stats);
    QJsonObject out{{"pose", QString::fromStdString(poseName)},
                    {"flow", fast ? "base" : "full"},
                    {"leaves", qint64(tree.leafCount())},
                    {"empty_leaves", qint64(stats.emptyLeaves)},
                    {"outside_leaves", qint64(stats.outsideLeaves)},
                    {"one_way_portals", qint64(stats.oneWayPortals)},
                    {"average_visible", stats.averageVisible},
                    {"largest_visible", qint64(stats.largestVisible)},
                    {"ms", QJsonObject{{"compile", compileMs}, {"base", stats.baseMs}, {"flow", stats.flowMs}}}};
    if (from) {
        const int32_t leaf = tree.findLeaf(*from);
        const bool solid = tree.leafSolid[size_t(leaf)] & 1u;
        QJsonObject fromJson{{"leaf", leaf}, {"solid", solid}, {"visible", qint64(pvs.countFrom(leaf))}};
        // --list: the leaves it sees, in the sight pose's map tree (the tree the counts are of).
        if (list) {
            QJsonArray leaves;
            for (const int32_t seen : pvs.leavesFrom(leaf)) leaves.append(seen);
            fromJson["leaves"] = leaves;
        }
        out["from"] = fromJson;
    }
    printJsonLine(out);
    return kExitOk;
}

} // namespace shallot::cli

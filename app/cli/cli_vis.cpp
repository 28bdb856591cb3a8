// shallot-cli vis: computes the potentially visible set of a compiled tree's sight pose and
// stores it in the .obsp (Quake's vis; docs/visibility.md, "Stored in the .obsp"). Without
// -o the file is rewritten in place, through a temporary file renamed over it (a failed
// run leaves it as it was).
#include "cli_common.h"
#include "tree_source.h"

#include "io/obsp_format.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <thread>

namespace shallot::cli {

namespace {

// Leaves of the tree seen from a leaf inside (empty for the PVS's pose, out of the void's
// reach), on average and at most (rows of cluster bits ORed, then each leaf's clusters
// looked up), as the clusters' figures count them.
QJsonObject leafFigures(const BspTree& tree, const TreePvs& pvs) {
    const size_t words = pvs.clusterPvs.words();
    const std::vector<bool> outside = reachableFromOutside(tree, pvs.pose);
    std::vector<uint64_t> seen(words);
    size_t empty = 0, total = 0, largest = 0;
    for (size_t from = 0; from < tree.leafCount(); ++from) {
        if (((tree.leafSolid[from] >> pvs.pose) & 1u) || outside[from]) continue;
        std::fill(seen.begin(), seen.end(), 0);
        for (const int32_t c : pvs.clustersOf(int32_t(from)))
            for (size_t w = 0; w < words; ++w) seen[w] |= pvs.clusterPvs.row(c)[w];
        size_t count = 0;
        for (size_t to = 0; to < tree.leafCount(); ++to)
            count += std::ranges::any_of(pvs.clustersOf(int32_t(to)),
                                         [&](int32_t c) { return (seen[size_t(c) / 64] >> (size_t(c) % 64)) & 1u; });
        ++empty;
        total += count;
        largest = std::max(largest, count);
    }
    return QJsonObject{{"inside", qint64(empty)},
                       {"average_visible", empty ? double(total) / double(empty) : 0.0},
                       {"largest_visible", qint64(largest)},
                       {"clusters_per_leaf", double(pvs.clusters.size()) / double(std::max<size_t>(1, tree.leafCount()))}};
}

} // namespace

int runVis(const std::vector<std::string>& args) {
    std::string input, output;
    bool stats = false, fast = false;
    int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "-o" && hasValue) output = args[++i];
        else if (a == "--stats") stats = true;
        else if (a == "--fast") fast = true;
        else if (a == "--threads" && hasValue) threads = std::atoi(args[++i].c_str());
        else if (!a.empty() && a[0] != '-' && input.empty()) input = a;
        else {
            printError("vis: unexpected argument '" + a + "'");
            return kExitUsage;
        }
    }
    if (input.empty() || threads < 1) {
        printError("vis: usage: vis TREE.obsp [-o OUT.obsp] [--stats] [--fast] [--threads N]");
        return kExitUsage;
    }
    if (!hasExtension(input, ".obsp")) {
        printError("vis: " + input + " is not an .obsp: compile it first (shallot-cli compile IN.map -o TREE.obsp)");
        return kExitUsage;
    }
    ObspReadResult read = readObspFile(input);
    if (!read.tree) {
        printError("vis: " + input + ": " + read.error);
        return kExitInputError;
    }
    if (!read.pvsError.empty()) std::cerr << "warning: " << input << ": " << read.pvsError << " (computing it again)\n";
    const BspTree& tree = *read.tree;
    const int sight = sightPose(tree);
    if (sight < 0) {
        printError("vis: " + input + ": no pose is a point at the reference point (what the eye sees): no PVS to compute");
        return kExitInputError;
    }
    if (!read.brushes) {
        printError("vis: " + input + " keeps no brushes (written before format version 3, or without them): "
                   "compile the level again with shallot-cli compile -o");
        return kExitInputError;
    }
    TreePvsSettings settings;
    settings.fullFlow = !fast;
    settings.threads = threads;
    const TreePvsResult computed = computeTreePvs(tree, *read.brushes, settings);
    if (!computed.pvs) {
        printError("vis: " + input + ": " + computed.error);
        return kExitInputError;
    }
    const TreePvs& pvs = *computed.pvs;
    if (pvs.figures.leaks)
        std::cerr << "warning: " << input << ": the level leaks (every empty leaf is in reach of the void, "
                  << "no inside): every leaf sees every other\n";
    const std::string path = output.empty() ? input : output;
    // The lightmaps (shallot-cli light -o) and movers (compile -o) a file stores are kept.
    const LevelLighting* lighting = read.lighting ? &*read.lighting : nullptr;
    if (const std::string error = saveObspFile(tree, path, &*read.brushes, &pvs, lighting, read.movers.get());
        !error.empty()) {
        printError("vis: " + error);
        return kExitInputError;
    }
    const PvsStats& s = computed.stats;
    QJsonObject out{{"pose", QString::fromStdString(tree.poses[size_t(sight)].name)},
                    {"flow", fast ? "base" : "full"},
                    {"leaks", pvs.figures.leaks},
                    {"leaves", qint64(tree.leafCount())},
                    {"clusters", qint64(pvs.clusterCount())},
                    {"average_visible", pvs.figures.averageVisible},
                    {"largest_visible", qint64(pvs.figures.largestVisible)},
                    {"ms", QJsonObject{{"compile", computed.compileMs},
                                       {"base", s.baseMs},
                                       {"flow", s.flowMs},
                                       {"clusters", computed.clusterMs},
                                       {"total", pvs.figures.ms}}},
                    {"output", QString::fromStdString(path)}};
    if (stats) {
        std::error_code ec;
        out["stats"] = QJsonObject{{"one_way_portals", qint64(s.oneWayPortals)},
                                   {"empty_clusters", qint64(s.emptyLeaves)},
                                   {"outside_clusters", qint64(s.outsideLeaves)},
                                   {"leaves", leafFigures(tree, pvs)},
                                   {"file_bytes", qint64(std::filesystem::file_size(path, ec))}};
    }
    printJsonLine(out);
    return kExitOk;
}

} // namespace shallot::cli

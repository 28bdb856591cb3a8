#include "cli_common.h"

#include "io/map_reader.h"
#include "io/map_to_world.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <sys/resource.h>

namespace shallot::cli {

namespace {

constexpr int kClassifyPoints = 1 << 20; // random points per classify measurement

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double peakMemoryMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // Linux reports kilobytes
}

// Point classifications per second over random points in the world's brush bounds.
double classifyPerSecond(const BspTree& tree, const Aabb& box) {
    std::mt19937_64 rng(1);
    std::vector<Vec3> points(kClassifyPoints);
    for (Vec3& p : points)
        for (int i = 0; i < 3; ++i) p[i] = std::uniform_real_distribution<double>(box.mins[i], box.maxs[i])(rng);
    const auto start = std::chrono::steady_clock::now();
    uint64_t sink = 0;
    for (const Vec3& p : points) sink += tree.solidityAt(p);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (sink == 42) std::fputc(' ', stderr); // keep the loop from being optimised away
    return double(points.size()) / s;
}

} // namespace

int runBench(const std::vector<std::string>& args) {
    std::vector<std::string> maps;
    int runs = 3, threads = 1;
    bool json = false;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--runs" && i + 1 < args.size()) runs = std::max(1, std::atoi(args[++i].c_str()));
        else if (args[i] == "--threads" && i + 1 < args.size()) threads = std::max(1, std::atoi(args[++i].c_str()));
        else if (args[i] == "--json") json = true;
        else maps.push_back(args[i]);
    }
    if (maps.empty()) {
        printError("bench: give one or more .map files");
        return kExitUsage;
    }
    if (!json)
        std::printf("%-28s %7s %8s %8s %8s %8s %8s %8s %8s %8s %7s %6s %9s %7s\n", "map", "brushes", "parse", "expand",
                    "union", "maptrees", "onion", "solidity", "total", "nodes", "leaves", "depth", "classify/s", "peakMB");
    for (const std::string& path : maps) {
        std::vector<double> parse, validate, expand, unite, mapTrees, onion, solidity, total;
        CompileResult last;
        for (int r = 0; r < runs; ++r) {
            std::optional<LoadedWorld> loaded = loadWorld(path);
            if (!loaded) return kExitInputError;
            CompileOptions options;
            options.threads = threads;
            last = compileWorld(loaded->world, options);
            const CompileStats& s = last.stats;
            parse.push_back(loaded->parseMs);
            validate.push_back(s.msValidate);
            expand.push_back(s.msExpand);
            unite.push_back(s.msUnion);
            mapTrees.push_back(s.msMapTrees);
            onion.push_back(s.msOnion);
            solidity.push_back(s.msSolidity);
            total.push_back(loaded->parseMs + s.msTotal());
        }
        Aabb box;
        for (const LeafPolygon& p : last.onion.polygons)
            for (const Vec3& v : p.polygon.vertices) box.add(v);
        if (box.empty()) box = {Vec3::Constant(-1), Vec3::Constant(1)};
        const double classifyRate = classifyPerSecond(last.onion, box);
        const std::string name = path.substr(path.find_last_of('/') + 1);
        if (json) {
            QJsonObject stats = statsJson(last, median(parse));
            stats["map"] = QString::fromStdString(name);
            stats["runs"] = runs;
            stats["threads"] = threads;
            stats["ms"] = QJsonObject{{"parse", median(parse)},     {"validate", median(validate)},
                                      {"expand", median(expand)},   {"union", median(unite)},
                                      {"map_trees", median(mapTrees)}, {"onion", median(onion)},
                                      {"solidity", median(solidity)}, {"total", median(total)}};
            stats["classify_per_second"] = classifyRate;
            stats["peak_memory_mb"] = peakMemoryMb();
            printJsonLine(stats);
        } else {
            std::printf("%-28s %7zu %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8zu %7zu %6d %9.3g %7.1f\n", name.c_str(),
                        last.stats.brushes, median(parse), median(expand), median(unite), median(mapTrees), median(onion),
                        median(solidity), median(total), last.stats.nodes, last.stats.leaves, last.stats.depth,
                        classifyRate, peakMemoryMb());
        }
        std::fflush(stdout);
    }
    return kExitOk;
}

} // namespace shallot::cli

#include "cli_common.h"

#include "bench_workloads.h"

#include "compile/brush_expansion.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "query/box_trace.h"
#include "query/point_classify.h"
#include "query/point_locator.h"
#include "query/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <sys/resource.h>

namespace shallot::cli {

namespace {

constexpr int kClassifyPoints = 1 << 20; // random points per classify measurement
constexpr int kClassifyPasses = 5;       // passes over them; the rates are the medians
constexpr int kTraceSegmentsPerPose = 1 << 16; // random segments per pose per trace measurement
constexpr int kBruteSegmentsPerPose = 1000;    // the first ones of them, for the brute force
constexpr int kDefaultEdits = 15;              // single-brush moves timed incrementally
// The scaling table: pose counts (on the map as it is) and map copies (with Quake's poses).
constexpr int kScalingPoses[] = {1, 2, 4, 8};
constexpr double kScalingCopies[] = {0.5, 1, 2, 4};

double peakMemoryMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // Linux reports kilobytes
}

struct ClassifyRates {
    double single = 0.0;         // BspTree::solidityAt, one point at a time from the root
    double batch = 0.0;          // classifyPoints(tree) over the whole set
    double locatedSingle = 0.0;  // PointLocator::solidityAt, one point at a time
    double locatedBatch = 0.0;   // classifyPoints(locator) over the whole set
    double locatorMs = 0.0;      // building the PointLocator
    size_t locatorBytes = 0, locatorCells = 0, locatorCellNodes = 0;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Point classifications per second over random points in the world's brush bounds, the
// median of kClassifyPasses passes over them (one pass takes 40-200 ms; a single one
// varied by 10% between runs): from the tree's root and through a PointLocator (built in
// each pass, timed apart), one point at a time and in batches. All four must agree.
ClassifyRates classifyRates(const BspTree& tree, const Aabb& box) {
    std::mt19937_64 rng(1);
    std::vector<Vec3> points(kClassifyPoints);
    for (Vec3& p : points)
        for (int i = 0; i < 3; ++i) p[i] = std::uniform_real_distribution<double>(box.mins[i], box.maxs[i])(rng);
    std::vector<uint64_t> single(points.size()), batch(points.size()), located(points.size()),
        locatedBatch(points.size());
    std::vector<double> singleRates, batchRates, locatedRates, locatedBatchRates, locatorMs;
    ClassifyRates rates;
    auto rate = [&](std::chrono::steady_clock::time_point start) { return double(points.size()) / secondsSince(start); };
    for (int pass = 0; pass < kClassifyPasses; ++pass) {
        auto start = std::chrono::steady_clock::now();
        for (size_t i = 0; i < points.size(); ++i) single[i] = tree.solidityAt(points[i]);
        singleRates.push_back(rate(start));
        start = std::chrono::steady_clock::now();
        classifyPoints(tree, points, batch);
        batchRates.push_back(rate(start));
        start = std::chrono::steady_clock::now();
        const PointLocator locator(tree);
        locatorMs.push_back(secondsSince(start) * 1000.0);
        start = std::chrono::steady_clock::now();
        for (size_t i = 0; i < points.size(); ++i) located[i] = locator.solidityAt(points[i]);
        locatedRates.push_back(rate(start));
        start = std::chrono::steady_clock::now();
        classifyPoints(locator, points, locatedBatch);
        locatedBatchRates.push_back(rate(start));
        rates.locatorBytes = locator.bytes();
        rates.locatorCells = locator.cellCount();
        rates.locatorCellNodes = locator.cellNodeCount();
    }
    if (single != batch) std::fprintf(stderr, "warning: batched classification disagrees with solidityAt\n");
    if (single != located || single != locatedBatch)
        std::fprintf(stderr, "warning: the point locator disagrees with solidityAt\n");
    rates.single = median(singleRates);
    rates.batch = median(batchRates);
    rates.locatedSingle = median(locatedRates);
    rates.locatedBatch = median(locatedBatchRates);
    rates.locatorMs = median(locatorMs);
    return rates;
}

struct Segment {
    Vec3 from, to;
    Vec3 boxMins, boxMaxs; // the arbitrary box traced along it
};

double uniform(std::mt19937_64& rng, double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// Per pose, seeded random segments starting in the pose's empty space in `box`: random
// directions (a quarter axial), lengths 1-32 (30%), 32-256 (50%), 256-1024 (20%). Each
// carries an arbitrary box for traceBox: the pose's box with each face pulled in by up to a
// quarter of its extent (inside it, so the start stays empty), or for a point pose a random
// box up to 8 across. Fewer when the pose is solid almost everywhere in `box`.
std::vector<std::vector<Segment>> traceSegments(const BspTree& tree, const Aabb& box) {
    std::mt19937_64 rng(2);
    std::vector<std::vector<Segment>> out(tree.poses.size());
    for (size_t pose = 0; pose < tree.poses.size(); ++pose) {
        const Pose& p = tree.poses[pose];
        for (int attempt = 0; attempt < 100 * kTraceSegmentsPerPose && out[pose].size() < size_t(kTraceSegmentsPerPose);
             ++attempt) {
            Segment s;
            for (int i = 0; i < 3; ++i) s.from[i] = uniform(rng, box.mins[i], box.maxs[i]);
            if (tree.isSolid(s.from, int(pose))) continue;
            Vec3 dir;
            if (rng() % 4 == 0) {
                dir = Vec3::Zero();
                dir[int(rng() % 3)] = rng() % 2 ? 1.0 : -1.0;
            } else {
                do dir = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
                while (dir.norm() < 0.1 || dir.norm() > 1.0);
                dir.normalize();
            }
            const int kind = int(rng() % 10);
            const double length =
                kind < 3 ? uniform(rng, 1, 32) : kind < 8 ? uniform(rng, 32, 256) : uniform(rng, 256, 1024);
            s.to = s.from + length * dir;
            for (int i = 0; i < 3; ++i) {
                const double extent = p.maxs[i] - p.mins[i];
                s.boxMins[i] = p.isPoint() ? -uniform(rng, 0, 4) : p.mins[i] + extent * uniform(rng, 0, 0.25);
                s.boxMaxs[i] = p.isPoint() ? uniform(rng, 0, 4) : p.maxs[i] - extent * uniform(rng, 0, 0.25);
            }
            out[pose].push_back(s);
        }
    }
    return out;
}

// The brute force: a Cyrus-Beck sweep of the segment against every expanded brush that
// blocks the pose (no broad phase, no tree); the earliest entry.
struct BruteBrushes {
    std::vector<Plane> planes;
    std::vector<uint32_t> first; // brush b: planes[first[b], first[b + 1])

    BruteBrushes(const World& world, const Pose& pose) {
        first.push_back(0);
        for (const Brush& b : world.brushes) {
            if (!blocks(b, pose)) continue;
            const std::optional<BrushGeometry> g = buildBrushGeometry(b, world.bounds).geometry;
            if (!g) continue;
            const std::vector<Plane> expanded = expandedPlanes(*g, pose);
            planes.insert(planes.end(), expanded.begin(), expanded.end());
            first.push_back(uint32_t(planes.size()));
        }
    }

    double sweep(const Vec3& s, const Vec3& e) const {
        const Vec3 d = e - s;
        double best = 1.0;
        for (size_t b = 0; b + 1 < first.size(); ++b) {
            double enter = -1e300, leave = 1e300;
            for (uint32_t i = first[b]; i < first[b + 1] && enter < leave; ++i) {
                const double a = planes[i].signedDistance(s), dd = planes[i].normal.dot(d);
                if (dd == 0.0) {
                    if (a >= 0.0) leave = -1e300;
                } else if (dd < 0.0) {
                    enter = std::max(enter, -a / dd);
                } else {
                    leave = std::min(leave, -a / dd);
                }
            }
            if (enter < leave && leave > 0.0 && enter < best) best = std::max(enter, 0.0);
        }
        return best;
    }
};

struct TraceRates {
    double onion = 0, mapTree = 0, box = 0, brute = 0, hitFraction = 0;
};

// Seconds to trace segments[lo, hi).
template <class Trace>
double secondsFor(const std::vector<Segment>& segments, size_t lo, size_t hi, const Trace& trace) {
    double sink = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = lo; i < hi; ++i) sink += trace(segments[i]);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (sink == 42.4242) std::fputc(' ', stderr); // keep the loop from being optimised away
    return s;
}

// Segments per slice: the onion tree, the map tree and traceBox take turns slice by slice,
// so that a change in the machine's load falls on all three alike.
constexpr size_t kTraceSlice = 4096;

// Traces per second per pose, on the caller's thread (one core): the median of `runs`.
std::vector<TraceRates> traceRates(const World& world, const CompileResult& result, const Aabb& box, int runs) {
    if (!result.error.empty() || result.mapTrees.size() != result.onion.poses.size()) return {};
    const std::vector<std::vector<Segment>> segments = traceSegments(result.onion, box);
    const BoxTraceWorld boxes = BoxTraceWorld::build(world);
    std::vector<TraceRates> rates;
    for (size_t pose = 0; pose < segments.size(); ++pose) {
        const std::vector<Segment>& seg = segments[pose];
        if (seg.empty()) { // solid everywhere
            rates.emplace_back();
            continue;
        }
        const BspTree& onion = result.onion;
        const BspTree& mapTree = result.mapTrees[pose];
        const BruteBrushes brute(world, world.poses[pose]);
        const int p = int(pose);
        const auto onionTrace = [&](const Segment& s) { return traceSegment(onion, p, s.from, s.to).t; };
        const auto mapTrace = [&](const Segment& s) { return traceSegment(mapTree, 0, s.from, s.to).t; };
        const auto boxTrace = [&](const Segment& s) { return traceBox(boxes, s.boxMins, s.boxMaxs, s.from, s.to).t; };
        const auto bruteTrace = [&](const Segment& s) { return brute.sweep(s.from, s.to); };
        std::vector<double> onionRuns, mapRuns, boxRuns, bruteRuns;
        for (int r = 0; r < runs; ++r) {
            double onionSeconds = 0, mapSeconds = 0, boxSeconds = 0;
            for (size_t lo = 0; lo < seg.size(); lo += kTraceSlice) {
                const size_t hi = std::min(lo + kTraceSlice, seg.size());
                onionSeconds += secondsFor(seg, lo, hi, onionTrace);
                mapSeconds += secondsFor(seg, lo, hi, mapTrace);
                boxSeconds += secondsFor(seg, lo, hi, boxTrace);
            }
            const size_t bruteCount = std::min(seg.size(), size_t(kBruteSegmentsPerPose));
            onionRuns.push_back(double(seg.size()) / onionSeconds);
            mapRuns.push_back(double(seg.size()) / mapSeconds);
            boxRuns.push_back(double(seg.size()) / boxSeconds);
            bruteRuns.push_back(double(bruteCount) / secondsFor(seg, 0, bruteCount, bruteTrace));
        }
        size_t hits = 0;
        for (const Segment& s : seg) hits += traceSegment(onion, p, s.from, s.to).hit;
        rates.push_back({median(onionRuns), median(mapRuns), median(boxRuns), median(bruteRuns),
                         double(hits) / double(seg.size())});
    }
    return rates;
}

// All poses together: traces over total time (equal counts per pose; poses without
// segments left out).
TraceRates overall(const std::vector<TraceRates>& rates) {
    TraceRates all;
    auto combine = [&](double TraceRates::*field) {
        double seconds = 0.0, count = 0.0;
        for (const TraceRates& r : rates)
            if (r.*field > 0.0) {
                seconds += 1.0 / (r.*field);
                count += 1.0;
            }
        return seconds > 0.0 ? count / seconds : 0.0;
    };
    all.onion = combine(&TraceRates::onion);
    all.mapTree = combine(&TraceRates::mapTree);
    all.box = combine(&TraceRates::box);
    all.brute = combine(&TraceRates::brute);
    for (const TraceRates& r : rates) all.hitFraction += r.hitFraction / double(rates.size());
    return all;
}

QJsonObject ratesJson(const TraceRates& r) {
    return QJsonObject{{"onion", r.onion},
                       {"map_tree", r.mapTree},
                       {"box", r.box},
                       {"brute_force", r.brute},
                       {"onion_vs_map_tree", r.mapTree > 0 ? r.onion / r.mapTree : 0.0},
                       {"hit_fraction", r.hitFraction}};
}

struct BenchOptions {
    int runs = 3, threads = 1, edits = kDefaultEdits;
    SplitterParams splitter;
    int poses = 0;      // 0: the map's own (Quake's three)
    double copies = 1;  // copiedWorld
    bool json = false, scaling = false;
};

// The median phase timings of `runs` compiles from scratch, and the last result.
struct CompileRuns {
    std::vector<double> validate, expand, unite, mapTrees, onion, solidity, portals, total;
    CompileResult last;
};

CompileRuns compileRuns(const World& world, int runs, int threads, const SplitterParams& splitter) {
    CompileRuns out;
    CompileOptions options;
    options.threads = threads;
    options.splitter = splitter;
    for (int r = 0; r < runs; ++r) {
        out.last = {}; // one tree in memory at a time, for the peak memory figure
        out.last = compileWorld(world, options);
        const CompileStats& s = out.last.stats;
        out.validate.push_back(s.msValidate);
        out.expand.push_back(s.msExpand);
        out.unite.push_back(s.msUnion);
        out.mapTrees.push_back(s.msMapTrees);
        out.onion.push_back(s.msOnion);
        out.solidity.push_back(s.msSolidity);
        out.portals.push_back(s.msPortals);
        out.total.push_back(s.msTotal());
    }
    return out;
}

// The onion against the per-pose map trees it stands for.
QJsonObject treeQualityJson(const CompileResult& r) {
    size_t nodes = 0, leaves = 0;
    int depth = 0;
    for (const BspTree& t : r.mapTrees) {
        nodes += t.nodes.size();
        leaves += t.leafCount();
        depth = std::max(depth, t.depth());
    }
    return QJsonObject{{"onion_nodes", qint64(r.onion.nodes.size())},
                       {"onion_leaves", qint64(r.onion.leafCount())},
                       {"onion_depth", r.onion.depth()},
                       {"map_tree_nodes_sum", qint64(nodes)},
                       {"map_tree_leaves_sum", qint64(leaves)},
                       {"map_tree_depth_max", depth},
                       {"onion_vs_map_tree_nodes", nodes > 0 ? double(r.onion.nodes.size()) / double(nodes) : 0.0}};
}

World benchWorld(World world, const BenchOptions& options) {
    if (options.poses > 0) world.poses = syntheticPoses(options.poses);
    return options.copies == 1 ? world : copiedWorld(world, options.copies);
}

// One line of the scaling table per configuration, with one thread and with two.
void printScaling(const std::string& name, const World& world, const BenchOptions& options) {
    auto line = [&](const std::string& what, const World& w) {
        const CompileRuns one = compileRuns(w, options.runs, 1, options.splitter);
        const CompileRuns two = compileRuns(w, options.runs, 2, options.splitter);
        const CompileStats& s = one.last.stats;
        if (options.json) {
            printJsonLine(QJsonObject{{"map", QString::fromStdString(name)},   {"scaling", QString::fromStdString(what)},
                                      {"brushes", qint64(s.brushes)},          {"poses", qint64(s.poses)},
                                      {"ms_one_thread", median(one.total)},    {"ms_two_threads", median(two.total)},
                                      {"nodes", qint64(s.nodes)},              {"leaves", qint64(s.leaves)},
                                      {"portals", qint64(s.portals)},          {"peak_memory_mb", peakMemoryMb()}});
        } else {
            std::printf("%-24s %-10s %7zu %5zu %10.1f %10.1f %8zu %8zu %8zu\n", name.c_str(), what.c_str(), s.brushes,
                        s.poses, median(one.total), median(two.total), s.nodes, s.leaves, s.portals);
        }
        std::fflush(stdout);
    };
    if (!options.json)
        std::printf("%-24s %-10s %7s %5s %10s %10s %8s %8s %8s\n", "map", "scaling", "brushes", "poses", "ms 1 thr",
                    "ms 2 thr", "nodes", "leaves", "portals");
    for (int poses : kScalingPoses) {
        World w = world;
        w.poses = syntheticPoses(poses);
        line("poses=" + std::to_string(poses), w);
    }
    for (double copies : kScalingCopies) {
        char label[32];
        std::snprintf(label, sizeof label, "copies=%g", copies);
        line(label, copiedWorld(world, copies));
    }
}

} // namespace

int runBench(const std::vector<std::string>& args) {
    if (std::find(args.begin(), args.end(), "--capsule-vs-planes") != args.end()) return runCapsuleVsPlanes(args);
    std::vector<std::string> maps;
    BenchOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        const bool hasValue = i + 1 < args.size();
        if (args[i] == "--runs" && hasValue) options.runs = std::max(1, std::atoi(args[++i].c_str()));
        else if (args[i] == "--threads" && hasValue) options.threads = std::max(1, std::atoi(args[++i].c_str()));
        else if (args[i] == "--edits" && hasValue) options.edits = std::max(0, std::atoi(args[++i].c_str()));
        else if (args[i] == "--poses" && hasValue) options.poses = std::clamp(std::atoi(args[++i].c_str()), 1, kMaxPoses);
        else if (args[i] == "--copies" && hasValue) options.copies = std::clamp(std::atof(args[++i].c_str()), 0.1, 16.0);
        else if (args[i] == "--split-weight" && hasValue) options.splitter.splitWeight = std::atof(args[++i].c_str());
        else if (args[i] == "--balance-weight" && hasValue) options.splitter.balanceWeight = std::atof(args[++i].c_str());
        else if (args[i] == "--balance-free-depth" && hasValue)
            options.splitter.balanceFreeDepth = std::max(0, std::atoi(args[++i].c_str()));
        else if (args[i] == "--balance-depth-step" && hasValue)
            options.splitter.balanceDepthStep = std::max(0.0, std::atof(args[++i].c_str()));
        else if (args[i] == "--coplanar-weight" && hasValue) options.splitter.coplanarWeight = std::atof(args[++i].c_str());
        else if (args[i] == "--max-candidates" && hasValue)
            options.splitter.maxCandidates = size_t(std::max(1, std::atoi(args[++i].c_str())));
        else if (args[i] == "--max-scored" && hasValue)
            options.splitter.maxScored = size_t(std::max(1, std::atoi(args[++i].c_str())));
        else if (parseLookaheadOption(args, i, options.splitter)) continue;
        else if (args[i] == "--scaling") options.scaling = true;
        else if (args[i] == "--json") options.json = true;
        else maps.push_back(args[i]);
    }
    if (maps.empty()) {
        printError("bench: give one or more .map files");
        return kExitUsage;
    }
    if (!options.json && !options.scaling)
        std::printf("%-28s %7s %8s %8s %8s %8s %8s %8s %8s %8s %8s %7s %6s %9s %9s %9s %7s %9s %9s %9s %9s %8s\n", "map",
                    "brushes", "parse", "expand", "union", "maptrees", "onion", "solidity", "portals", "total", "nodes",
                    "leaves", "depth", "classify/s", "batch/s", "located/s", "peakMB", "trace/s", "maptree/s", "box/s", "brute/s", "edit ms");
    for (const std::string& path : maps) {
        std::vector<double> parse;
        std::optional<LoadedWorld> loaded;
        for (int r = 0; r < options.runs; ++r) {
            loaded = loadWorld(path);
            if (!loaded) return kExitInputError;
            parse.push_back(loaded->parseMs);
        }
        const std::string name = path.substr(path.find_last_of('/') + 1);
        if (options.scaling) {
            printScaling(name, loaded->world, options);
            continue;
        }
        const World world = benchWorld(std::move(loaded->world), options);
        const CompileRuns runs = compileRuns(world, options.runs, options.threads, options.splitter);
        const CompileResult& last = runs.last;
        const double compilePeakMb = peakMemoryMb(); // before the query benchmarks allocate theirs
        std::vector<double> total = runs.total;
        for (size_t r = 0; r < total.size(); ++r) total[r] += parse[r];
        Aabb box = last.onion.polygonBounds();
        if (box.empty()) box = {Vec3::Constant(-1), Vec3::Constant(1)};
        const ClassifyRates classify = classifyRates(last.onion, box);
        const std::vector<TraceRates> perPose = traceRates(world, last, box, options.runs);
        const TraceRates traces = overall(perPose);
        CompileOptions editOptions;
        editOptions.threads = options.threads;
        editOptions.splitter = options.splitter;
        const EditLatency edits = incrementalEditLatency(world, editOptions, options.edits);
        if (options.json) {
            QJsonObject stats = statsJson(last, median(parse));
            stats["map"] = QString::fromStdString(name);
            stats["runs"] = options.runs;
            stats["threads"] = options.threads;
            stats["copies"] = options.copies;
            stats["splitter"] = QJsonObject{{"split_weight", options.splitter.splitWeight},
                                            {"balance_weight", options.splitter.balanceWeight},
                                            {"balance_free_depth", options.splitter.balanceFreeDepth},
                                            {"balance_depth_step", options.splitter.balanceDepthStep},
                                            {"coplanar_weight", options.splitter.coplanarWeight},
                                            {"max_candidates", double(options.splitter.maxCandidates)},
                                            {"max_scored", double(options.splitter.maxScored)},
                                            {"lookahead_below", double(options.splitter.lookaheadBelow)},
                                            {"lookahead_candidates", double(options.splitter.lookaheadCandidates)}};
            stats["ms"] = QJsonObject{{"parse", median(parse)},           {"validate", median(runs.validate)},
                                      {"expand", median(runs.expand)},     {"union", median(runs.unite)},
                                      {"map_trees", median(runs.mapTrees)}, {"onion", median(runs.onion)},
                                      {"solidity", median(runs.solidity)}, {"portals", median(runs.portals)},
                                      {"total", median(total)}};
            stats["classify_per_second"] = classify.single;
            stats["classify_batch_per_second"] = classify.batch;
            stats["classify_located_per_second"] = classify.locatedSingle;
            stats["classify_located_batch_per_second"] = classify.locatedBatch;
            stats["point_locator"] = QJsonObject{{"ms", classify.locatorMs},
                                                 {"bytes", double(classify.locatorBytes)},
                                                 {"cells", double(classify.locatorCells)},
                                                 {"cell_nodes", double(classify.locatorCellNodes)}};
            QJsonObject traceJson = ratesJson(traces);
            QJsonObject poses;
            for (size_t i = 0; i < perPose.size(); ++i)
                poses[QString::fromStdString(last.onion.poses[i].name)] = ratesJson(perPose[i]);
            traceJson["poses"] = poses;
            traceJson["segments_per_pose"] = kTraceSegmentsPerPose;
            traceJson["brute_force_segments_per_pose"] = kBruteSegmentsPerPose;
            stats["traces_per_second"] = traceJson;
            stats["tree_quality"] = treeQualityJson(last);
            stats["incremental_edit"] = QJsonObject{{"edits", qint64(edits.ms.size())},
                                                    {"incremental", edits.incremental},
                                                    {"median_ms", edits.medianMs()},
                                                    {"max_ms", edits.max()}};
            stats["peak_memory_mb"] = peakMemoryMb();
            stats["peak_memory_mb_compile"] = compilePeakMb;
            printJsonLine(stats);
        } else {
            std::printf("%-28s %7zu %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8zu %7zu %6d %9.3g %9.3g %9.3g %7.1f %9.3g "
                        "%9.3g %9.3g %9.3g %8.1f\n",
                        name.c_str(), last.stats.brushes, median(parse), median(runs.expand), median(runs.unite),
                        median(runs.mapTrees), median(runs.onion), median(runs.solidity), median(runs.portals),
                        median(total), last.stats.nodes, last.stats.leaves, last.stats.depth, classify.single, classify.batch,
                        classify.locatedSingle,
                        peakMemoryMb(), traces.onion, traces.mapTree, traces.box, traces.brute, edits.medianMs());
        }
        std::fflush(stdout);
    }
    return kExitOk;
}

} // namespace shallot::cli

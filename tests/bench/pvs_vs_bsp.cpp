// How tight Shallot's PVS is against the PVS of a Quake .bsp of the same map (issue 39's
// "Tight": ericw-tools' qbsp + vis; docs/visibility.md, "Against ericw-tools vis"). Not a
// test: it samples and times things.
//
//   pvs_vs_bsp LEVEL.bsp LEVEL.map [--pairs N] [--samples S] [--seed X] [--threads T] [--fast]
//              [--structural] [--examples K]
//
// Shallot: the map compiled for its sight pose alone, the full-flow PVS of that pose's map
// tree (SightPvs: the clusters; --fast: the base flow, for levels whose full flow is too
// slow; --structural: its func_detail* brushes clustered as the editor does, as Quake's vis
// flows through structural brushes only: the clusters are the leaves of the other brushes'
// tree, solid where detail fills them; "clear" and "empty" below still use every brush).
// The .bsp: its world leaves and visdata (io/quake_bsp_reader).
//
// N random pairs of points are drawn uniformly in the .bsp's world box, each point empty for
// Shallot's sight pose (in a cluster out of the void's reach) and in a non-solid leaf of the
// .bsp with a PVS row. Per pair:
//  - clear: the segment between the two points meets no solid (Shallot's exact trace);
//  - per side (Shallot's clusters, the .bsp's leaves), whether the two points' cells see each
//    other, by sampling: the pair's own segment, then up to S segments between random points
//    of the two cells (drawn in the cells' boxes and kept when they fall in the cell), each
//    traced exactly through Shallot's tree; "seen" when one is clear, "not seen" otherwise;
//  - what each PVS says.
// Reported: the misses of each PVS (clear segments, and cells seen by sampling, that it rules
// out), and for pairs not seen the share each PVS still calls visible: on its own cells, on the
// pairs neither side's sampling saw, and on the pairs whose own segment is blocked.
// "Not seen" is an upper bound on invisibility (a slit the samples miss is seen by a true
// PVS), so the shares are upper bounds on each PVS's excess over exact leaf visibility.
// --examples K prints up to K pairs neither side saw that Shallot calls visible and the .bsp
// does not, one JSON line each, to look at.
#include "compile/compiler.h"
#include "compile/stopwatch.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/quake_bsp_reader.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "portal/sight_pvs.h"
#include "query/trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

using namespace shallot;

namespace {

// A .bsp's leaf bounds are whole units rounded outward (floor/ceil of the cell's box); this
// much more on each side keeps a cell's box around all of the cell despite float rounding.
constexpr double kLeafBoxPad = 1.0;
// Tries to draw a point of a cell in its box before giving up on that segment (a cell far
// thinner than its box: a sliver along a slanted plane).
constexpr int kCellPointTries = 64;
// Tries to draw one empty point of the level in the world box before giving up.
constexpr int kLevelPointTries = 100000;

struct Options {
    std::string bspPath, mapPath;
    size_t pairs = 100000;
    int samples = 200;
    uint64_t seed = 39;
    int threads = 2;
    bool fast = false;
    bool structural = false;
    size_t examples = 0;
};

// The cells of one side: their boxes and which cell a point is in.
struct CellSide {
    std::vector<Aabb> boxes;
    std::function<int32_t(const Vec3&)> cellOf;
};

bool randomPointOf(const CellSide& side, int32_t cell, std::mt19937_64& random, Vec3* out) {
    const Aabb& box = side.boxes[size_t(cell)];
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int t = 0; t < kCellPointTries; ++t) {
        const Vec3 p = box.mins + (box.maxs - box.mins).cwiseProduct(Vec3(unit(random), unit(random), unit(random)));
        if (side.cellOf(p) == cell) {
            *out = p;
            return true;
        }
    }
    return false;
}

bool segmentClear(const BspTree& tree, const Vec3& a, const Vec3& b) {
    const TraceResult r = traceSegment(tree, 0, a, b);
    return !r.startSolid && !r.hit;
}

// Whether some sampled segment between the two cells is clear.
bool cellsSeeEachOther(const BspTree& tree, const CellSide& side, int32_t a, int32_t b, int samples, uint64_t seed) {
    std::mt19937_64 random(seed);
    for (int s = 0; s < samples; ++s) {
        Vec3 p, q;
        if (!randomPointOf(side, a, random, &p) || !randomPointOf(side, b, random, &q)) continue;
        if (segmentClear(tree, p, q)) return true;
    }
    return false;
}

uint64_t pairKey(int32_t a, int32_t b) {
    if (a > b) std::swap(a, b);
    return uint64_t(uint32_t(a)) << 32 | uint32_t(b);
}

// Samples every pair of cells in `keys` (those whose own segment was blocked) on `threads`
// threads; each pair gets its own seed, so the answer does not depend on the thread count.
std::unordered_map<uint64_t, bool> sampleCellPairs(const BspTree& tree, const CellSide& side,
                                                   const std::vector<uint64_t>& keys, const Options& o) {
    std::vector<char> seen(keys.size(), 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < o.threads; ++t)
        workers.emplace_back([&, t] {
            for (size_t i = size_t(t); i < keys.size(); i += size_t(o.threads))
                seen[i] = cellsSeeEachOther(tree, side, int32_t(keys[i] >> 32), int32_t(keys[i] & 0xffffffffu),
                                            o.samples, o.seed * 1000003u + keys[i]);
        });
    for (std::thread& w : workers) w.join();
    std::unordered_map<uint64_t, bool> out;
    for (size_t i = 0; i < keys.size(); ++i) out[keys[i]] = seen[i] != 0;
    return out;
}

bool parse(int argc, char** argv, Options* o) {
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool value = i + 1 < argc;
        if (a == "--pairs" && value) o->pairs = size_t(std::atoll(argv[++i]));
        else if (a == "--samples" && value) o->samples = std::atoi(argv[++i]);
        else if (a == "--seed" && value) o->seed = uint64_t(std::atoll(argv[++i]));
        else if (a == "--threads" && value) o->threads = std::atoi(argv[++i]);
        else if (a == "--fast") o->fast = true;
        else if (a == "--structural") o->structural = true;
        else if (a == "--examples" && value) o->examples = size_t(std::atoll(argv[++i]));
        else if (!a.empty() && a[0] != '-') files.push_back(a);
        else return false;
    }
    if (files.size() != 2 || o->pairs == 0 || o->samples < 0 || o->threads < 1) return false;
    o->bspPath = files[0];
    o->mapPath = files[1];
    return true;
}

struct Counts {
    size_t pairs = 0;
    size_t clear = 0, clearMissShallot = 0, clearMissBsp = 0;
    size_t blocked = 0, blockedShallot = 0, blockedBsp = 0;
    size_t unseenShallotCells = 0, unseenShallotCellsPvs = 0, seenShallotCellsMiss = 0;
    size_t unseenBspCells = 0, unseenBspCellsPvs = 0, seenBspCellsMiss = 0;
    size_t unseenBoth = 0, unseenBothShallot = 0, unseenBothBsp = 0;
};

double share(size_t part, size_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; }

} // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        std::fprintf(stderr, "usage: pvs_vs_bsp LEVEL.bsp LEVEL.map [--pairs N] [--samples S] [--seed X] [--threads T] [--fast] [--structural] [--examples K]\n");
        return 2;
    }
    const QuakeBspReadResult read = readQuakeBspFile(o.bspPath);
    if (!read.bsp) {
        std::fprintf(stderr, "%s\n", read.error.c_str());
        return 1;
    }
    const QuakeBsp& bsp = *read.bsp;
    if (!bsp.hasVisibility()) {
        std::fprintf(stderr, "%s: no visdata (run vis on it)\n", o.bspPath.c_str());
        return 1;
    }
    const MapReadResult map = readMapFile(o.mapPath);
    if (!map.ok()) {
        std::fprintf(stderr, "%s\n", map.error.format().c_str());
        return 1;
    }
    World world = worldFromMap(*map.map);
    const int sight = sightPose(world.poses);
    if (sight < 0) {
        std::fprintf(stderr, "%s: no point pose\n", o.mapPath.c_str());
        return 1;
    }
    world.poses = {world.poses[size_t(sight)]};
    Stopwatch clock;
    CompileOptions compileOptions;
    compileOptions.threads = o.threads;
    const CompileResult compiled = compileWorld(world, compileOptions);
    if (!compiled.error.empty()) {
        std::fprintf(stderr, "%s: %s\n", o.mapPath.c_str(), compiled.error.c_str());
        return 1;
    }
    const double compileMs = clock.lapMs();
    SightPvsSettings pvsSettings;
    pvsSettings.threads = o.threads;
    pvsSettings.fullFlow = !o.fast;
    if (o.structural) pvsSettings.detail = detailBrushes(world, map.map->entities, 0);
    std::string error;
    const std::shared_ptr<const SightPvs> pvs = SightPvs::compute(compiled, world, pvsSettings, &error);
    if (!pvs) {
        std::fprintf(stderr, "%s: %s\n", o.mapPath.c_str(), error.c_str());
        return 1;
    }
    const double pvsMs = clock.lapMs();
    const BspTree& tree = pvs->clusterTree();
    const std::vector<bool> outside = reachableFromOutside(tree, 0);
    // The solids that decide "clear" and "empty": every brush's.
    const BspTree& solids = compiled.mapTrees[0];

    CellSide shallotSide{pvs->clusterBounds(), [&tree](const Vec3& p) { return tree.findLeaf(p); }};
    CellSide bspSide;
    for (const QuakeBspLeaf& leaf : bsp.leaves)
        bspSide.boxes.push_back({leaf.mins - Vec3::Constant(kLeafBoxPad), leaf.maxs + Vec3::Constant(kLeafBoxPad)});
    bspSide.cellOf = [&bsp](const Vec3& p) { return bsp.findLeaf(p); };

    // The pairs of points.
    std::mt19937_64 random(o.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    size_t rejectedShallot = 0, rejectedBsp = 0;
    const auto levelPoint = [&](Vec3* p) {
        for (int t = 0; t < kLevelPointTries; ++t) {
            *p = bsp.worldMins + (bsp.worldMaxs - bsp.worldMins).cwiseProduct(Vec3(unit(random), unit(random), unit(random)));
            const int32_t leaf = bsp.findLeaf(*p);
            const bool bspEmpty = leaf >= 1 && leaf <= bsp.visLeafs && bsp.leaves[size_t(leaf)].contents != kQuakeContentsSolid;
            const int32_t cluster = tree.findLeaf(*p);
            const bool shallotEmpty = !solids.isSolid(*p, 0) && !(tree.leafSolid[size_t(cluster)] & 1u) &&
                                      !outside[size_t(cluster)];
            if (bspEmpty && shallotEmpty) return true;
            rejectedBsp += !bspEmpty;
            rejectedShallot += !shallotEmpty;
        }
        return false;
    };
    struct Pair {
        Vec3 p, q;
        int32_t cp, cq, lp, lq;
        bool clear;
    };
    std::vector<Pair> pairs(o.pairs);
    for (Pair& pair : pairs) {
        if (!levelPoint(&pair.p) || !levelPoint(&pair.q)) {
            std::fprintf(stderr, "no empty point found in %d tries\n", kLevelPointTries);
            return 1;
        }
        pair.cp = tree.findLeaf(pair.p);
        pair.cq = tree.findLeaf(pair.q);
        pair.lp = bsp.findLeaf(pair.p);
        pair.lq = bsp.findLeaf(pair.q);
    }
    {
        std::vector<std::thread> workers;
        for (int t = 0; t < o.threads; ++t)
            workers.emplace_back([&, t] {
                for (size_t i = size_t(t); i < pairs.size(); i += size_t(o.threads))
                    pairs[i].clear = segmentClear(solids, pairs[i].p, pairs[i].q);
            });
        for (std::thread& w : workers) w.join();
    }
    const double pairsMs = clock.lapMs();

    // The cell pairs whose own segment was blocked, sampled once each.
    std::vector<uint64_t> shallotKeys, bspKeys;
    for (const Pair& pair : pairs)
        if (!pair.clear) {
            shallotKeys.push_back(pairKey(pair.cp, pair.cq));
            bspKeys.push_back(pairKey(pair.lp, pair.lq));
        }
    for (std::vector<uint64_t>* keys : {&shallotKeys, &bspKeys}) {
        std::sort(keys->begin(), keys->end());
        keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
    }
    const auto shallotSeen = sampleCellPairs(solids, shallotSide, shallotKeys, o);
    const auto bspSeen = sampleCellPairs(solids, bspSide, bspKeys, o);
    const double samplingMs = clock.lapMs();

    Counts n;
    std::vector<const Pair*> examples;
    for (const Pair& pair : pairs) {
        ++n.pairs;
        const bool shallotPvs = pvs->clusterPvs().visible(pair.cp, pair.cq);
        const bool bspPvs = bsp.visible(pair.lp, pair.lq);
        if (pair.clear) {
            ++n.clear;
            n.clearMissShallot += !shallotPvs;
            n.clearMissBsp += !bspPvs;
            continue; // both cells see each other through this very segment
        }
        ++n.blocked;
        n.blockedShallot += shallotPvs;
        n.blockedBsp += bspPvs;
        const bool shallotCellsSeen = shallotSeen.at(pairKey(pair.cp, pair.cq));
        const bool bspCellsSeen = bspSeen.at(pairKey(pair.lp, pair.lq));
        if (shallotCellsSeen) n.seenShallotCellsMiss += !shallotPvs;
        else {
            ++n.unseenShallotCells;
            n.unseenShallotCellsPvs += shallotPvs;
        }
        if (bspCellsSeen) n.seenBspCellsMiss += !bspPvs;
        else {
            ++n.unseenBspCells;
            n.unseenBspCellsPvs += bspPvs;
        }
        if (!shallotCellsSeen && !bspCellsSeen) {
            ++n.unseenBoth;
            n.unseenBothShallot += shallotPvs;
            n.unseenBothBsp += bspPvs;
            if (shallotPvs && !bspPvs && examples.size() < o.examples) examples.push_back(&pair);
        }
    }

    double bspAverage = 0;
    size_t bspCounted = 0;
    for (int32_t leaf = 1; leaf <= bsp.visLeafs; ++leaf)
        if (bsp.leaves[size_t(leaf)].contents != kQuakeContentsSolid) {
            bspAverage += double(bsp.countVisible(leaf));
            ++bspCounted;
        }
    bspAverage /= double(std::max<size_t>(bspCounted, 1));

    std::printf("%s: %s, %zu leaves (%d with a PVS row), average visible %.1f over its non-solid leaves\n",
                o.bspPath.c_str(), bsp.format.c_str(), bsp.leaves.size(), bsp.visLeafs, bspAverage);
    std::printf("shallot: %zu clusters (%zu filled with detail), average visible %.1f (largest %zu), compile %.0f ms, "
                "%s PVS %.0f ms (%d threads)\n",
                tree.leafCount(), pvs->filledClusters(), pvs->figures().averageLeaves, pvs->figures().largestLeaves,
                compileMs, o.fast ? "base-flow" : "full-flow", pvsMs, o.threads);
    std::printf("points rejected: %zu not empty for shallot (solid or in reach of the void), %zu not in a non-solid "
                ".bsp leaf\n", rejectedShallot, rejectedBsp);
    std::printf("%zu pairs; %zu clear segments: misses shallot %zu, bsp %zu\n", n.pairs, n.clear, n.clearMissShallot,
                n.clearMissBsp);
    std::printf("blocked segments %zu: called visible by shallot %.2f%%, bsp %.2f%%\n", n.blocked,
                share(n.blockedShallot, n.blocked), share(n.blockedBsp, n.blocked));
    std::printf("cells not seen in %d samples, own cells: shallot %zu pairs, %.2f%% called visible; bsp %zu pairs, "
                "%.2f%% called visible\n", o.samples, n.unseenShallotCells,
                share(n.unseenShallotCellsPvs, n.unseenShallotCells), n.unseenBspCells,
                share(n.unseenBspCellsPvs, n.unseenBspCells));
    std::printf("cells not seen by either side: %zu pairs: shallot %.2f%%, bsp %.2f%% called visible\n", n.unseenBoth,
                share(n.unseenBothShallot, n.unseenBoth), share(n.unseenBothBsp, n.unseenBoth));
    std::printf("cells seen by sampling but ruled out by the PVS (misses): shallot %zu, bsp %zu\n",
                n.seenShallotCellsMiss, n.seenBspCellsMiss);
    std::printf("times: pairs %.0f ms, sampling %zu + %zu cell pairs %.0f ms\n", pairsMs, shallotKeys.size(),
                bspKeys.size(), samplingMs);
    std::printf("{\"bsp\":\"%s\",\"map\":\"%s\",\"flow\":\"%s\",\"structural\":%s,\"pairs\":%zu,\"samples\":%d,\"seed\":%llu,\"clear\":%zu,"
                "\"clear_miss_shallot\":%zu,\"clear_miss_bsp\":%zu,\"blocked\":%zu,\"blocked_pvs_shallot\":%zu,"
                "\"blocked_pvs_bsp\":%zu,\"unseen_shallot_cells\":%zu,\"unseen_shallot_cells_pvs\":%zu,"
                "\"unseen_bsp_cells\":%zu,\"unseen_bsp_cells_pvs\":%zu,\"unseen_both\":%zu,\"unseen_both_pvs_shallot\":%zu,"
                "\"unseen_both_pvs_bsp\":%zu,\"seen_cells_miss_shallot\":%zu,\"seen_cells_miss_bsp\":%zu,"
                "\"shallot_clusters\":%zu,\"shallot_average_visible\":%.1f,\"bsp_leaves\":%d,\"bsp_average_visible\":%.1f,"
                "\"ms\":{\"compile\":%.0f,\"pvs\":%.0f,\"sampling\":%.0f}}\n",
                o.bspPath.c_str(), o.mapPath.c_str(), o.fast ? "base" : "full", o.structural ? "true" : "false", n.pairs, o.samples, (unsigned long long)o.seed, n.clear,
                n.clearMissShallot, n.clearMissBsp, n.blocked, n.blockedShallot, n.blockedBsp, n.unseenShallotCells,
                n.unseenShallotCellsPvs, n.unseenBspCells, n.unseenBspCellsPvs, n.unseenBoth, n.unseenBothShallot,
                n.unseenBothBsp, n.seenShallotCellsMiss, n.seenBspCellsMiss, tree.leafCount(),
                pvs->figures().averageLeaves, bsp.visLeafs, bspAverage, compileMs, pvsMs, samplingMs);
    for (const Pair* e : examples)
        std::printf("{\"example\":\"shallot visible, bsp not\",\"from\":[%.3f,%.3f,%.3f],\"to\":[%.3f,%.3f,%.3f],"
                    "\"clusters\":[%d,%d],\"bsp_leaves\":[%d,%d]}\n",
                    e->p.x(), e->p.y(), e->p.z(), e->q.x(), e->q.y(), e->q.z(), e->cp, e->cq, e->lp, e->lq);
    return 0;
}

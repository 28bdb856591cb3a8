// What an edit costs the live PVS (issue 39, "Live"; docs/visibility.md): a level (default
// ../shared/maps/id_e1m1.map) compiled for its point pose as the editor compiles it
// (IncrementalCompiler), the full flow of its sight map tree from scratch (waves by size, as
// `shallot-cli pvs`, and by key, what an update needs), then one-brush edits (a random brush
// moved kNudge units and back): per edit the incremental compile, the portals of the map
// tree and the editor's SightPvs updated from the one before it (its flow: updatePvs; in
// all: with the onion's clusters and view weights), and before it the provisional SightPvs
// the editor shows at once (provisionalPvs: kept final sets, base sets through the edit),
// with the average leaves each sees. With --check each update is compared with computePvs
// on the edited tree (the full flow again each time: slow), and the provisional PVS must
// join the leaves of kCheckedSegments random clear segments. One thread; wall and CPU
// milliseconds (the machine is shared). Not a test: it times things.
// --structural: the map without its func_detail* brushes (what the editor's clusters are
// on a level with detail, SightPvsSettings::detail).
// Usage: pvs_update_bench [level.map] [edits] [--check] [--structural]
#include "incremental/incremental_compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "portal/portal_generation.h"
#include "portal/pvs_update.h"
#include "portal/reachability.h"
#include "portal/sight_pvs.h"
#include "query/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <random>
#include <string>

using namespace shallot;

namespace {

// How far each edit moves its brush (world units): a designer's nudge on the grid.
constexpr double kNudge = 8.0;
// Random pairs of points per provisional PVS checked with --check.
constexpr int kCheckedSegments = 100000;

// Of kCheckedSegments random pairs of points, each in the box of a random cluster where an
// eye goes (empty for the sight pose, out of the void's reach), the clear segments (an exact
// trace) and those whose end leaves the PVS does not join both ways.
std::pair<int, int> missedSegments(const SightPvs& pvs, std::mt19937_64& rng) {
    const BspTree& tree = pvs.clusterTree();
    const std::vector<bool> outside = reachableFromOutside(tree, 0);
    std::vector<size_t> eyes;
    for (size_t c = 0; c < tree.leafCount(); ++c)
        if (!(tree.leafSolid[c] & 1u) && !outside[c] && !pvs.clusterBounds()[c].empty()) eyes.push_back(c);
    if (eyes.empty()) return {0, 0};
    std::uniform_real_distribution<double> u(0.0, 1.0);
    auto point = [&] {
        const Aabb& box = pvs.clusterBounds()[eyes[rng() % eyes.size()]];
        return Vec3(box.mins + (box.maxs - box.mins).cwiseProduct(Vec3(u(rng), u(rng), u(rng))));
    };
    auto inside = [&](const Vec3& p) { return !tree.isSolid(p, 0) && !outside[size_t(tree.findLeaf(p))]; };
    int clear = 0, missed = 0;
    for (int i = 0; i < kCheckedSegments; ++i) {
        const Vec3 a = point(), b = point();
        if (!inside(a) || !inside(b)) continue;
        const TraceResult t = traceSegment(tree, 0, a, b);
        if (t.startSolid || t.hit) continue;
        ++clear;
        const int32_t la = tree.findLeaf(a), lb = tree.findLeaf(b);
        if (!pvs.clusterPvs().visible(la, lb) || !pvs.clusterPvs().visible(lb, la)) ++missed;
    }
    return {clear, missed};
}

struct Time {
    double wall = 0, cpu = 0;
};

Time timed(const std::function<void()>& f) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu = std::clock();
    f();
    return {std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
            1000.0 * double(std::clock() - cpu) / CLOCKS_PER_SEC};
}

Brush translated(Brush b, const Vec3& t) {
    for (BrushSide& s : b.sides) {
        s.plane.dist += s.plane.normal.dot(t);
        for (Vec3& p : s.points) p += t;
    }
    return b;
}

BspTree sightTree(IncrementalCompiler& compiler, const World& w, Time* compile, Time* portals,
                  std::shared_ptr<const CompileResult>* result = nullptr) {
    std::shared_ptr<const CompileResult> r;
    *compile = timed([&] { r = compiler.compile(w); });
    if (result) *result = r;
    BspTree map = r->mapTrees[0];
    *portals = timed([&] { map.portals = generatePortals(map); });
    return map;
}

} // namespace

int main(int argc, char** argv) {
    std::string path = std::string(SHALLOT_SOURCE_DIR) + "/../shared/maps/id_e1m1.map";
    int edits = 10;
    bool check = false, structural = false;
    for (int i = 1, positional = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--check") check = true;
        else if (a == "--structural") structural = true;
        else if (positional++ == 0) path = a;
        else edits = std::stoi(a);
    }
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) {
        std::fprintf(stderr, "%s\n", read.error.format().c_str());
        return 1;
    }
    MapWorldOptions options;
    options.includeDetail = !structural;
    World world = worldFromMap(*read.map, options);
    world.poses = {Pose{"point"}};
    IncrementalCompiler compiler;
    Time compile, portals;
    BspTree tree = sightTree(compiler, world, &compile, &portals);
    PvsSettings sized, local;
    local.localWaves = true;
    PvsStats stats;
    const Time bySize = timed([&] { computePvs(tree, sized, &stats); });
    std::printf("%s: %zu brushes, %zu one-way portals; compile %.0f ms, portals %.0f ms\n", path.c_str(),
                world.brushes.size(), stats.oneWayPortals, compile.wall, portals.wall);
    std::printf("full flow, waves by size: %.0f ms (CPU %.0f), average visible %.2f\n", bySize.wall, bySize.cpu,
                stats.averageVisible);
    PvsFlowRecord record;
    const Time byKey = timed([&] { computePvs(tree, local, &stats, &record); });
    std::printf("full flow, waves by key:  %.0f ms (CPU %.0f), average visible %.2f\n", byKey.wall, byKey.cpu,
                stats.averageVisible);
    std::shared_ptr<const CompileResult> compiled;
    sightTree(compiler, world, &compile, &portals, &compiled);
    SightPvsSettings sight;
    sight.previous = SightPvs::compute(*compiled, world, sight);
    std::printf("%4s %6s %9s %9s %10s %10s %10s %8s %6s %11s %8s %8s\n", "edit", "brush", "compile", "portals", "flow",
                "sight pvs", "cpu", "kept", "equal", "provisional", "avg", "avg full");
    std::mt19937_64 rng(39), checkRng(40);
    std::vector<double> updates, provisionals;
    for (int e = 0; e < edits; ++e) {
        const size_t b = size_t(rng() % world.brushes.size());
        const Vec3 delta = kNudge * Vec3::Unit(int(rng() % 2));
        const Brush original = world.brushes[b];
        for (const bool there : {true, false}) { // there and back: the level stays itself
            world.brushes[b] = there ? translated(original, delta) : original;
            tree = sightTree(compiler, world, &compile, &portals, &compiled);
            SightPvsSettings first = sight;
            first.fullFlow = false;
            std::shared_ptr<const SightPvs> provisional;
            const Time provisionalTime = timed([&] { provisional = SightPvs::compute(*compiled, world, first); });
            provisionals.push_back(provisionalTime.wall);
            std::shared_ptr<const SightPvs> updated;
            const Time update = timed([&] { updated = SightPvs::compute(*compiled, world, sight); });
            const PvsUpdateStats& u = updated->updateStats();
            const double flowMs = updated->stats().baseMs + updated->stats().flowMs;
            updates.push_back(flowMs);
            const char* equal = check ? (updated->clusterPvs() == computePvs(tree, local) ? "yes" : "NO") : "-";
            if (check) {
                const auto [clear, missed] = missedSegments(*provisional, checkRng);
                std::printf("     provisional: %d of %d clear segments missed\n", missed, clear);
            }
            std::printf("%4d %6zu %9.1f %9.1f %10.1f %10.1f %10.1f %8zu %6s %11.1f %8.1f %8.1f\n", e, b, compile.wall,
                        portals.wall, flowMs, update.wall, update.cpu, u.fullFlowsKept, equal, provisionalTime.wall,
                        provisional->figures().averageLeaves, updated->figures().averageLeaves);
            std::printf("     of %zu portals (%zu matched), %zu leaves matched; computed again: %zu through the edit, "
                        "%zu with changed sets\n",
                        u.portals, u.matchedPortals, u.matchedLeaves, u.flowsThroughTheEdit, u.flowsWithChangedSets);
            sight.previous = updated;
        }
    }
    std::sort(updates.begin(), updates.end());
    std::sort(provisionals.begin(), provisionals.end());
    if (!updates.empty())
        std::printf("flow update: median %.1f ms, largest %.1f ms (full flow by key %.0f ms); provisional SightPvs: median "
                    "%.1f ms, largest %.1f ms\n",
                    updates[updates.size() / 2], updates.back(), byKey.wall, provisionals[provisionals.size() / 2],
                    provisionals.back());
    return 0;
}

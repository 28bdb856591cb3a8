// Traces per second on a level (default ../shared/maps/id_e1m1.map): a box pose through the
// onion tree, the same box swept exactly (traceBox), and an ellipsoid and a capsule, exact,
// with the tree in front (RoundPoseQueries) and without (RoundPoseWorld alone); and the
// share of round traces and classifies the tree settles (the same in every pass). Not a
// test: it times things.
// Usage: round_pose_traces [level.map] [segments]
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "query/box_trace.h"
#include "query/round_pose_queries.h"
#include "world/round_pose_boxes.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <cstdio>
#include <random>
#include <string>

using namespace shallot;

namespace {

// Each rate is the best of kRuns passes over the segments, the kinds of query taking turns
// pass by pass, timed in this thread's CPU time: the machine is shared, and a pass that
// another process interrupted would otherwise count the other process's time.
constexpr int kRuns = 9;

double threadSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

using TraceFunction = std::function<TraceResult(const Vec3&, const Vec3&)>;

// Traces per second of each function, and its hits.
std::vector<std::pair<double, int>> tracesPerSecond(const std::vector<std::pair<Vec3, Vec3>>& segments,
                                                    const std::vector<TraceFunction>& traces) {
    std::vector<std::pair<double, int>> best(traces.size(), {0.0, 0});
    for (int run = 0; run <= kRuns; ++run)
        for (size_t k = 0; k < traces.size(); ++k) {
            int hits = 0;
            const double start = threadSeconds();
            for (const auto& [from, to] : segments) hits += traces[k](from, to).hit;
            const double rate = double(segments.size()) / (threadSeconds() - start);
            if (run > 0) best[k] = {std::max(best[k].first, rate), hits}; // run 0 warms up
        }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : std::string(SHALLOT_SOURCE_DIR) + "/../shared/maps/id_e1m1.map";
    const int count = argc > 2 ? std::stoi(argv[2]) : 20000;
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) {
        std::fprintf(stderr, "%s\n", read.error.format().c_str());
        return 1;
    }
    World world = worldFromMap(*read.map);
    const Pose player = quakePoses()[1];
    const Pose ellipsoid = Pose::round("ellipsoid", PoseShape::ellipsoid(16, 28));
    const Pose capsule = Pose::round("capsule", PoseShape::capsule(16, 56));
    // What adding a pose to the level costs: a box pose, or a round one (its two boxes).
    auto compileSeconds = [&](const std::vector<Pose>& poses) {
        World w = world;
        w.poses = treePoses(poses);
        double best = 1e300;
        for (int run = 0; run < 2; ++run) {
            const auto start = std::chrono::steady_clock::now();
            compileWorld(w);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return best;
    };
    const double base = compileSeconds({quakePoses()[0], player});
    const double plusBox = compileSeconds({quakePoses()[0], player, quakePoses()[2]});
    const double plusCapsule = compileSeconds({quakePoses()[0], player, capsule});
    std::printf("compile (best of 2): point+player %.2f s; + a box pose %.2f s (+%.2f); + a capsule %.2f s (+%.2f)\n",
                base, plusBox, plusBox - base, plusCapsule, plusCapsule - base);
    world.poses = treePoses({quakePoses()[0], player, ellipsoid, capsule});
    const auto compileStart = std::chrono::steady_clock::now();
    const BspTree tree = compileWorld(world).onion;
    std::printf("%s: %zu brushes, compiled with %zu tree poses in %.2f s\n", path.c_str(), world.brushes.size(),
                tree.poses.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - compileStart).count());

    Aabb box;
    for (const Brush& b : world.brushes)
        if (auto g = buildBrushGeometry(b, world.bounds).geometry) box.add(g->bounds);
    const int playerIndex = tree.poseIndex("player");
    const RoundPoseWorld exactEllipsoid(world, ellipsoid), exactCapsule(world, capsule);
    const RoundPoseQueries ellipsoidQueries(exactEllipsoid, tree), capsuleQueries(exactCapsule, tree);
    const BoxTraceWorld boxWorld = BoxTraceWorld::build(world);

    // Segments 32 to 512 units long from points empty for the player box, the capsule and
    // the ellipsoid (all in the level's box).
    std::mt19937_64 rng(7);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    std::vector<std::pair<Vec3, Vec3>> segments;
    while (int(segments.size()) < count) {
        const Vec3 from(uniform(box.mins.x(), box.maxs.x()), uniform(box.mins.y(), box.maxs.y()),
                        uniform(box.mins.z(), box.maxs.z()));
        if (tree.isSolid(from, playerIndex) || capsuleQueries.isSolid(from) || ellipsoidQueries.isSolid(from)) continue;
        Vec3 dir(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        if (dir.norm() < 0.1 || dir.norm() > 1) continue;
        segments.emplace_back(from, from + uniform(32, 512) * dir.normalized());
    }
    const RoundQueryTally classified = capsuleQueries.classifyTally();

    const std::vector<std::pair<double, int>> rates = tracesPerSecond(segments, {
        [&](const Vec3& a, const Vec3& b) { return traceSegment(tree, playerIndex, a, b); },
        [&](const Vec3& a, const Vec3& b) { return traceBox(boxWorld, player.mins, player.maxs, a, b); },
        [&](const Vec3& a, const Vec3& b) { return ellipsoidQueries.traceTreeFirst(a, b); },
        [&](const Vec3& a, const Vec3& b) { return exactEllipsoid.trace(a, b); },
        [&](const Vec3& a, const Vec3& b) { return capsuleQueries.traceTreeFirst(a, b); },
        [&](const Vec3& a, const Vec3& b) { return exactCapsule.trace(a, b); },
    });
    const double boxTree = rates[0].first, boxExact = rates[1].first;
    std::printf("box (player, 32x32x56) through the onion tree: %10.0f traces/s (%d hits)\n", boxTree, rates[0].second);
    std::printf("box (player) exact sweep, traceBox:            %10.0f traces/s (%d hits)\n", boxExact, rates[1].second);
    for (int shape = 0; shape < 2; ++shape) {
        const RoundPoseQueries& q = shape == 0 ? ellipsoidQueries : capsuleQueries;
        const std::string name = poseShapeText(q.exact().pose().shape);
        for (const int k : {3, 2}) {
            const auto [rate, hits] = rates[size_t(k + 2 * shape)];
            std::printf("%-18s %-26s %10.0f traces/s (%d hits) = %.2f of the box tree rate, %.2f of traceBox",
                        name.c_str(), k == 3 ? "exact (trace):" : "tree first (traceTreeFirst):", rate, hits,
                        rate / boxTree, rate / boxExact);
            if (k == 2) std::printf("; the tree settles %.1f%%", 100 * q.traceTally().settledShare());
            std::printf("\n");
        }
    }
    std::printf("classify (capsule, sampling starts): the tree settles %.1f%% of %llu\n", 100 * classified.settledShare(),
                (unsigned long long)(classified.settled + classified.exact));
    return 0;
}

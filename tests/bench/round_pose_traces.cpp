// Traces per second on a level (default ../shared/maps/id_e1m1.map): a box pose through the
// onion tree, the same box swept exactly (traceBox), and an ellipsoid and a capsule, exact,
// with the tree in front (RoundPoseQueries) and without (RoundPoseWorld alone); and the
// share of round traces and classifies the tree settles. Not a test: it times things.
// Usage: round_pose_traces [level.map] [segments]
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "query/box_trace.h"
#include "query/round_pose_queries.h"
#include "world/round_pose_boxes.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

using namespace shallot;

namespace {

template <class Trace>
double tracesPerSecond(const std::vector<std::pair<Vec3, Vec3>>& segments, const Trace& trace, int& hits) {
    hits = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto& [from, to] : segments) hits += trace(from, to).hit;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return double(segments.size()) / seconds;
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

    int hits = 0;
    const double boxTree = tracesPerSecond(segments, [&](const Vec3& a, const Vec3& b) {
        return traceSegment(tree, playerIndex, a, b);
    }, hits);
    std::printf("box (player, 32x32x56) through the onion tree: %10.0f traces/s (%d hits)\n", boxTree, hits);
    const double boxExact = tracesPerSecond(segments, [&](const Vec3& a, const Vec3& b) {
        return traceBox(boxWorld, player.mins, player.maxs, a, b);
    }, hits);
    std::printf("box (player) exact sweep, traceBox:            %10.0f traces/s (%d hits)\n", boxExact, hits);
    for (const auto* q : {&ellipsoidQueries, &capsuleQueries}) {
        const RoundPoseWorld& exact = q == &ellipsoidQueries ? exactEllipsoid : exactCapsule;
        const std::string name = poseShapeText(exact.pose().shape);
        const double withTree = tracesPerSecond(segments, [&](const Vec3& a, const Vec3& b) { return q->trace(a, b); }, hits);
        std::printf("%-18s exact, tree in front:        %10.0f traces/s (%d hits) = %.2f of the box tree rate, "
                    "%.2f of traceBox; the tree settles %.1f%%\n",
                    name.c_str(), withTree, hits, withTree / boxTree, withTree / boxExact,
                    100 * q->traceTally().settledShare());
        const double alone = tracesPerSecond(segments, [&](const Vec3& a, const Vec3& b) { return exact.trace(a, b); }, hits);
        std::printf("%-18s exact, no tree:              %10.0f traces/s (%d hits)\n", name.c_str(), alone, hits);
    }
    std::printf("classify (capsule, sampling starts): the tree settles %.1f%% of %llu\n", 100 * classified.settledShare(),
                (unsigned long long)(classified.settled + classified.exact));
    return 0;
}

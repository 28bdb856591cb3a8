#include "compile/compiler.h"

#include "compile/brush_expansion.h"
#include "compile/map_tree.h"
#include "compile/onion_tree.h"
#include "compile/union_faces.h"
#include "portal/portal_generation.h"
#include "world/brush_geometry.h"

#include <chrono>
#include <atomic>
#include <mutex>
#include <thread>

namespace shallot {

namespace {

class Stopwatch {
public:
    double lapMs() {
        const auto now = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
        return ms;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Runs job(i) for i in [0, count) on up to `threads` threads; rethrows the first error.
template <class Job>
void parallelFor(size_t count, int threads, const Job& job) {
    const size_t workers = std::min<size_t>(count, size_t(std::max(1, threads)));
    if (workers <= 1) {
        for (size_t i = 0; i < count; ++i) job(i);
        return;
    }
    std::atomic<size_t> next{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) {
        pool.emplace_back([&] {
            for (size_t i; (i = next.fetch_add(1)) < count;) {
                try {
                    job(i);
                } catch (...) {
                    std::lock_guard lock(errorMutex);
                    if (!error) error = std::current_exception();
                }
            }
        });
    }
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

} // namespace

CompileResult compileWorld(const World& world, const CompileOptions& options) {
    CompileResult result;
    CompileStats& stats = result.stats;
    stats.brushes = world.brushes.size();
    stats.poses = world.poses.size();
    if (world.poses.empty() || world.poses.size() > size_t(kMaxPoses)) {
        result.error = "a world needs between 1 and " + std::to_string(kMaxPoses) + " poses";
        return result;
    }
    for (const Pose& p : world.poses)
        if (!p.isValid()) {
            result.error = "pose '" + p.name + "' is invalid (empty name, NaN, or mins above maxs)";
            return result;
        }
    Stopwatch clock;

    std::vector<int32_t> valid;
    std::vector<BrushGeometry> geometry;
    for (size_t i = 0; i < world.brushes.size(); ++i) {
        throwIfCancelled(options.cancel);
        BrushGeometryResult g = buildBrushGeometry(world.brushes[i], world.bounds);
        if (!g.geometry) {
            result.problems.push_back({int(i), world.brushes[i].describe(int(i)) + " " + g.error});
            continue;
        }
        valid.push_back(int32_t(i));
        geometry.push_back(std::move(*g.geometry));
    }
    stats.validBrushes = valid.size();
    stats.msValidate = clock.lapMs();

    const size_t poseCount = world.poses.size();
    const double extent = std::max(world.bounds.mins.cwiseAbs().maxCoeff(), world.bounds.maxs.cwiseAbs().maxCoeff());
    std::vector<std::vector<std::pair<int32_t, ConvexPolyhedron>>> hulls(poseCount);
    parallelFor(poseCount, options.threads, [&](size_t p) {
        const Pose& pose = world.poses[p];
        for (size_t k = 0; k < valid.size(); ++k) {
            throwIfCancelled(options.cancel);
            if (!blocks(world.brushes[size_t(valid[k])], pose)) continue;
            ConvexPolyhedron hull = expandBrush(geometry[k], pose, extent);
            if (!hull.empty()) hulls[p].emplace_back(valid[k], std::move(hull));
        }
    });
    // The plane pool is shared by every pose (coplanarity across poses is an id compare),
    // so planes are entered on one thread.
    PlanePool pool;
    std::vector<std::vector<ExpandedBrush>> expanded(poseCount);
    for (size_t p = 0; p < poseCount; ++p)
        for (auto& [brush, hull] : hulls[p]) expanded[p].push_back(makeExpandedBrush(brush, std::move(hull), pool));
    hulls.clear();
    stats.msExpand = clock.lapMs();

    std::vector<std::vector<UnionFace>> faces(poseCount);
    parallelFor(poseCount, options.threads, [&](size_t p) { faces[p] = unionFaces(expanded[p], pool); });
    expanded.clear();
    stats.msUnion = clock.lapMs();

    const std::vector<Plane>& planes = pool.planes();
    result.mapTrees.resize(poseCount);
    std::vector<BuildStats> mapStats(poseCount);
    parallelFor(poseCount, options.threads, [&](size_t p) {
        std::vector<BuildPolygon> polygons;
        polygons.reserve(faces[p].size());
        for (const UnionFace& f : faces[p]) polygons.push_back({f.polygon, f.plane, 0, f.brush, true});
        result.mapTrees[p] = buildMapTree(std::move(polygons), planes, world.poses[p], world.bounds,
                                          options.splitter, options.cancel, &mapStats[p]);
    });
    for (size_t p = 0; p < poseCount; ++p) {
        stats.polygonsPerPose.push_back(faces[p].size());
        stats.mapTreeNodesPerPose.push_back(result.mapTrees[p].nodes.size());
    }
    stats.msMapTrees = clock.lapMs();

    std::vector<BuildPolygon> all;
    for (size_t p = 0; p < poseCount; ++p)
        for (UnionFace& f : faces[p]) all.push_back({std::move(f.polygon), f.plane, uint8_t(p), f.brush, true});
    faces.clear();
    BuildStats onionStats;
    result.onion = buildOnionTree(std::move(all), planes, world.poses, result.mapTrees, world.bounds,
                                  options.splitter, options.cancel, &onionStats, &stats.msSolidity);
    stats.msOnion = clock.lapMs();

    throwIfCancelled(options.cancel);
    result.onion.portals = generatePortals(result.onion);
    stats.portals = result.onion.portals.size();
    stats.msPortals = clock.lapMs();

    stats.nodes = result.onion.nodes.size();
    stats.leaves = result.onion.leafCount();
    stats.depth = result.onion.depth();
    stats.splits = onionStats.splits;
    stats.bytes = result.onion.bytes();
    for (const LeafInfo& l : result.onion.leaves) stats.degenerateLeaves += l.degenerate;
    return result;
}

} // namespace shallot

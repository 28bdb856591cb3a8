#include "compile/compiler.h"

#include "compile/compile_state.h"
#include "compile/map_tree.h"
#include "compile/node_portals.h"
#include "compile/onion_tree.h"
#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "world/brush_geometry.h"

namespace shallot {

void compileFromScratch(const World& world, const CompileOptions& options, KeptState kept, CompileState& state,
                        CompileResult& result) {
    const bool forUpdates = kept != KeptState::None;
    state = CompileState{};
    result = CompileResult{};
    state.poses = world.poses;
    state.bounds = world.bounds;
    state.pool = PlanePool(expansionExtent(world.bounds));
    state.splitter = options.splitter;
    CompileStats& stats = result.stats;
    stats.brushes = world.brushes.size();
    stats.poses = world.poses.size();
    Stopwatch clock;

    const size_t brushCount = world.brushes.size();
    std::vector<std::optional<BrushGeometry>> geometry(brushCount);
    state.keys.resize(brushCount);
    state.brushErrors.resize(brushCount);
    parallelFor(brushCount, options.threads, [&](size_t i) {
        throwIfCancelled(options.cancel);
        state.keys[i] = BrushKey::of(world.brushes[i]);
        BrushGeometryResult g = buildBrushGeometry(world.brushes[i], world.bounds);
        geometry[i] = std::move(g.geometry);
        if (!geometry[i]) state.brushErrors[i] = g.error;
    });
    for (size_t i = 0; i < brushCount; ++i)
        if (!geometry[i]) result.problems.push_back({int(i), world.brushes[i].describe(int(i)) + " " + state.brushErrors[i]});
    stats.validBrushes = brushCount - result.problems.size();
    stats.msValidate = clock.lapMs();

    const size_t poseCount = world.poses.size();
    const double extent = expansionExtent(world.bounds);
    std::vector<std::vector<std::optional<ConvexPolyhedron>>> hulls(brushCount);
    parallelFor(brushCount, options.threads, [&](size_t i) {
        throwIfCancelled(options.cancel);
        if (geometry[i]) hulls[i] = expandForPoses(*geometry[i], world.brushes[i], world.poses, extent);
    });
    // The plane pool is shared by every pose (coplanarity across poses is an id compare),
    // so planes are entered on one thread, pose by pose.
    state.perPose.resize(poseCount);
    for (size_t p = 0; p < poseCount; ++p)
        for (size_t i = 0; i < brushCount; ++i)
            if (!hulls[i].empty() && hulls[i][p])
                state.perPose[p].brushes.push_back(makeExpandedBrush(int32_t(i), std::move(*hulls[i][p]), state.pool));
    hulls.clear();
    stats.msExpand = clock.lapMs();

    // Each brush's union faces depend only on it and its neighbours: every (pose, brush)
    // pair is a job of its own.
    std::vector<std::vector<std::vector<int32_t>>> neighbours(poseCount);
    std::vector<std::pair<uint32_t, uint32_t>> jobs; // (pose, brush)
    parallelFor(poseCount, options.threads, [&](size_t p) { neighbours[p] = overlappingBrushes(state.perPose[p].brushes); });
    for (size_t p = 0; p < poseCount; ++p) {
        state.perPose[p].faces.resize(state.perPose[p].brushes.size());
        for (size_t i = 0; i < state.perPose[p].brushes.size(); ++i) jobs.emplace_back(uint32_t(p), uint32_t(i));
    }
    parallelFor(jobs.size(), options.threads, [&](size_t j) {
        throwIfCancelled(options.cancel);
        const auto [p, i] = jobs[j];
        PoseState& pose = state.perPose[p];
        std::vector<const ExpandedBrush*> others;
        for (int32_t k : neighbours[p][i]) others.push_back(&pose.brushes[size_t(k)]);
        unionFacesOf(pose.brushes[i], others, state.pool, pose.faces[i]);
    });
    stats.polygonsPerPose = unionFaceCounts(state);
    if (!forUpdates)
        for (PoseState& pose : state.perPose) pose.brushes = {};
    stats.msUnion = clock.lapMs();

    const std::vector<Plane>& planes = state.pool.planes();
    // The poses' trees share the threads (one tree's top overlaps another's subtrees).
    std::vector<std::vector<BuildPolygon>> polygonsPerPose(poseCount);
    std::vector<TreeRecord*> mapRecords;
    for (size_t p = 0; p < poseCount; ++p) {
        appendBuildPolygons(state.perPose[p], 0, polygonsPerPose[p]);
        mapRecords.push_back(forUpdates ? &state.perPose[p].mapRecord : nullptr);
    }
    result.mapTrees = buildMapTrees(std::move(polygonsPerPose), planes, world.poses, world.bounds, options.splitter,
                                    options.cancel, options.threads, mapRecords);
    stats.msMapTrees = clock.lapMs();

    std::vector<BuildPolygon> all;
    for (size_t p = 0; p < poseCount; ++p) appendBuildPolygons(state.perPose[p], uint8_t(p), all);
    if (!forUpdates) state.perPose.clear();
    BuildStats onionStats;
    state.onionRecord.keepCells = kept == KeptState::ForUpdatesWithCells;
    result.onion = buildOnionTree(std::move(all), planes, world.poses, result.mapTrees, world.bounds, options.splitter,
                                  options.cancel, &onionStats, &stats.msSolidity, options.threads,
                                  forUpdates ? &state.onionRecord : nullptr);
    stats.splits = onionStats.splits;
    stats.msOnion = clock.lapMs();

    throwIfCancelled(options.cancel);
    result.onion.portals = generateNodePortals(result.onion, options.threads, state.onionRecord.portalFirst);
    stats.msPortals = clock.lapMs();
    fillTreeStats(result);
}

CompileResult compileWorld(const World& world, const CompileOptions& options) {
    CompileResult result;
    if (std::string problem = posesProblem(world); !problem.empty()) {
        result.error = std::move(problem);
        result.stats.brushes = world.brushes.size();
        result.stats.poses = world.poses.size();
        return result;
    }
    CompileState state;
    compileFromScratch(world, options, KeptState::None, state, result);
    return result;
}

} // namespace shallot

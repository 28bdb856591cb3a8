#include "incremental/incremental_compiler.h"

#include "compile/map_tree.h"
#include "compile/node_portals.h"
#include "compile/onion_tree.h"
#include "compile/parallel_for.h"
#include "compile/stopwatch.h"
#include "geometry/tolerances.h"
#include "incremental/brush_diff.h"
#include "incremental/tree_update.h"
#include "world/brush_geometry.h"

namespace shallot {

namespace {

// An edit that changes more than this fraction of the brushes is compiled from scratch:
// rebuilding most of the trees piecemeal costs more than building them whole.
constexpr double kMaxChangedFraction = 0.1;

// Onion leaves kept from the previous tree are classified again when their interior point
// lies within this distance of the region where some pose's solidity may have changed.
constexpr double kRegionMargin = 1.0;

// Kept splitters were chosen for older polygons, so trees updated over and over drift
// from what a fresh build would make; once the onion has grown by this fraction since the
// last compile from scratch, the next compile starts over.
constexpr double kMaxTreeGrowth = 0.1;
// The plane pool only grows (a moved brush adds its new planes); every tree holds a copy,
// so once it has doubled since the last compile from scratch, the next one starts over.
constexpr double kMaxPlaneGrowth = 1.0;

bool samePoses(const std::vector<Pose>& a, const std::vector<Pose>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].name != b[i].name || a[i].mins != b[i].mins || a[i].maxs != b[i].maxs || a[i].colour != b[i].colour ||
            a[i].blockingSet() != b[i].blockingSet())
            return false;
    return true;
}

std::vector<BrushProblem> problemsOf(const World& world, const std::vector<std::string>& errors) {
    std::vector<BrushProblem> out;
    for (size_t i = 0; i < errors.size(); ++i)
        if (!errors[i].empty()) out.push_back({int(i), world.brushes[i].describe(int(i)) + " " + errors[i]});
    return out;
}

// Node and leaf parents of a tree (-1 for the root).
struct Parents {
    std::vector<int32_t> ofNode, ofLeaf;
    explicit Parents(const BspTree& tree) : ofNode(tree.nodes.size(), -1), ofLeaf(tree.leaves.size(), -1) {
        for (size_t n = 0; n < tree.nodes.size(); ++n)
            for (ChildRef c : {tree.nodes[n].front, tree.nodes[n].back})
                (isLeaf(c) ? ofLeaf[size_t(leafIndex(c))] : ofNode[size_t(c)]) = int32_t(n);
    }
};

// One pose's share of an edit: the added polygons for its map tree and for the onion.
struct PoseEdit {
    std::vector<BuildPolygon> mapAdded, onionAdded;
};

// Brings a pose's expanded brushes and union faces into the current brush order, moving
// those of unchanged brushes and adding the changed ones (`hulls`, by current index). Marks
// in removedPoses the previous brushes whose union faces must be made again (those near a
// changed brush), adds the changed brushes' old and new boxes to changedRegion, and
// returns the current slots whose faces are to be made (changed and nearby brushes).
std::vector<size_t> carryOverPose(PoseState& pose, size_t p, const BrushDiff& diff,
                                  std::vector<std::vector<std::optional<ConvexPolyhedron>>>& hulls, PlanePool& pool,
                                  std::vector<uint64_t>& removedPoses, Aabb& changedRegion) {
    std::vector<int32_t> oldSlot(diff.newOfOld.size(), -1);
    std::vector<Aabb> changedBoxes;
    for (size_t k = 0; k < pose.brushes.size(); ++k) {
        const int32_t o = pose.brushes[k].brush;
        oldSlot[size_t(o)] = int32_t(k);
        if (diff.newOfOld[size_t(o)] < 0) changedBoxes.push_back(pose.brushes[k].bounds);
    }
    PoseState next;
    std::vector<size_t> affected;
    for (size_t i = 0; i < diff.oldOfNew.size(); ++i) {
        const int32_t o = diff.oldOfNew[i];
        if (o >= 0 && oldSlot[size_t(o)] >= 0) {
            const size_t k = size_t(oldSlot[size_t(o)]);
            next.brushes.push_back(std::move(pose.brushes[k]));
            next.brushes.back().brush = int32_t(i);
            next.faces.push_back(std::move(pose.faces[k]));
            for (UnionFace& f : next.faces.back()) f.brush = int32_t(i);
        } else if (o < 0 && !hulls[i].empty() && hulls[i][p]) {
            next.brushes.push_back(makeExpandedBrush(int32_t(i), std::move(*hulls[i][p]), pool));
            next.faces.emplace_back();
            changedBoxes.push_back(next.brushes.back().bounds);
            affected.push_back(next.brushes.size() - 1);
        }
    }
    for (const Aabb& box : changedBoxes) changedRegion.add(box);
    for (size_t k = 0; k < next.brushes.size(); ++k) {
        const int32_t o = diff.oldOfNew[size_t(next.brushes[k].brush)];
        if (o < 0) continue;
        for (const Aabb& box : changedBoxes) {
            if (!box.overlaps(next.brushes[k].bounds, kOnPlaneEpsilon)) continue;
            affected.push_back(k);
            removedPoses[size_t(o)] |= uint64_t(1) << p;
            break;
        }
    }
    next.mapRecord = std::move(pose.mapRecord);
    pose = std::move(next);
    return affected;
}

// Makes the union faces of the `affected` slots again; they are the edit's added polygons.
void remakeUnionFaces(PoseState& pose, const std::vector<size_t>& affected, const PlanePool& pool, uint8_t p,
                      PoseEdit& edit) {
    std::vector<const ExpandedBrush*> neighbours;
    for (size_t k : affected) {
        neighbours.clear();
        for (size_t j = 0; j < pose.brushes.size(); ++j)
            if (j != k && brushesMayTouch(pose.brushes[k], pose.brushes[j])) neighbours.push_back(&pose.brushes[j]);
        pose.faces[k].clear();
        unionFacesOf(pose.brushes[k], neighbours, pool, pose.faces[k]);
        for (const UnionFace& f : pose.faces[k]) {
            edit.mapAdded.push_back(makeBuildPolygon(f.polygon, f.plane, 0, f.brush));
            edit.onionAdded.push_back(makeBuildPolygon(f.polygon, f.plane, p, f.brush));
        }
    }
}

// Onion leaves copied whole keep their solidity, but for those inside the changed region
// (a cell inside a brush that moved in, say): classified again. Their portals, held by
// their ancestors, are made again too.
void reclassifyKeptLeaves(BspTree& onion, const std::vector<BspTree>& mapTrees, const Aabb& changedRegion,
                          TreeUpdate& update) {
    const Parents parents(onion);
    for (int32_t leaf : update.leafOfOld) {
        if (leaf < 0) continue;
        const LeafInfo& info = onion.leaves[size_t(leaf)];
        if (!changedRegion.contains(info.interiorPoint, kRegionMargin)) continue;
        const uint64_t bits = mapTreeSolidity(mapTrees, info.interiorPoint);
        if (bits == onion.leafSolid[size_t(leaf)]) continue;
        onion.leafSolid[size_t(leaf)] = bits;
        for (int32_t n = parents.ofLeaf[size_t(leaf)]; n >= 0 && update.nodeSource[size_t(n)] >= 0;
             n = parents.ofNode[size_t(n)])
            update.nodeSource[size_t(n)] = -1;
    }
}

} // namespace

std::vector<int32_t> composeLeafMaps(const std::vector<int32_t>& first, const std::vector<int32_t>& second) {
    std::vector<int32_t> out(first.size(), -1);
    for (size_t leaf = 0; leaf < first.size(); ++leaf)
        if (first[leaf] >= 0 && size_t(first[leaf]) < second.size()) out[leaf] = second[size_t(first[leaf])];
    return out;
}

const LeafCellList& IncrementalCompiler::leafCells() const {
    static const LeafCellList none;
    return state_ ? state_->onionRecord.leafCells : none;
}

bool IncrementalCompiler::canUpdate(const World& world, const CompileOptions& options) const {
    return state_ && samePoses(state_->poses, world.poses) &&
           state_->bounds.mins == world.bounds.mins && state_->bounds.maxs == world.bounds.maxs &&
           state_->splitter == options.splitter &&
           double(result_->onion.nodes.size()) <= double(scratchNodes_) * (1.0 + kMaxTreeGrowth) &&
           double(state_->pool.size()) <= double(scratchPlanes_) * (1.0 + kMaxPlaneGrowth);
}

std::shared_ptr<const CompileResult> IncrementalCompiler::compile(const World& world, const CompileOptions& options) {
    if (std::string problem = posesProblem(world); !problem.empty()) {
        state_.reset();
        result_.reset();
        auto r = std::make_shared<CompileResult>();
        r->error = std::move(problem);
        r->stats.brushes = world.brushes.size();
        r->stats.poses = world.poses.size();
        return r;
    }
    leafOfPrevious_.clear();
    try {
        if (!canUpdate(world, options) || !update(world, options)) {
            result_.reset(); // the compiler lets go of the old result before making the next
            state_ = std::make_unique<CompileState>();
            auto result = std::make_shared<CompileResult>();
            compileFromScratch(world, options, keepCells_ ? KeptState::ForUpdatesWithCells : KeptState::ForUpdates,
                               *state_, *result);
            result_ = std::move(result);
            scratchNodes_ = result_->onion.nodes.size();
            scratchPlanes_ = state_->pool.size();
        }
    } catch (...) {
        state_.reset();
        result_.reset();
        throw;
    }
    return result_;
}

bool IncrementalCompiler::update(const World& world, const CompileOptions& options) {
    CompileState& s = *state_;
    const CompileResult& previous = *result_;
    auto next = std::make_shared<CompileResult>();
    CompileResult& result = *next;
    Stopwatch clock;
    std::vector<BrushKey> keys;
    keys.reserve(world.brushes.size());
    for (const Brush& b : world.brushes) keys.push_back(BrushKey::of(b));
    const BrushDiff diff = diffBrushes(s.keys, keys);
    if (double(diff.changed) > kMaxChangedFraction * double(std::max(world.brushes.size(), s.keys.size())))
        return false;
    CompileStats stats;
    stats.incremental = true;
    stats.brushes = world.brushes.size();
    stats.poses = world.poses.size();
    const size_t poseCount = world.poses.size();

    // The changed brushes: validated and expanded (planes entered on this thread).
    std::vector<std::string> errors(world.brushes.size());
    std::vector<std::vector<std::optional<ConvexPolyhedron>>> hulls(world.brushes.size());
    const double extent = expansionExtent(world.bounds);
    for (size_t i = 0; i < world.brushes.size(); ++i) {
        if (diff.oldOfNew[i] >= 0) {
            errors[i] = std::move(s.brushErrors[size_t(diff.oldOfNew[i])]);
            continue;
        }
        BrushGeometryResult g = buildBrushGeometry(world.brushes[i], world.bounds);
        if (g.geometry) hulls[i] = expandForPoses(*g.geometry, world.brushes[i], world.poses, extent);
        else errors[i] = g.error;
    }
    result.problems = problemsOf(world, errors);
    stats.validBrushes = world.brushes.size() - result.problems.size();
    stats.msValidate = clock.lapMs();

    // Per previous brush, the poses whose polygons from it are gone.
    std::vector<uint64_t> removedPoses(s.keys.size(), 0);
    for (size_t o = 0; o < s.keys.size(); ++o)
        if (diff.newOfOld[o] < 0) removedPoses[o] = ~uint64_t(0);
    Aabb changedRegion; // where some pose's solidity may differ
    std::vector<PoseEdit> edits(poseCount);
    std::vector<std::vector<size_t>> affectedPerPose(poseCount);
    for (size_t p = 0; p < poseCount; ++p)
        affectedPerPose[p] = carryOverPose(s.perPose[p], p, diff, hulls, s.pool, removedPoses, changedRegion);
    stats.msExpand = clock.lapMs();

    parallelFor(poseCount, options.threads,
                [&](size_t p) { remakeUnionFaces(s.perPose[p], affectedPerPose[p], s.pool, uint8_t(p), edits[p]); });
    stats.polygonsPerPose = unionFaceCounts(s);
    stats.msUnion = clock.lapMs();

    const std::vector<Plane>& planes = s.pool.planes();
    const LeafSolidity lastSide = mapTreeLeafSolidity;
    result.mapTrees.resize(poseCount);
    parallelFor(poseCount, options.threads, [&](size_t p) {
        const BuildContext context{planes, lastSide, options.splitter, nullptr, false};
        TreeEdit edit{removedPoses, int(p), diff.newOfOld, std::move(edits[p].mapAdded)};
        updateTree(previous.mapTrees[p], result.mapTrees[p], s.perPose[p].mapRecord, edit, context, nullptr);
    });
    stats.msMapTrees = clock.lapMs();

    OnionLeafSolidity solidity(result.mapTrees);
    const LeafSolidity classify = [&](const LeafContext& c, LeafInfo& info) { return solidity(c, info); };
    const BuildContext context{planes, classify, options.splitter, nullptr, true};
    TreeEdit edit{removedPoses, -1, diff.newOfOld, {}};
    for (PoseEdit& e : edits) std::move(e.onionAdded.begin(), e.onionAdded.end(), std::back_inserter(edit.added));
    std::vector<uint32_t> oldPortalFirst = std::move(s.onionRecord.portalFirst);
    BuildStats onionStats;
    TreeUpdate update = updateTree(previous.onion, result.onion, s.onionRecord, edit, context, &onionStats);
    stats.splits = onionStats.splits;
    stats.rebuiltNodes = update.rebuiltNodes + update.keptNodes;

    reclassifyKeptLeaves(result.onion, result.mapTrees, changedRegion, update);
    stats.msSolidity = solidity.milliseconds();
    stats.msOnion = clock.lapMs();

    result.onion.portals =
        updateNodePortals(result.onion, {previous.onion.portals, oldPortalFirst, update.nodeSource, update.leafOfOld},
                          options.threads, s.onionRecord.portalFirst);
    stats.msPortals = clock.lapMs();

    s.keys = std::move(keys);
    s.brushErrors = std::move(errors);
    leafOfPrevious_ = std::move(update.leafOfOld);
    result.stats = stats;
    fillTreeStats(result);
    result_ = std::move(next);
    return true;
}

} // namespace shallot

#include "portal/sight_pvs.h"

#include "compile/stopwatch.h"
#include "portal/leaf_brushes.h"
#include "portal/leaf_cells.h"
#include "portal/leaf_visibility.h"
#include "portal/portal_generation.h"
#include "portal/reachability.h"
#include "portal/sight_map_tree.h"
#include "world/brush_geometry.h"

#include <algorithm>
#include <bit>

namespace shallot {

namespace {

using BrushRow = std::vector<uint64_t>;

void orInto(BrushRow& into, const BrushRow& row) {
    for (size_t w = 0; w < into.size(); ++w) into[w] |= row[w];
}

uint32_t facesOf(const BrushRow& row, const std::vector<uint32_t>& faces) {
    uint32_t sum = 0;
    for (size_t w = 0; w < row.size(); ++w)
        for (uint64_t bits = row[w]; bits; bits &= bits - 1) sum += faces[w * 64 + size_t(std::countr_zero(bits))];
    return sum;
}

// Structural clusters filled with detail (filledClusters) made solid for the flow, their
// portals closed; how many were empty before.
size_t markFilledClustersSolid(BspTree& clusters, const BspTree& onion, int pose, const LeafClusters& map) {
    const std::vector<bool> filled = filledClusters(onion, pose, map, clusters.leafCount());
    size_t count = 0;
    for (size_t c = 0; c < filled.size(); ++c)
        if (filled[c] && !(clusters.leafSolid[c] & 1u)) {
            clusters.leafSolid[c] |= 1u;
            ++count;
        }
    for (size_t i = 0; i < clusters.portals.size(); ++i) {
        Portal& p = clusters.portals[i];
        if (filled[size_t(p.front)] || filled[size_t(p.back)]) p.poses &= ~uint64_t(1);
    }
    return count;
}

} // namespace

std::shared_ptr<const SightPvs> SightPvs::compute(const CompileResult& compiled, const World& world,
                                                  const SightPvsSettings& settings, std::string* error) {
    const int pose = sightPose(compiled.onion);
    if (pose < 0) {
        if (error) *error = "no pose is a point at the reference point (what the eye sees)";
        return nullptr;
    }
    Stopwatch clock;
    std::shared_ptr<SightPvs> out(new SightPvs);
    out->pose_ = pose;
    out->fullFlow_ = settings.fullFlow;
    out->detailClustered_ = std::find(settings.detail.begin(), settings.detail.end(), true) != settings.detail.end();
    if (size_t(pose) < compiled.mapTrees.size() && !out->detailClustered_) {
        out->clusters_ = compiled.mapTrees[size_t(pose)];
        out->clusters_.portals = generatePortals(out->clusters_);
    } else { // the sight pose's tree compiled alone: of a tree kept without its map trees (a
             // .shallot's), or of the structural brushes
        std::vector<Brush> brushes;
        for (size_t b = 0; b < world.brushes.size(); ++b)
            if (b >= settings.detail.size() || !settings.detail[b]) brushes.push_back(world.brushes[b]);
        std::string why;
        std::optional<BspTree> alone = compileSightMapTree(brushes, compiled.onion.poses[size_t(pose)], world.bounds,
                                                           settings.threads, settings.cancel, &why);
        if (!alone) {
            if (error) *error = "the sight pose's map tree did not compile: " + why;
            return nullptr;
        }
        out->clusters_ = std::move(*alone);
    }
    throwIfCancelled(settings.cancel);
    LeafClusters leafClusters(compiled.onion, out->clusters_);
    // Detail splits no cluster, but a cluster it fills blocks sight.
    if (out->detailClustered_) out->filledClusters_ = markFilledClustersSolid(out->clusters_, compiled.onion, pose, leafClusters);
    PvsSettings flow;
    flow.fullFlow = settings.fullFlow;
    flow.localWaves = true; // so that the next edit can update it
    flow.threads = settings.threads;
    flow.cancel = settings.cancel;
    const SightPvs* previous = settings.previous.get();
    if (previous && previous->pose_ == pose && !settings.fullFlow && previous->fullFlow_) {
        out->pvs_ = provisionalPvs(previous->flow_, out->clusters_, flow, &out->stats_, &out->flow_, &out->updateStats_);
        out->updated_ = !out->updateStats_.fromScratch;
        out->provisional_ = out->updated_;
    } else if (previous && previous->pose_ == pose) {
        out->pvs_ = updatePvs(previous->flow_, out->clusters_, flow, &out->stats_, &out->flow_, &out->updateStats_);
        out->updated_ = !out->updateStats_.fromScratch;
    } else {
        out->pvs_ = computePvs(out->clusters_, flow, &out->stats_, &out->flow_);
    }
    out->onion_.emplace(std::move(leafClusters), out->pvs_);
    throwIfCancelled(settings.cancel);

    // The brushes near each cluster (by box), and per cluster those near what it sees.
    std::vector<Aabb> boxes;
    std::vector<uint32_t> faces;
    for (const Brush& b : world.brushes) {
        const BrushGeometryResult g = buildBrushGeometry(b, world.bounds);
        boxes.push_back(g.geometry ? g.geometry->bounds : Aabb{});
        faces.push_back(g.geometry ? uint32_t(g.geometry->hull.faces.size()) : 0u);
    }
    faces.resize((faces.size() + 63) / 64 * 64, 0);
    const size_t words = (boxes.size() + 63) / 64, clusterCount = out->clusters_.leafCount();
    const LeafBrushes near(out->clusters_, boxes);
    std::vector<BrushRow> nearRows(clusterCount, BrushRow(words, 0));
    for (size_t c = 0; c < clusterCount; ++c)
        for (const uint32_t b : near.brushesNear(int32_t(c))) nearRows[c][b / 64] |= uint64_t(1) << (b % 64);
    throwIfCancelled(settings.cancel);
    std::vector<BrushRow> seenRows(clusterCount, BrushRow(words, 0));
    for (size_t c = 0; c < clusterCount; ++c)
        for (const int32_t v : out->pvs_.leavesFrom(int32_t(c))) orInto(seenRows[c], nearRows[size_t(v)]);

    const std::vector<bool> outside = reachableFromOutside(out->clusters_, 0);
    // The clusters' figures are the flow's own (same leaves: empty, out of the void's reach).
    Figures& f = out->figures_;
    const PvsStats& stats = out->stats_;
    f.leaves = stats.emptyLeaves - stats.outsideLeaves;
    f.averageLeaves = stats.averageVisible;
    f.largestLeaves = stats.largestVisible;
    double weightSum = 0;
    out->clusterWeight_.assign(clusterCount, 0);
    for (size_t c = 0; c < clusterCount; ++c) {
        if ((out->clusters_.leafSolid[c] & 1u) || (c < outside.size() && outside[c])) continue;
        const uint32_t weight = facesOf(seenRows[c], faces);
        out->clusterWeight_[c] = weight;
        weightSum += double(weight);
        f.largestWeight = std::max(f.largestWeight, size_t(weight));
    }
    if (f.leaves > 0) f.averageWeight = weightSum / double(f.leaves);
    const size_t onionLeaves = compiled.onion.leafCount();
    out->viewWeight_.assign(onionLeaves, 0);
    BrushRow row(words);
    for (size_t leaf = 0; leaf < onionLeaves; ++leaf) {
        if ((compiled.onion.leafSolid[leaf] >> pose) & 1u) continue;
        // Clusters in reach of the void see everything there, unflowed: no eye goes there.
        std::fill(row.begin(), row.end(), 0);
        for (const int32_t c : out->onion_->clustersOf(int32_t(leaf)))
            if (size_t(c) >= outside.size() || !outside[size_t(c)]) orInto(row, seenRows[size_t(c)]);
        out->viewWeight_[leaf] = facesOf(row, faces);
    }
    const LeafCellList cells = leafCells(out->clusters_);
    out->clusterBounds_.resize(clusterCount);
    for (size_t c = 0; c < clusterCount; ++c)
        if (!cells[c].empty()) out->clusterBounds_[c] = cells[c].bounds();
    out->milliseconds_ = clock.lapMs();
    return out;
}

std::vector<int32_t> SightPvs::heaviestClusters(uint32_t limit, size_t count) const {
    std::vector<int32_t> over;
    for (size_t c = 0; c < clusterWeight_.size(); ++c)
        if (clusterWeight_[c] > limit) over.push_back(int32_t(c));
    const size_t kept = std::min(count, over.size());
    std::partial_sort(over.begin(), over.begin() + long(kept), over.end(),
                      [&](int32_t a, int32_t b) { return clusterWeight_[size_t(a)] > clusterWeight_[size_t(b)]; });
    over.resize(kept);
    return over;
}

} // namespace shallot

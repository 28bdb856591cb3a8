// The sight pose's PVS over a compiled world (portal/sight_pvs.h): the onion leaves' sets
// through their clusters, the full flow inside the base flow, the view weights against the
// brushes whose boxes meet the cells of what a leaf sees, and its errors.
#include "portal/leaf_cells.h"
#include "portal/leaf_visibility.h"
#include "portal/reachability.h"
#include "portal/sight_pvs.h"
#include "query/trace.h"
#include "world/brush_geometry.h"
#include "nav_helpers.h"
#include "random_world.h"

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

// A room with random brushes inside, Quake's poses.
World roomWorld(Rng& rng) {
    std::vector<Brush> inside = randomRoomBrushes(rng);
    inside.resize(std::min<size_t>(inside.size(), 10));
    return navRoom(std::move(inside));
}

// A brush box overlaps a cell's box by more than this in every axis when it surely meets
// the cell's box (the brute-force lower bound below leaves touching boxes out).
constexpr double kSureOverlap = 0.5;

bool overlapsSurely(const Aabb& a, const Aabb& b) {
    return ((a.mins.array() + kSureOverlap < b.maxs.array()) && (b.mins.array() + kSureOverlap < a.maxs.array())).all();
}

} // namespace

TEST(SightPvs, ViewWeightsCountTheFacesNearWhatEachLeafSees) {
    Rng rng(3941);
    for (int round = 0; round < 4; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const World w = roomWorld(rng);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const std::shared_ptr<const SightPvs> pvs = SightPvs::compute(r, w, {});
        ASSERT_TRUE(pvs);
        const int sight = pvs->pose();
        // Brute force: the brushes whose boxes surely overlap the box of a cluster cell the
        // leaf sees are counted (their faces); no count exceeds every valid brush's faces.
        std::vector<Aabb> brushBoxes;
        std::vector<uint32_t> faces;
        uint32_t allFaces = 0;
        for (const Brush& b : w.brushes) {
            const BrushGeometryResult g = buildBrushGeometry(b, w.bounds);
            brushBoxes.push_back(g.geometry ? g.geometry->bounds : Aabb{});
            faces.push_back(g.geometry ? uint32_t(g.geometry->hull.faces.size()) : 0u);
            allFaces += faces.back();
        }
        const LeafCellList clusterCells = leafCells(pvs->clusterTree());
        // Clusters in reach of the void see everything unflowed and weigh nothing.
        const std::vector<bool> outside = reachableFromOutside(pvs->clusterTree(), 0);
        size_t checked = 0;
        for (size_t leaf = 0; leaf < r.onion.leafCount(); ++leaf) {
            const uint32_t weight = pvs->viewWeight()[leaf];
            if ((r.onion.leafSolid[leaf] >> sight) & 1u) {
                EXPECT_EQ(weight, 0u);
                continue;
            }
            std::vector<bool> seenClusters(pvs->clusterTree().leafCount(), false);
            bool inside = false;
            for (const int32_t c : pvs->onion().clustersOf(int32_t(leaf))) {
                if (outside[size_t(c)]) continue;
                inside = true;
                for (const int32_t v : pvs->clusterPvs().leavesFrom(c)) seenClusters[size_t(v)] = true;
            }
            if (!inside) {
                EXPECT_EQ(weight, 0u) << "leaf " << leaf << " is in the void's reach";
                continue;
            }
            uint32_t sure = 0;
            for (size_t b = 0; b < brushBoxes.size(); ++b) {
                bool near = false;
                for (size_t c = 0; c < seenClusters.size() && !near; ++c)
                    near = seenClusters[c] && !clusterCells[c].empty() && overlapsSurely(brushBoxes[b], clusterCells[c].bounds());
                if (near) sure += faces[b];
            }
            EXPECT_GE(weight, sure) << "leaf " << leaf;
            EXPECT_LE(weight, allFaces) << "leaf " << leaf;
            EXPECT_GT(weight, 0u) << "an empty leaf inside a room sees its walls";
            ++checked;
        }
        EXPECT_GT(checked, 10u);
        // The heaviest clusters: over the limit, heaviest first, their weights the figures'.
        const std::vector<int32_t> heaviest = pvs->heaviestClusters(0, 5);
        ASSERT_FALSE(heaviest.empty());
        EXPECT_EQ(pvs->clusterWeight()[size_t(heaviest[0])], pvs->figures().largestWeight);
        for (size_t k = 1; k < heaviest.size(); ++k)
            EXPECT_GE(pvs->clusterWeight()[size_t(heaviest[k - 1])], pvs->clusterWeight()[size_t(heaviest[k])]);
        EXPECT_TRUE(pvs->heaviestClusters(uint32_t(pvs->figures().largestWeight), 5).empty());
        EXPECT_FALSE(pvs->clusterBounds()[size_t(heaviest[0])].empty());
        const SightPvs::Figures& f = pvs->figures();
        EXPECT_GT(f.leaves, 0u);
        EXPECT_LE(f.averageLeaves, double(f.largestLeaves));
        EXPECT_LE(f.averageWeight, double(f.largestWeight));
        EXPECT_LE(f.largestWeight, allFaces);
    }
}

TEST(SightPvs, TheFullFlowSeesNoMoreThanTheBaseFlow) {
    Rng rng(3942);
    for (int round = 0; round < 3; ++round) {
        const World w = roomWorld(rng);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        SightPvsSettings fast;
        fast.fullFlow = false;
        const auto base = SightPvs::compute(r, w, fast), full = SightPvs::compute(r, w, {});
        ASSERT_TRUE(base && full);
        EXPECT_FALSE(base->fullFlow());
        EXPECT_TRUE(full->fullFlow());
        for (size_t leaf = 0; leaf < r.onion.leafCount(); ++leaf) {
            const std::vector<bool> a = base->visibleFrom(int32_t(leaf)), b = full->visibleFrom(int32_t(leaf));
            for (size_t k = 0; k < a.size(); ++k) ASSERT_TRUE(a[k] || !b[k]) << leaf << " sees " << k;
            EXPECT_LE(full->viewWeight()[leaf], base->viewWeight()[leaf]);
        }
        EXPECT_LE(full->figures().averageLeaves, base->figures().averageLeaves);
    }
}

TEST(SightPvs, AWorldWithoutAPointPoseHasNone) {
    World w = navRoom({});
    w.poses.erase(w.poses.begin() + sightPose(w.poses));
    ASSERT_LT(sightPose(w.poses), 0);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    std::string error;
    EXPECT_FALSE(SightPvs::compute(r, w, {}, &error));
    EXPECT_NE(error.find("no pose is a point"), std::string::npos) << error;
}

TEST(SightPvs, ACancelledComputationThrows) {
    const World w = navRoom({});
    const CompileResult r = compileWorld(w);
    CancelToken cancel;
    cancel.cancelled = true;
    SightPvsSettings settings;
    settings.cancel = &cancel;
    EXPECT_THROW(SightPvs::compute(r, w, settings), CompileCancelled);
}

// A tree kept without its map trees (a .shallot's stored compile) gets the same PVS: the
// sight pose's map tree is compiled alone.
TEST(SightPvs, ATreeWithoutMapTreesGetsTheSamePvs) {
    Rng rng(3943);
    const World w = roomWorld(rng);
    CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const auto withMapTrees = SightPvs::compute(r, w, {});
    r.mapTrees.clear();
    const auto without = SightPvs::compute(r, w, {});
    ASSERT_TRUE(withMapTrees && without);
    EXPECT_TRUE(withMapTrees->clusterPvs() == without->clusterPvs());
    EXPECT_EQ(withMapTrees->viewWeight(), without->viewWeight());
    for (size_t leaf = 0; leaf < r.onion.leafCount(); ++leaf)
        ASSERT_EQ(withMapTrees->visibleFrom(int32_t(leaf)), without->visibleFrom(int32_t(leaf))) << leaf;
}

// Detail brushes left out of the clusters: fewer clusters, and still never a miss (every
// segment through no solid of the whole world joins leaves that see each other).
TEST(SightPvs, DetailBrushesSplitNoClusterAndMissNothing) {
    Rng rng(3944);
    const Aabb room{Vec3(0, 0, 0), Vec3(1024, 512, 256)};
    size_t clear = 0;
    for (int round = 0; round < 3; ++round) {
        const World w = roomWorld(rng);
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        SightPvsSettings settings;
        settings.detail.assign(w.brushes.size(), false);
        for (size_t b = 0; b < w.brushes.size(); ++b) settings.detail[b] = b % 2 == 1;
        const auto all = SightPvs::compute(r, w, {}), structural = SightPvs::compute(r, w, settings);
        ASSERT_TRUE(all && structural);
        EXPECT_FALSE(all->detailClustered());
        EXPECT_TRUE(structural->detailClustered());
        EXPECT_LT(structural->clusterTree().leafCount(), all->clusterTree().leafCount());
        const int sight = structural->pose();
        for (int pair = 0; pair < 3000; ++pair) {
            const auto point = [&] {
                return Vec3(uniform(rng, room.mins.x(), room.maxs.x()), uniform(rng, room.mins.y(), room.maxs.y()),
                            uniform(rng, room.mins.z(), room.maxs.z()));
            };
            const Vec3 a = point(), b = point();
            const TraceResult t = traceSegment(r.onion, sight, a, b);
            if (t.hit || t.startSolid) continue;
            ++clear;
            const int32_t la = r.onion.findLeaf(a), lb = r.onion.findLeaf(b);
            ASSERT_TRUE(structural->onion().visible(la, lb)) << a.transpose() << " to " << b.transpose();
            ASSERT_TRUE(structural->visibleFrom(la)[size_t(lb)]);
        }
    }
    EXPECT_GT(clear, 500u);
}

// Two halves of a room joined by a doorway in a structural wall, the doorway filled by a
// detail brush: the doorway is a cluster of its own (the wall's faces bound it), and being
// all detail solid it blocks sight as in ericw-tools' vis, so neither half sees the other;
// with the filler left out they do.
TEST(SightPvs, AClusterDetailFillsBlocksSight) {
    std::vector<Brush> inside = {Brush::box({496, 0, 0}, {528, 192, 256}), Brush::box({496, 320, 0}, {528, 512, 256}),
                                 Brush::box({496, 192, 128}, {528, 320, 256})};
    const Brush filler = Brush::box({496, 192, 0}, {528, 320, 128});
    const Vec3 west(200, 256, 64), east(800, 256, 64);
    for (const bool filled : {true, false}) {
        SCOPED_TRACE(filled ? "doorway filled" : "doorway open");
        std::vector<Brush> brushes = inside;
        if (filled) brushes.push_back(filler);
        const World w = navRoom(std::move(brushes));
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty()) << r.error;
        SightPvsSettings settings;
        settings.detail.assign(w.brushes.size(), false);
        if (filled) settings.detail.back() = true;
        const auto pvs = SightPvs::compute(r, w, settings);
        ASSERT_TRUE(pvs);
        EXPECT_EQ(pvs->detailClustered(), filled);
        EXPECT_EQ(pvs->filledClusters(), filled ? 1u : 0u);
        EXPECT_EQ(pvs->onion().visible(r.onion.findLeaf(west), r.onion.findLeaf(east)), !filled);
    }
}

// The potentially visible set (issue #39, part 1; core/portal/potentially_visible_set.h):
// conservative against segments traced through the tree (every pair of points joined by a
// segment through empty leaves only has its leaves in each other's PVS, never a miss), on
// random worlds for the onion tree and the sight pose's map tree; tighter with the full
// flow than with the base flow; and blind around a corner where a wall hides one end of a
// corridor from the other.
#include "compile/compiler.h"
#include "edit/brush_operations.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "portal/cluster_visibility.h"
#include "portal/leaf_visibility.h"
#include "portal/portal_generation.h"
#include "portal/reachability.h"
#include "portal/potentially_visible_set.h"
#include "portal/sampled_visibility.h"
#include "query/trace.h"
#include "nav_helpers.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <set>
#include <utility>

using namespace shallot;
using namespace shallot::test;

namespace {

// Counts of the conservativeness check: pairs of points seen from each other, and misses.
struct SegmentCheck {
    int clear = 0;
    int missed = 0;
};

// Where the segments' ends are drawn from.
using PointSource = std::function<Vec3()>;

PointSource pointsIn(Rng& rng, const Aabb& box) {
    return [&rng, box] {
        return Vec3(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                    uniform(rng, box.mins.z(), box.maxs.z()));
    };
}

// Random points of random portals open for `pose`, each moved kNearPortal to one side: the
// segments between them go through the openings, where visibility is decided. Empty when
// no portal is open.
PointSource pointsNearPortals(const BspTree& tree, int pose, Rng& rng) {
    constexpr double kNearPortal = 0.01;
    std::vector<size_t> open;
    for (size_t i = 0; i < tree.portals.size(); ++i)
        if ((tree.portals[i].poses >> pose) & 1u) open.push_back(i);
    if (open.empty()) return {};
    return [&tree, &rng, open] {
        const size_t i = open[rng() % open.size()];
        const std::span<const Vec3> v = tree.portals.vertices(i);
        const Vec3 n = tree.planes[size_t(tree.portals[i].plane)].normal;
        return Vec3(randomPointIn(rng, Polygon{{v.begin(), v.end()}}) + (rng() % 2 ? kNearPortal : -kNearPortal) * n);
    };
}

// Whether leaf `to` is listed as seen from leaf `from`.
using LeafSeen = std::function<bool(int32_t from, int32_t to)>;

LeafSeen seenIn(const PotentiallyVisibleSet& pvs) {
    return [&pvs](int32_t from, int32_t to) { return pvs.visible(from, to); };
}

// Random pairs of points from `point`, empty for `pose`: when the segment between them
// meets no solid, each end's leaf must be seen from the other's. With `misses`, the pairs
// that are not are collected there instead of failing.
SegmentCheck checkSegments(const BspTree& tree, int pose, const LeafSeen& seen, const PointSource& point, int pairs,
                           std::set<std::pair<int32_t, int32_t>>* misses = nullptr) {
    SegmentCheck out;
    if (!point) return out;
    for (int i = 0; i < pairs; ++i) {
        const Vec3 a = point(), b = point();
        if (tree.isSolid(a, pose) || tree.isSolid(b, pose)) continue;
        const TraceResult t = traceSegment(tree, pose, a, b);
        if (t.startSolid || t.hit) continue;
        ++out.clear;
        const int32_t la = tree.findLeaf(a), lb = tree.findLeaf(b);
        const bool ab = seen(la, lb);
        EXPECT_EQ(ab, seen(lb, la));
        if (ab) continue;
        ++out.missed;
        if (misses) {
            misses->insert(std::minmax(la, lb));
            continue;
        }
        ADD_FAILURE() << "leaf " << lb << " at " << b.transpose() << " is seen from leaf " << la << " at "
                      << a.transpose() << " but not listed as seen";
        if (out.missed > 5) return out;
    }
    return out;
}

BspTree withPortals(BspTree tree) {
    tree.portals = generatePortals(tree);
    return tree;
}

size_t totalVisible(const PotentiallyVisibleSet& pvs) {
    size_t n = 0;
    for (size_t leaf = 0; leaf < pvs.leafCount(); ++leaf) n += pvs.countFrom(int32_t(leaf));
    return n;
}

// Full flow within base flow, leaf by leaf.
void expectFullWithinBase(const PotentiallyVisibleSet& full, const PotentiallyVisibleSet& base) {
    for (size_t a = 0; a < full.leafCount(); ++a)
        for (const int32_t b : full.leavesFrom(int32_t(a))) ASSERT_TRUE(base.visible(int32_t(a), b)) << a << " " << b;
}

} // namespace

// Random rooms (navRoom with 8 random brushes): the sight pose's map tree with the full flow
// and the onion tree with the base flow (the full flow over the onion's many small leaves,
// split by the other poses' planes, takes minutes: the editor will use the map tree's
// leaves as clusters).
TEST(PotentiallyVisibleSet, ConservativeInRandomRooms) {
    Rng rng(3939);
    int clear = 0;
    size_t fullTotal = 0, baseTotal = 0;
    for (int room = 0; room < 6; ++room) {
        SCOPED_TRACE(room);
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(8);
        const World w = navRoom(std::move(inside));
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(w, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const int sight = sightPose(r.onion);
        ASSERT_EQ(sight, 0);
        const Aabb room3d{Vec3(0, 0, 0), Vec3(1024, 512, 256)};
        const BspTree map = withPortals(r.mapTrees[0]);
        PvsSettings settings;
        settings.threads = 2;
        const PotentiallyVisibleSet full = computePvs(map, settings);
        settings.fullFlow = false;
        const PotentiallyVisibleSet base = computePvs(map, settings);
        expectFullWithinBase(full, base);
        fullTotal += totalVisible(full);
        baseTotal += totalVisible(base);
        SegmentCheck c = checkSegments(map, 0, seenIn(full), pointsIn(rng, room3d), 3000);
        clear += c.clear;
        if (c.missed) return;
        settings.pose = sight;
        const PotentiallyVisibleSet onionBase = computePvs(r.onion, settings);
        c = checkSegments(r.onion, sight, seenIn(onionBase), pointsIn(rng, room3d), 2000);
        if (c.missed) return;
    }
    EXPECT_GT(clear, 6000);
    EXPECT_LT(fullTotal, baseTotal); // the separating planes cut something
}

// The onion tree's leaves seen through the sight pose's map tree (cluster_visibility.h):
// segments traced through the onion that meet no solid for the sight pose join leaves that
// see each other, in random rooms and on id_e1m7 with Quake's three poses (random points,
// and random points of the onion's portals).
TEST(PotentiallyVisibleSet, OnionLeavesSeeThroughTheirClusters) {
    Rng rng(3940);
    const auto check = [&](const World& w, const Aabb& box, int pairs) {
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(w, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const int sight = sightPose(r.onion);
        ASSERT_GE(sight, 0);
        const BspTree map = withPortals(r.mapTrees[size_t(sight)]);
        PvsSettings settings;
        settings.threads = 2;
        const PotentiallyVisibleSet pvs = computePvs(map, settings);
        const ClusterVisibility clusters(r.onion, map, pvs);
        size_t listed = 0;
        for (size_t leaf = 0; leaf < r.onion.leafCount(); ++leaf) {
            listed += clusters.clustersOf(int32_t(leaf)).size();
            if (!((r.onion.leafSolid[leaf] >> sight) & 1u)) {
                ASSERT_FALSE(clusters.clustersOf(int32_t(leaf)).empty()) << leaf;
            }
        }
        std::cout << r.onion.leafCount() << " onion leaves in " << map.leafCount() << " clusters, "
                  << double(listed) / double(r.onion.leafCount()) << " clusters per leaf\n";
        const LeafSeen seen = [&](int32_t from, int32_t to) {
            return clusters.visible(from, to) && clusters.visibleFrom(from)[size_t(to)];
        };
        const int clear = checkSegments(r.onion, sight, seen, pointsIn(rng, box), pairs / 2).clear +
                          checkSegments(r.onion, sight, seen, pointsNearPortals(r.onion, sight, rng), pairs / 2).clear;
        EXPECT_GT(clear, pairs / 50);
    };
    for (int room = 0; room < 3; ++room) {
        std::vector<Brush> inside = randomRoomBrushes(rng);
        inside.resize(8);
        check(navRoom(std::move(inside)), {Vec3(0, 0, 0), Vec3(1024, 512, 256)}, 2000);
    }
    const MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m7.map");
    if (!read.ok()) return;
    const World e1m7 = worldFromMap(*read.map);
    Aabb level;
    for (const Brush& b : e1m7.brushes) level.add(bounds(b));
    check(e1m7, level, 20000);
}

// Two closed rooms side by side never see each other, and the leaves of one room see
// each other.
TEST(PotentiallyVisibleSet, ClosedRoomsDoNotSeeEachOther) {
    World w = navRoom({});
    for (Brush& b : navRoom({}).brushes) w.brushes.push_back(translated(b, Vec3(0, 600, 0)));
    w.poses.resize(1);
    const CompileResult r = compileWorld(w);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const BspTree map = withPortals(r.mapTrees[0]);
    const PotentiallyVisibleSet pvs = computePvs(map, {});
    const int32_t a = map.findLeaf(Vec3(500, 250, 100)), b = map.findLeaf(Vec3(500, 850, 100));
    EXPECT_TRUE(pvs.visible(a, a));
    EXPECT_FALSE(pvs.visible(a, b));
    EXPECT_EQ(pvs.countFrom(a), 1u); // an empty room is one leaf
}

namespace {

struct LevelPvs {
    BspTree map;
    Aabb level;
    PotentiallyVisibleSet full, base;
    PvsStats fullStats, baseStats;
};

// A shared Quake level's sight-pose map tree (its point pose alone) and both flows.
std::optional<LevelPvs> levelPvs(const std::string& path) {
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) return std::nullopt;
    World w = worldFromMap(*read.map);
    w.poses.resize(1); // the point pose: what the eye sees
    CompileOptions options;
    options.threads = 2;
    const CompileResult r = compileWorld(w, options);
    EXPECT_TRUE(r.error.empty());
    LevelPvs out{withPortals(r.mapTrees[0]), {}, {}, {}, {}, {}};
    for (const Brush& b : w.brushes) out.level.add(bounds(b));
    PvsSettings settings;
    settings.threads = 2;
    out.full = computePvs(out.map, settings, &out.fullStats);
    settings.fullFlow = false;
    out.base = computePvs(out.map, settings, &out.baseStats);
    std::cout << path << ": " << out.map.leafCount() << " leaves, " << out.fullStats.emptyLeaves << " empty ("
              << out.fullStats.outsideLeaves << " in reach of the void), " << out.fullStats.oneWayPortals
              << " one-way portals; average (largest) visible: base flow " << out.baseStats.averageVisible << " ("
              << out.baseStats.largestVisible << ") in " << out.baseStats.baseMs + out.baseStats.flowMs
              << " ms, full flow " << out.fullStats.averageVisible << " (" << out.fullStats.largestVisible << ") in "
              << out.fullStats.baseMs + out.fullStats.flowMs << " ms\n";
    return out;
}

void expectLevelPvsGood(const LevelPvs& l, int pairs) {
    expectFullWithinBase(l.full, l.base);
    EXPECT_LT(l.fullStats.averageVisible, 0.7 * l.baseStats.averageVisible); // the flow culls
    Rng rng(11);
    const SegmentCheck c = checkSegments(l.map, 0, seenIn(l.full), pointsIn(rng, l.level), pairs);
    EXPECT_GT(c.clear, pairs / 100);
    const SegmentCheck p = checkSegments(l.map, 0, seenIn(l.full), pointsNearPortals(l.map, 0, rng), pairs);
    EXPECT_GT(p.clear, pairs / 20);
}

} // namespace

// id_e1m7 (1,650 one-way portals inside, about a second): the full flow is conservative for
// random segments and culls half of what the base flow keeps.
// The answer does not depend on the number of threads.
TEST(PotentiallyVisibleSet, IdE1m7FullFlow) {
    const std::optional<LevelPvs> l = levelPvs(SHALLOT_SHARED_MAPS "/id_e1m7.map");
    if (!l) GTEST_SKIP() << "no id_e1m7";
    expectLevelPvsGood(*l, 40000);
    PvsSettings oneThread;
    EXPECT_TRUE(computePvs(l->map, oneThread) == l->full);
}

// The thesis's sampled PVS (sampled_visibility.h) on id_e1m7: every pair it finds visible
// (a clear segment between samples) is in the full flow's PVS, and it misses pairs that
// random segments through the portals find clear. Prints both counts.
TEST(PotentiallyVisibleSet, TheThesisSamplesMissWhatTheFlowKeeps) {
    const std::optional<LevelPvs> l = levelPvs(SHALLOT_SHARED_MAPS "/id_e1m7.map");
    if (!l) GTEST_SKIP() << "no id_e1m7";
    SampledPvsSettings settings;
    settings.threads = 2;
    const PotentiallyVisibleSet sampled = sampledPvs(l->map, settings);
    // Ordered pairs of distinct leaves out of the void's reach.
    const std::vector<bool> outside = reachableFromOutside(l->map, 0);
    size_t sampledPairs = 0, fullPairs = 0;
    for (size_t a = 0; a < sampled.leafCount(); ++a) {
        if (outside[a]) continue;
        for (const int32_t b : sampled.leavesFrom(int32_t(a))) {
            ASSERT_TRUE(l->full.visible(int32_t(a), b)) << "leaf " << b << " is seen from " << a << " between samples";
            sampledPairs += b != int32_t(a);
        }
        for (const int32_t b : l->full.leavesFrom(int32_t(a))) fullPairs += b != int32_t(a);
    }
    // Pairs seen along random segments through the portals that the samples missed.
    Rng rng(5);
    std::set<std::pair<int32_t, int32_t>> missed;
    const SegmentCheck c = checkSegments(l->map, 0, seenIn(sampled), pointsNearPortals(l->map, 0, rng), 40000, &missed);
    std::erase_if(missed, [&](const auto& pair) { return outside[size_t(pair.first)] || outside[size_t(pair.second)]; });
    std::cout << "id_e1m7: the samples find " << sampledPairs << " visible pairs, the full flow keeps " << fullPairs
              << " (ordered pairs of leaves inside); " << missed.size() << " unordered pairs of them seen along the "
              << c.clear << " clear segments (of 40,000) between random points of the portals are missing from the samples' PVS\n";
    EXPECT_LE(sampledPairs, fullPairs);
}

// The same on id_e1m1 (5,990 one-way portals, 45 s on two loaded cores): run by .ci/run's
// later stages, not by the test command.
TEST(PotentiallyVisibleSet, DISABLED_IdE1m1FullFlow) {
    const std::optional<LevelPvs> l = levelPvs(SHALLOT_SHARED_MAPS "/id_e1m1.map");
    if (!l) GTEST_SKIP() << "no id_e1m1";
    expectLevelPvsGood(*l, 100000);
}

// id_e1m1, the sight pose's map tree, base flow: conservative for random segments between
// empty leaves' interior points. Prints Quake's "average leafs visible" figure (the full
// flow's figures are in docs/visibility.md: it takes minutes here).
TEST(PotentiallyVisibleSet, IdE1m1BaseFlow) {
    const std::string path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    const MapReadResult read = readMapFile(path);
    if (!read.ok()) GTEST_SKIP() << "no " << path;
    World w = worldFromMap(*read.map);
    w.poses.resize(1); // the point pose: what the eye sees
    CompileOptions options;
    options.threads = 2;
    const CompileResult r = compileWorld(w, options);
    ASSERT_TRUE(r.error.empty());
    const BspTree map = withPortals(r.mapTrees[0]);
    PvsSettings settings;
    settings.threads = 2;
    settings.fullFlow = false;
    PvsStats stats;
    const PotentiallyVisibleSet base = computePvs(map, settings, &stats);
    std::cout << "id_e1m1 point map tree: " << map.leafCount() << " leaves, " << stats.emptyLeaves << " empty, "
              << stats.oneWayPortals << " one-way portals; base flow: " << stats.averageVisible
              << " visible on average, largest " << stats.largestVisible << " (" << stats.baseMs + stats.flowMs << " ms)\n";
    Rng rng(11);
    Aabb level;
    for (const Brush& b : w.brushes) level.add(bounds(b));
    const SegmentCheck c = checkSegments(map, 0, seenIn(base), pointsIn(rng, level), 40000);
    const int clear = c.clear;
    EXPECT_GT(clear, 200);
}

// Updating a navigation mesh near an edit (core/nav/nav_mesh_update.h) against rebuilding
// it whole: random rooms with random one-brush edits (move, add, delete) and id_e1m1 with a
// few, compiled incrementally as the editor does and from scratch; the meshes must be the
// same. And where buildNavMesh's time goes, and what an update saves on id_e1m1
// (benchmarks: they print, and assert no time).
#include "nav_helpers.h"
#include "test_maps.h"

#include "compile/stopwatch.h"
#include "edit/brush_operations.h"
#include "incremental/incremental_compiler.h"
#include "nav/nav_mesh_update.h"
#include "test_scale.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

using Vertices = std::vector<std::array<double, 3>>;

// A polygon as its vertices, from the smallest on (the same polygon whatever vertex a
// tree's list starts at).
Vertices keyOf(const NavPolygon& p) {
    Vertices v;
    for (const Vec3& x : p.vertices) v.push_back({x.x(), x.y(), x.z()});
    std::rotate(v.begin(), std::min_element(v.begin(), v.end()), v.end());
    return v;
}

using LinkKey = std::tuple<Vertices, Vertices, int, std::array<double, 3>, std::array<double, 3>>;

// Whether two meshes are the same: polygons as sets of vertices, links as (from, to, kind,
// start, end), components up to renumbering. Reports the first differences.
bool sameMesh(const NavMesh& a, const NavMesh& b, const std::string& what) {
    bool same = true;
    auto keys = [](const NavMesh& m) {
        std::vector<Vertices> k;
        for (const NavPolygon& p : m.polygons) k.push_back(keyOf(p));
        return k;
    };
    const std::vector<Vertices> ka = keys(a), kb = keys(b);
    std::multiset<Vertices> pa(ka.begin(), ka.end()), pb(kb.begin(), kb.end());
    if (pa != pb) {
        ADD_FAILURE() << what << ": polygons differ (" << a.polygons.size() << " against " << b.polygons.size() << ")";
        return false;
    }
    auto links = [](const NavMesh& m, const std::vector<Vertices>& k) {
        std::multiset<LinkKey> out;
        for (const NavLink& l : m.links)
            out.insert({k[size_t(l.from)], k[size_t(l.to)], int(l.kind), {l.start.x(), l.start.y(), l.start.z()},
                        {l.end.x(), l.end.y(), l.end.z()}});
        return out;
    };
    const auto la = links(a, ka), lb = links(b, kb);
    if (la != lb) {
        std::vector<LinkKey> onlyA, onlyB;
        std::set_difference(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(onlyA));
        std::set_difference(lb.begin(), lb.end(), la.begin(), la.end(), std::back_inserter(onlyB));
        ADD_FAILURE() << what << ": links differ: " << onlyA.size() << " only in the update, " << onlyB.size()
                      << " only in the rebuild (of " << la.size() << ")";
        for (const auto* only : {&onlyA, &onlyB})
            for (size_t i = 0; i < std::min<size_t>(3, only->size()); ++i) {
                const auto& [f, t, kind, s, e] = (*only)[i];
                ADD_FAILURE() << (only == &onlyA ? "  update: " : "  rebuild: ") << navLinkKindName(NavLinkKind(kind))
                              << " from (" << f[0][0] << " " << f[0][1] << " " << f[0][2] << ") start (" << s[0] << " "
                              << s[1] << " " << s[2] << ") end (" << e[0] << " " << e[1] << " " << e[2] << ")";
            }
        same = false;
    }
    // Components up to renumbering: one to one between the two labellings.
    std::map<Vertices, int32_t> ofB;
    for (size_t i = 0; i < kb.size(); ++i) ofB[kb[i]] = b.polygons[i].component;
    std::map<int32_t, int32_t> ab, ba;
    for (size_t i = 0; i < ka.size(); ++i) {
        const int32_t ca = a.polygons[i].component, cb = ofB[ka[i]];
        if (ab.emplace(ca, cb).first->second != cb || ba.emplace(cb, ca).first->second != ca) {
            ADD_FAILURE() << what << ": components differ";
            return false;
        }
    }
    if (a.componentCount != b.componentCount || a.surfaceCount != b.surfaceCount) {
        ADD_FAILURE() << what << ": component or surface counts differ";
        same = false;
    }
    return same;
}

NavSettings jumping() {
    NavSettings s;
    s.jump = true;
    return s;
}

// One random edit of the brushes after the room's six walls: move one, add one or delete one.
World randomEdit(Rng& rng, World w) {
    const size_t walls = 6;
    const int kind = int(rng() % 3);
    const size_t inside = w.brushes.size() - walls;
    if (kind == 1 || inside == 0) {
        const Vec3 c(uniform(rng, 64, 960), uniform(rng, 64, 448), uniform(rng, 0, 96));
        w.brushes.insert(w.brushes.begin() + long(walls + rng() % (inside + 1)),
                         randomBrush(rng, c, uniform(rng, 24, 64), rng() % 3 == 0 ? BrushShape::Random : BrushShape::Box));
    } else if (kind == 2) {
        w.brushes.erase(w.brushes.begin() + long(walls + rng() % inside));
    } else {
        Brush& b = w.brushes[walls + rng() % inside];
        const Vec3 by(std::round(uniform(rng, -48, 48)), std::round(uniform(rng, -48, 48)), std::round(uniform(rng, -24, 24)));
        for (BrushSide& s : b.sides) s.plane.dist += s.plane.normal.dot(by);
    }
    return w;
}

struct Tally {
    size_t reused = 0, traced = 0, reusedJumps = 0, tracedJumps = 0, rebuilt = 0;
    void add(const NavUpdateStats& s) {
        reused += s.reused;
        traced += s.traced;
        reusedJumps += s.reusedJumps;
        tracedJumps += s.tracedJumps;
        rebuilt += s.rebuilt;
    }
};

// Follows a chain of worlds, each compiled incrementally (one compiler) and from scratch,
// updating each pose's mesh (player, large, player with jumps) from the one before on the
// same kind of tree, and checks every update against a rebuild.
void checkChain(const std::vector<World>& worlds, Tally (&tally)[2], const std::string& name) {
    struct Asked {
        int pose;
        NavSettings settings;
    };
    const std::vector<Asked> asked = {{kNavPlayer, {}}, {kNavLarge, {}}, {kNavPlayer, jumping()}};
    IncrementalCompiler compiler;
    std::vector<NavMesh> incremental, scratch;
    for (size_t step = 0; step < worlds.size(); ++step) {
        const World& w = worlds[step];
        const std::shared_ptr<const CompileResult> inc = compiler.compile(w);
        const CompileResult fresh = compileWorld(w);
        std::vector<Aabb> boxes;
        if (step > 0) {
            ASSERT_TRUE(changedBrushBounds(worlds[step - 1], w, boxes));
        }
        for (size_t k = 0; k < asked.size(); ++k) {
            const auto& [pose, settings] = asked[k];
            for (int kind = 0; kind < 2; ++kind) {
                const BspTree& tree = kind == 0 ? inc->onion : fresh.onion;
                std::vector<NavMesh>& chain = kind == 0 ? incremental : scratch;
                if (step == 0) {
                    chain.push_back(buildNavMeshForUpdates(tree, pose, settings));
                    continue;
                }
                NavUpdateStats stats;
                NavMesh updated = updateNavMesh(chain[k], tree, pose, settings, boxes, &stats);
                tally[kind].add(stats);
                const NavMesh rebuilt = buildNavMesh(tree, pose, settings);
                const std::string what = name + " step " + std::to_string(step) + (kind == 0 ? " incremental" : " scratch") +
                                         " pose " + std::to_string(pose) + (settings.jump ? " jumping" : "");
                EXPECT_TRUE(sameMesh(updated, rebuilt, what));
                chain[k] = std::move(updated);
            }
        }
    }
}

void printTally(const Tally (&tally)[2]) {
    for (int kind = 0; kind < 2; ++kind)
        std::printf("%s: probes reused %zu, traced %zu; jump probes reused %zu, traced %zu; %zu rebuilt\n",
                    kind == 0 ? "incremental" : "from scratch", tally[kind].reused, tally[kind].traced,
                    tally[kind].reusedJumps, tally[kind].tracedJumps, tally[kind].rebuilt);
}

void printSplit(const char* name, const std::string& path) {
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent";
    const World world = loadMap(path);
    const CompileResult result = compileWorld(world);
    for (const bool jump : {false, true}) {
        NavSettings s = world.poses[size_t(kNavPlayer)].nav;
        s.jump = jump;
        std::vector<NavBuildTimes> runs;
        for (int i = 0; i < 5; ++i) {
            NavBuildTimes t;
            buildNavMesh(result.onion, kNavPlayer, s, &t);
            runs.push_back(t);
        }
        std::sort(runs.begin(), runs.end(), [](const NavBuildTimes& a, const NavBuildTimes& b) { return a.total() < b.total(); });
        const NavBuildTimes& t = runs[runs.size() / 2];
        std::printf("%s player%s: total %.1f ms: polygons %.1f, walks %.1f, probes %.1f, components %.1f, jumps %.1f, "
                    "merging %.1f, grouping %.1f\n",
                    name, jump ? " (jumps on)" : "", t.total(), t.polygons, t.walks, t.probes, t.components, t.jumps,
                    t.merging, t.grouping);
    }
}

} // namespace

TEST(NavUpdate, RandomRoomsWithOneBrushEditsMatchRebuild) {
    Rng rng(30);
    Tally tally[2];
    for (int round = 0; round < 6; ++round) {
        const std::vector<Brush> inside = randomRoomBrushes(rng);
        std::vector<World> worlds = {navRoom(inside)};
        for (int edit = 0; edit < 4; ++edit) worlds.push_back(randomEdit(rng, worlds.back()));
        checkChain(worlds, tally, "room " + std::to_string(round));
    }
    printTally(tally);
    EXPECT_GT(tally[0].reused, tally[0].traced); // the update does reuse
    EXPECT_EQ(tally[0].rebuilt + tally[1].rebuilt, 0u);
}

// Changed walking rules or another world box reuse nothing, and still give the rebuild.
TEST(NavUpdate, OtherRulesRebuild) {
    const World w = navRoom({Brush::box({300, 100, 0}, {400, 200, 16})});
    const CompileResult r = compileWorld(w);
    const NavMesh before = buildNavMeshForUpdates(r.onion, kNavPlayer);
    NavSettings steeper;
    steeper.stepHeight = 24;
    NavUpdateStats stats;
    const NavMesh after = updateNavMesh(before, r.onion, kNavPlayer, steeper, {}, &stats);
    EXPECT_TRUE(stats.rebuilt);
    EXPECT_TRUE(sameMesh(after, buildNavMesh(r.onion, kNavPlayer, steeper), "rules"));
    const NavMesh plain = buildNavMesh(r.onion, kNavPlayer);
    const NavMesh same = updateNavMesh(before, r.onion, kNavPlayer, {}, {}, &stats);
    EXPECT_FALSE(stats.rebuilt);
    EXPECT_GT(stats.reused, 10 * stats.traced); // only falls down a wall's face are probed again
    EXPECT_TRUE(sameMesh(same, plain, "no edit"));
}

// Edits that change more than the solid near them: a wall deleted (the room leaks, so
// insideOnly leaves its floor out, then back in when the wall is put back) and a brush
// turned to water (the same planes, other contents).
TEST(NavUpdate, LeaksAndContentsMatchRebuild) {
    const World room = navRoom({Brush::box({300, 100, 0}, {400, 200, 16}), Brush::box({600, 300, 0}, {700, 400, 64})});
    World leaking = room;
    leaking.brushes.erase(leaking.brushes.begin() + 3);
    World water = room;
    water.brushes[7].contents = BrushContents::Water;
    Tally tally[2];
    checkChain({room, leaking, room, water}, tally, "leaks and contents");
    printTally(tally);
}

// id_e1m1 with one brush moved, one deleted and one added, one after the other.
TEST(NavUpdate, E1m1OneBrushEditsMatchRebuild) {
    const std::string path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent";
    std::vector<World> worlds = {loadMap(path)};
    ASSERT_GT(worlds[0].brushes.size(), 300u);
    World moved = worlds[0];
    for (BrushSide& s : moved.brushes[120].sides) s.plane.dist += s.plane.normal.dot(Vec3(16, 8, 0));
    worlds.push_back(moved);
    World deleted = worlds.back();
    deleted.brushes.erase(deleted.brushes.begin() + 250);
    worlds.push_back(deleted);
    World added = worlds.back();
    const Aabb near = bounds(added.brushes[40]);
    const Vec3 top(0.5 * (near.mins.x() + near.maxs.x()), 0.5 * (near.mins.y() + near.maxs.y()), near.maxs.z());
    added.brushes.push_back(Brush::box(top + Vec3(-16, -16, 0), top + Vec3(16, 16, 24)));
    worlds.push_back(added);
    Tally tally[2];
    checkChain(worlds, tally, "id_e1m1");
    printTally(tally);
    EXPECT_GT(tally[0].reused, 10 * tally[0].traced);
}

// id_e1m1 with random one-brush edits one after the other: moves, deletions, boxes added
// on top of brushes.
TEST(NavUpdate, E1m1RandomEditsMatchRebuild) {
    const std::string path = SHALLOT_SHARED_MAPS "/id_e1m1.map";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent";
    std::vector<World> worlds = {loadMap(path)};
    Rng rng(7);
    for (int i = 0; i < test::scaledCount(5); ++i) {
        World w = worlds.back();
        const size_t n = w.brushes.size();
        const int kind = int(rng() % 3);
        if (kind == 0) {
            const Vec3 by(std::round(uniform(rng, -32, 32)), std::round(uniform(rng, -32, 32)), std::round(uniform(rng, -16, 16)));
            for (BrushSide& s : w.brushes[rng() % n].sides) s.plane.dist += s.plane.normal.dot(by);
        } else if (kind == 1) {
            w.brushes.erase(w.brushes.begin() + long(rng() % n));
        } else {
            const Aabb near = bounds(w.brushes[rng() % n]);
            const Vec3 top(std::round(0.5 * (near.mins.x() + near.maxs.x())), std::round(0.5 * (near.mins.y() + near.maxs.y())),
                           near.maxs.z());
            w.brushes.insert(w.brushes.begin() + long(rng() % n), Brush::box(top + Vec3(-16, -16, 0), top + Vec3(16, 16, 24)));
        }
        worlds.push_back(std::move(w));
    }
    Tally tally[2];
    checkChain(worlds, tally, "id_e1m1 random");
    printTally(tally);
    EXPECT_GT(tally[0].reused, 10 * tally[0].traced);
}

// What an update costs against a rebuild on id_e1m1 after one brush moved (compiled
// incrementally, as the editor does): medians of 7, per pose.
static void benchOneBrushMoved(const char* name, const std::string& path, size_t brush) {
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " absent";
    const World before = loadMap(path);
    World after = before;
    ASSERT_LT(brush, after.brushes.size());
    for (BrushSide& s : after.brushes[brush].sides) s.plane.dist += s.plane.normal.dot(Vec3(16, 8, 0));
    IncrementalCompiler compiler;
    const std::shared_ptr<const CompileResult> a = compiler.compile(before);
    const std::shared_ptr<const CompileResult> b = compiler.compile(after);
    ASSERT_TRUE(b->stats.incremental);
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::vector<double> diffMs;
    std::optional<std::vector<Aabb>> edit;
    for (int i = 0; i < 7; ++i) {
        Stopwatch clock;
        edit = navWorldEdit(before, after, 16);
        diffMs.push_back(clock.lapMs());
    }
    ASSERT_TRUE(edit);
    const std::vector<Aabb> boxes = *edit;
    std::printf("%s: the edit (navWorldEdit) %.2f ms\n", name, median(diffMs));
    for (const auto& [pose, jump] : std::vector<std::pair<int, bool>>{{0, false}, {1, false}, {2, false}, {1, true}}) {
        NavSettings s = after.poses[size_t(pose)].nav;
        s.jump = jump;
        const NavMesh previous = buildNavMeshForUpdates(a->onion, pose, s);
        std::vector<double> update, rebuild, recorded;
        NavUpdateStats stats;
        NavBuildTimes t;
        for (int i = 0; i < 7; ++i) {
            Stopwatch clock;
            const NavMesh u = updateNavMesh(previous, b->onion, pose, s, boxes, &stats);
            update.push_back(clock.lapMs());
            const NavMesh r = buildNavMesh(b->onion, pose, s, &t);
            rebuild.push_back(clock.lapMs());
            buildNavMeshForUpdates(b->onion, pose, s);
            recorded.push_back(clock.lapMs());
            if (i == 0) {
                EXPECT_TRUE(sameMesh(u, r, "bench"));
            }
        }
        std::printf("%s %s%s, one brush moved: rebuild %.1f ms (recording its probes %.1f ms), update %.1f ms (walks %.1f, probes %.1f, jumps %.1f); "
                    "probes reused %zu, traced %zu (%zu fragile); jump probes reused %zu, traced %zu (%zu fragile)\n",
                    name, after.poses[size_t(pose)].name.c_str(), jump ? " (jumps on)" : "", median(rebuild), median(recorded),
                    median(update),
                    stats.times.walks, stats.times.probes, stats.times.jumps, stats.reused, stats.traced, stats.fragile,
                    stats.reusedJumps, stats.tracedJumps, stats.fragileJumps);
    }
}

TEST(NavUpdateBench, E1m1OneBrushMoved) { benchOneBrushMoved("id_e1m1", SHALLOT_SHARED_MAPS "/id_e1m1.map", 120); }
TEST(NavUpdateBench, DISABLED_E3m4OneBrushMoved) {
    benchOneBrushMoved("librequake_e3m4", SHALLOT_SHARED_MAPS "/librequake_e3m4.map", 1500);
}

TEST(NavUpdateBench, PhaseSplitE1m1) { printSplit("id_e1m1", SHALLOT_SHARED_MAPS "/id_e1m1.map"); }
TEST(NavUpdateBench, DISABLED_PhaseSplitE3m4) { printSplit("librequake_e3m4", SHALLOT_SHARED_MAPS "/librequake_e3m4.map"); }

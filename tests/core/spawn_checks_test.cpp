// Spawn checks (check/spawn_checks.h): random levels against a brute force of the rules in
// docs/spawn-checks.md, hand-built cases, 100,000 entities, hostile entities and the
// shared Quake levels.
#include "check/box_overlap_grid.h"
#include "check/spawn_checks.h"
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "random_world.h"
#include "round_brute_force.h"
#include "world/round_pose_boxes.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace shallot;
using namespace shallot::test;

namespace {

// ---- Brute force of the rules, independent of the expansion and the trees ----------------

// How deep the box's interior overlaps the brush: the smallest overlap of their
// projections over the separating axes (brush faces, box axes, brush edges x box axes);
// <= 0 when they are apart. For a point inside the Minkowski sum this is its distance to
// the sum's boundary, i.e. minus the largest signed distance to the expanded planes.
double penetration(const BrushGeometry& g, const Aabb& box) {
    const Vec3 c = 0.5 * (box.mins + box.maxs), half = 0.5 * (box.maxs - box.mins);
    double best = INFINITY;
    auto axis = [&](const Vec3& dir) {
        const double len = dir.norm();
        if (len < 1e-9) return;
        const Vec3 n = dir / len;
        double lo = INFINITY, hi = -INFINITY;
        for (const Vec3& v : g.vertices) {
            lo = std::min(lo, n.dot(v));
            hi = std::max(hi, n.dot(v));
        }
        const double cc = n.dot(c), e = half.dot(n.cwiseAbs());
        best = std::min(best, std::min(hi - (cc - e), (cc + e) - lo));
    };
    for (const ConvexFace& f : g.hull.faces) axis(f.plane.normal);
    for (int k = 0; k < 3; ++k) axis(Vec3::Unit(k));
    for (const auto& [a, b] : g.edges)
        for (int k = 0; k < 3; ++k) axis((b - a).cross(Vec3::Unit(k)));
    return best;
}

// The open stretch (lo, hi) of shifts s (the box moved down by s) over which the box
// overlaps the brush deeper than m; lo >= hi when never.
std::pair<double, double> dropSpan(const BrushGeometry& g, const Aabb& box, double m) {
    const Vec3 c = 0.5 * (box.mins + box.maxs), half = 0.5 * (box.maxs - box.mins);
    double lo = -INFINITY, hi = INFINITY;
    auto linear = [&](double a, double b) { // a s > b
        if (std::abs(a) < 1e-12) {
            if (!(0.0 > b)) hi = -INFINITY;
        } else if (a > 0) {
            lo = std::max(lo, b / a);
        } else {
            hi = std::min(hi, b / a);
        }
    };
    auto axis = [&](const Vec3& dir) {
        const double len = dir.norm();
        if (len < 1e-9) return;
        const Vec3 n = dir / len;
        double bl = INFINITY, bh = -INFINITY;
        for (const Vec3& v : g.vertices) {
            bl = std::min(bl, n.dot(v));
            bh = std::max(bh, n.dot(v));
        }
        const double c0 = n.dot(c), e = half.dot(n.cwiseAbs()), nz = n.z();
        // centre at s: c0 - s nz. bh - c(s) + e > m and c(s) + e - bl > m.
        linear(nz, m - (bh - c0 + e));
        linear(-nz, m - (c0 + e - bl));
    };
    for (const ConvexFace& f : g.hull.faces) axis(f.plane.normal);
    for (int k = 0; k < 3; ++k) axis(Vec3::Unit(k));
    for (const auto& [a, b] : g.edges)
        for (int k = 0; k < 3; ++k) axis((b - a).cross(Vec3::Unit(k)));
    return {lo, hi};
}

bool sameName(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
           });
}

struct BruteEntity {
    const SpawnEntity* e = nullptr;
    EntityClass cls;
    Aabb box;         // raised as the rules say
    int pose = -1;
    bool brushTest = false, entityTest = false, item = false;
    unsigned games = 0;
};

struct BruteAnswer {
    bool skip = false; // within a margin of a tolerance: not compared
    bool stuck = false;
    bool fellOut = false;
    std::vector<int> brushes, entities;
};

// The rules of docs/spawn-checks.md for stuck and fell_out, by brute force: every brush
// by SAT, every pair of entities, the drop as exact per-brush stretches.
std::map<int, BruteAnswer> bruteForce(const World& world, const std::vector<SpawnEntity>& entities,
                                      const EntityClassTable& classes) {
    std::vector<std::optional<BrushGeometry>> geometry;
    for (const Brush& b : world.brushes) geometry.push_back(buildBrushGeometry(b, world.bounds).geometry);
    auto blocking = [&](size_t b, int pose, const Aabb& box) {
        if (!geometry[b]) return false;
        if (pose >= 0) return blocks(world.brushes[b], world.poses[size_t(pose)]);
        const BrushContents c = world.brushes[b].contents;
        const bool point = box.mins == box.maxs;
        return c == BrushContents::Solid || (c == BrushContents::Clip && !point);
    };

    std::vector<BruteEntity> list;
    for (const SpawnEntity& e : entities) {
        if (e.hasBrushes) continue;
        BruteEntity b;
        b.e = &e;
        b.cls = classOf(classes, e.classname);
        if (!b.cls.hasSize || !e.hasOrigin || !world.bounds.contains(e.origin)) continue;
        const int hull = quakeHullForSize(b.cls.mins, b.cls.maxs);
        const Vec3 size = quakeHullBox(hull).maxs - quakeHullBox(hull).mins;
        b.box = {e.origin + b.cls.mins, e.origin + b.cls.mins + size};
        for (size_t p = 0; p < world.poses.size() && b.pose < 0; ++p)
            if (world.poses[p].maxs - world.poses[p].mins == size) b.pose = int(p);
        const bool zombieOnCross = sameName(e.classname, "monster_zombie") && (e.spawnflags & 1);
        double raise = 0;
        if (b.cls.category == EntityCategory::PlayerStart) b.brushTest = b.entityTest = true;
        if (b.cls.category == EntityCategory::Monster) {
            b.entityTest = true;
            if ((b.cls.motion == EntityMotion::Walk || b.cls.motion == EntityMotion::Fly) && !zombieOnCross) {
                b.brushTest = true;
                raise = 1;
            }
        }
        if (b.cls.category == EntityCategory::Item) {
            b.item = b.brushTest = true;
            raise = 6;
        }
        b.box.mins.z() += raise;
        b.box.maxs.z() += raise;
        b.games = 15;
        if (e.spawnflags & 256) b.games &= ~1u;
        if (e.spawnflags & 512) b.games &= ~2u;
        if (e.spawnflags & 1024) b.games &= ~4u;
        if (e.spawnflags & 2048) b.games &= ~8u;
        if (b.cls.category == EntityCategory::Monster) b.games &= 7u;
        if (b.cls.category == EntityCategory::PlayerStart)
            b.games &= sameName(e.classname, "info_player_deathmatch") ? 8u : 7u;
        list.push_back(b);
    }

    const double tol = kSpawnContactTolerance, margin = 2e-3;
    std::map<int, BruteAnswer> out;
    for (const BruteEntity& b : list) {
        BruteAnswer& a = out[b.e->index];
        if (!b.brushTest) continue;
        if (!b.item) {
            for (size_t k = 0; k < geometry.size(); ++k) {
                if (!blocking(k, b.pose, b.box)) continue;
                const double d = penetration(*geometry[k], b.box);
                if (std::abs(d - tol) < margin) a.skip = true;
                if (d > tol) a.brushes.push_back(int(k));
            }
            continue;
        }
        // Quake's droptofloor over the whole drop: out of any solid it starts in, then a floor.
        auto fallsOut = [&](double m) {
            std::vector<std::pair<double, double>> spans;
            for (size_t k = 0; k < geometry.size(); ++k) {
                if (!blocking(k, b.pose, b.box)) continue;
                const auto [lo, hi] = dropSpan(*geometry[k], b.box, m);
                if (lo < hi && hi > 0 && lo < kItemDropDistance) spans.emplace_back(lo, hi);
            }
            std::sort(spans.begin(), spans.end());
            double s = 0;
            for (const auto& [lo, hi] : spans) // leave the solid the start is in
                if (lo < s && hi > s) s = hi;
            if (s >= kItemDropDistance) return true;
            for (const auto& [lo, hi] : spans)
                if (lo >= s && lo < kItemDropDistance) return false;
            return true;
        };
        // Overlaps thinner than `margin` (a start barely in solid, a floor barely within
        // kItemDropDistance) are decided by the traces' on-plane tolerance and rounding.
        const bool exact = fallsOut(1e-6);
        if (exact != fallsOut(margin)) a.skip = true;
        a.fellOut = exact;
    }
    std::vector<Aabb> boxes;
    std::vector<size_t> owners;
    for (size_t i = 0; i < list.size(); ++i)
        for (size_t j = i + 1; j < list.size(); ++j) {
            const BruteEntity &p = list[i], &q = list[j];
            if (!p.entityTest || !q.entityTest || !(p.games & q.games)) continue;
            if (p.cls.category == EntityCategory::PlayerStart && q.cls.category == EntityCategory::PlayerStart &&
                !sameName(p.e->classname, q.e->classname))
                continue;
            double least = INFINITY;
            for (int k = 0; k < 3; ++k)
                least = std::min(least, std::min(p.box.maxs[k], q.box.maxs[k]) - std::max(p.box.mins[k], q.box.mins[k]));
            if (std::abs(least - tol) < margin) out[p.e->index].skip = out[q.e->index].skip = true;
            if (least > tol) {
                out[p.e->index].entities.push_back(q.e->index);
                out[q.e->index].entities.push_back(p.e->index);
            }
        }
    for (auto& [index, a] : out) {
        std::sort(a.entities.begin(), a.entities.end());
        a.stuck = !a.brushes.empty() || !a.entities.empty();
    }
    return out;
}

// ---- Building levels ----------------------------------------------------------------------

SpawnEntity entity(int index, const std::string& classname, const Vec3& origin, int spawnflags = 0) {
    SpawnEntity e;
    e.index = index;
    e.classname = classname;
    e.origin = origin;
    e.hasOrigin = true;
    e.originText = formatEntityVector(origin);
    e.spawnflags = spawnflags;
    return e;
}

// A closed room: six walls `thick` thick around the inside [lo, hi].
void addRoom(World& w, const Vec3& lo, const Vec3& hi, double thick = 16) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            Vec3 a = lo - Vec3::Constant(thick), b = hi + Vec3::Constant(thick);
            if (side == 0) b[axis] = lo[axis];
            else a[axis] = hi[axis];
            w.brushes.push_back(Brush::box(a, b));
        }
}

World quakeWorld() {
    World w;
    w.poses = quakePoses();
    w.bounds = {Vec3::Constant(-8192), Vec3::Constant(8192)};
    return w;
}

std::vector<SpawnProblem> check(const World& world, const BspTree* tree, std::vector<SpawnEntity> entities) {
    SpawnCheckInput in;
    in.world = &world;
    in.onion = tree;
    in.entities = std::move(entities);
    return checkSpawns(in);
}

std::vector<const SpawnProblem*> ofKind(const std::vector<SpawnProblem>& problems, SpawnProblemKind kind) {
    std::vector<const SpawnProblem*> out;
    for (const SpawnProblem& p : problems)
        if (p.kind == kind) out.push_back(&p);
    return out;
}

} // namespace

// ---- Property tests -----------------------------------------------------------------------

// Random worlds (random brushes with clip and liquid ones, integer floors and walls),
// entities of every kind placed at random, on floors, against walls and into each other;
// the checks with the tree and with the brushes alone against the brute force.
TEST(SpawnChecks, RandomLevelsMatchBruteForce) {
    const EntityClassTable classes = EntityClassTable::quake();
    const char* kinds[] = {"info_player_start", "info_player_coop", "info_player_deathmatch", "monster_army",
                           "monster_wizard",    "monster_fish",     "monster_ogre",           "monster_dog",
                           "monster_zombie",    "monster_boss",     "item_health",            "weapon_nailgun",
                           "misc_explobox"};
    const int flagChoices[] = {0, 0, 0, 256, 1536, 2048, 1};
    int compared = 0, stuckSeen = 0, fellSeen = 0, skipped = 0;
    for (int seed = 1; seed <= 24; ++seed) {
        Rng rng(uint64_t(seed) * 7919u);
        World w = randomWorld(rng, 12, 160, 0);
        w.poses = quakePoses();
        if (seed % 4 == 0) w.poses.pop_back(); // no large pose: large hulls go by the brushes
        // Integer floors and walls: exact contact cases.
        std::vector<Aabb> floors;
        for (int i = 0; i < 4; ++i) {
            const Vec3 lo(double(int(uniform(rng, -256, 128))), double(int(uniform(rng, -256, 128))),
                          double(int(uniform(rng, -200, 100))));
            const Vec3 hi = lo + Vec3(double(64 + rng() % 192), double(64 + rng() % 192), double(8 + rng() % 32));
            w.brushes.push_back(Brush::box(lo, hi));
            floors.push_back({lo, hi});
        }
        const CompileResult r = compileWorld(w);
        ASSERT_TRUE(r.error.empty());

        std::vector<SpawnEntity> entities;
        for (int i = 0; i < 60; ++i) {
            const std::string cls = kinds[rng() % std::size(kinds)];
            const EntityClass c = classOf(classes, cls);
            auto half = [&](double lo, double hi) { return std::round(uniform(rng, lo, hi) * 2) / 2; };
            Vec3 o(half(-240, 240), half(-240, 240), half(-240, 240));
            const int mode = int(rng() % 4);
            const Aabb& f = floors[rng() % floors.size()];
            const Vec3 size = entityHullBox(c, Vec3::Zero()).maxs - entityHullBox(c, Vec3::Zero()).mins;
            if (mode == 1) { // standing on a floor (the box's bottom on its top, before any raise)
                o.x() = half(f.mins.x(), f.maxs.x());
                o.y() = half(f.mins.y(), f.maxs.y());
                o.z() = f.maxs.z() - c.mins.z();
            } else if (mode == 2) { // touching a floor block's side
                o.x() = f.mins.x() - c.mins.x() - size.x();
                o.y() = half(f.mins.y(), f.maxs.y());
                o.z() = half(f.mins.z() - 40, f.maxs.z() + 10);
            } else if (mode == 3 && !entities.empty()) { // into (or against) another entity
                o = entities[rng() % entities.size()].origin + Vec3(half(-40, 40), half(-40, 40), half(-20, 20));
                if (rng() % 3 == 0) o.x() = entities.back().origin.x() + 64; // face to face for 64-wide boxes
            }
            entities.push_back(entity(int(i) + 1, cls, o, flagChoices[rng() % std::size(flagChoices)]));
        }

        const std::map<int, BruteAnswer> brute = bruteForce(w, entities, classes);
        for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
            const std::vector<SpawnProblem> problems = check(w, tree, entities);
            std::map<int, const SpawnProblem*> stuck, fell;
            for (const SpawnProblem& p : problems) {
                if (p.kind == SpawnProblemKind::Stuck) stuck[p.entity] = &p;
                if (p.kind == SpawnProblemKind::FellOut) fell[p.entity] = &p;
                EXPECT_FALSE(p.message.empty());
            }
            EXPECT_TRUE(std::is_sorted(problems.begin(), problems.end(), [](const SpawnProblem& a, const SpawnProblem& b) {
                return a.entity != b.entity ? a.entity < b.entity : a.kind < b.kind;
            }));
            for (const auto& [index, a] : brute) {
                if (a.skip) {
                    ++skipped;
                    continue;
                }
                ++compared;
                const std::string where = "seed " + std::to_string(seed) + (tree ? " tree" : " brushes") + ", entity " +
                                          std::to_string(index) + " " + entities[size_t(index - 1)].classname + " at " +
                                          formatEntityVector(entities[size_t(index - 1)].origin);
                ASSERT_EQ(stuck.count(index) > 0, a.stuck) << where;
                ASSERT_EQ(fell.count(index) > 0, a.fellOut) << where;
                if (a.stuck) {
                    EXPECT_EQ(stuck[index]->brushes, a.brushes) << where;
                    EXPECT_EQ(stuck[index]->entities, a.entities) << where;
                    stuckSeen += tree != nullptr;
                }
                fellSeen += a.fellOut && tree != nullptr;
            }
        }
    }
    // The levels are built to give every answer often, and few cases near a tolerance.
    EXPECT_GT(stuckSeen, 50);
    EXPECT_GT(fellSeen, 50);
    EXPECT_LT(skipped, compared / 20);
}

// The broad phase against every pair.
TEST(SpawnChecks, BoxOverlapGridMatchesAllPairs) {
    Rng rng(5);
    for (int round = 0; round < 20; ++round) {
        std::vector<Aabb> boxes;
        const double spread = round < 10 ? 200 : 2000;
        for (int i = 0; i < 300; ++i) {
            const Vec3 lo(std::round(uniform(rng, -spread, spread)), std::round(uniform(rng, -spread, spread)),
                          std::round(uniform(rng, -spread / 4, spread / 4)));
            boxes.push_back({lo, lo + Vec3(double(1 + rng() % 64), double(1 + rng() % 64), double(1 + rng() % 88))});
        }
        std::vector<std::pair<int, int>> expected;
        for (int i = 0; i < int(boxes.size()); ++i)
            for (int j = i + 1; j < int(boxes.size()); ++j)
                if (boxesOverlap(boxes[size_t(i)], boxes[size_t(j)], kSpawnContactTolerance)) expected.emplace_back(i, j);
        EXPECT_EQ(overlappingBoxPairs(boxes, kSpawnContactTolerance), expected);
    }
}

// ---- Hand-built levels ----------------------------------------------------------------------

TEST(SpawnChecks, PlayerStartStandingOnTheFloorIsFine) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const CompileResult r = compileWorld(w);
    // The player box reaches 24 below the origin: its bottom lies exactly on the floor.
    const std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(256, 256, 24)),
                                     entity(2, "monster_army", Vec3(100, 100, 24)),
                                     entity(3, "item_health", Vec3(300, 100, 0))};
    EXPECT_TRUE(check(w, &r.onion, e).empty());
    EXPECT_TRUE(check(w, nullptr, e).empty());
}

TEST(SpawnChecks, OgreUnderALowCeilingIsStuckInIt) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const int ceiling = int(w.brushes.size());
    w.brushes.push_back(Brush::box(Vec3(0, 0, 80), Vec3(200, 200, 256))); // 80 high: the ogre needs 88 + 1
    const CompileResult r = compileWorld(w);
    const std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(400, 400, 24)),
                                     entity(2, "monster_ogre", Vec3(100, 100, 24))};
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, e);
        ASSERT_EQ(problems.size(), 1u);
        const SpawnProblem& p = problems[0];
        EXPECT_EQ(p.kind, SpawnProblemKind::Stuck);
        EXPECT_EQ(p.entity, 2);
        EXPECT_EQ(p.pose, 2); // large
        EXPECT_EQ(p.brushes, std::vector<int>{ceiling});
        EXPECT_TRUE(p.entities.empty());
        EXPECT_EQ(p.box.mins, Vec3(68, 68, 1));
        EXPECT_NE(p.message.find("monster_ogre (entity 2) is stuck in brush " + std::to_string(ceiling)),
                  std::string::npos)
            << p.message;
        EXPECT_NE(p.message.find("for pose large"), std::string::npos) << p.message;
    }
}

TEST(SpawnChecks, OverlappingMonstersAreBothStuckAndNameEachOther) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const CompileResult r = compileWorld(w);
    std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(400, 400, 24)),
                               entity(2, "monster_army", Vec3(100, 100, 24)),
                               entity(3, "monster_ogre", Vec3(120, 100, 24)),
                               // Face to face with the ogre (its box ends at x = 152): touching is fine.
                               entity(4, "monster_army", Vec3(168, 100, 24)),
                               // Same place, other skill levels: they never meet.
                               entity(5, "monster_demon1", Vec3(300, 100, 24), 256),
                               entity(6, "monster_ogre", Vec3(300, 100, 24), 1536)};
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, e);
        ASSERT_EQ(problems.size(), 2u);
        EXPECT_EQ(problems[0].entity, 2);
        EXPECT_EQ(problems[0].entities, std::vector<int>{3});
        EXPECT_EQ(problems[1].entity, 3);
        EXPECT_EQ(problems[1].entities, std::vector<int>{2});
        for (const SpawnProblem& p : problems) {
            EXPECT_EQ(p.kind, SpawnProblemKind::Stuck);
            EXPECT_TRUE(p.brushes.empty());
            EXPECT_NE(p.message.find("overlaps"), std::string::npos);
        }
    }
}

TEST(SpawnChecks, ItemOverAHoleFallsOut) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 1024));
    w.brushes.push_back(Brush::box(Vec3(0, 0, 100), Vec3(256, 512, 116))); // a ledge over half the room
    const CompileResult r = compileWorld(w);
    const std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(400, 400, 24)),
                                     entity(2, "item_health", Vec3(100, 100, 116)),  // on the ledge
                                     entity(3, "item_health", Vec3(300, 100, 300)),  // over the hole: 306 to fall
                                     // Its box reaches into the ledge from below: Quake drops it
                                     // out of the ledge onto the floor.
                                     entity(4, "item_rockets", Vec3(100, 100, 95))};
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, e);
        ASSERT_EQ(problems.size(), 1u);
        EXPECT_EQ(problems[0].kind, SpawnProblemKind::FellOut);
        EXPECT_EQ(problems[0].entity, 3);
        EXPECT_NE(problems[0].message.find("no floor within 256 units"), std::string::npos) << problems[0].message;
    }
    // An item buried deeper than its drop is in solid all the way down.
    World solid = quakeWorld();
    addRoom(solid, Vec3(0, 0, 0), Vec3(512, 512, 512));
    solid.brushes.push_back(Brush::box(Vec3(0, 0, -400), Vec3(512, 512, 200)));
    const CompileResult rs = compileWorld(solid);
    const std::vector<SpawnProblem> problems =
        check(solid, &rs.onion, {entity(1, "info_player_start", Vec3(256, 256, 224)), entity(2, "item_cells", Vec3(64, 64, 10))});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].message.find("in solid"), std::string::npos) << problems[0].message;
    EXPECT_FALSE(problems[0].brushes.empty());
}

// An item placed inside a pillar (as a click into a wall in the top view puts it) falls out
// of the pillar and of the floor under it into the void: the reason is the brush it is
// in, not the fall.
TEST(SpawnChecks, AnItemInsideABrushIsInSolid) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const int pillar = int(w.brushes.size());
    w.brushes.push_back(Brush::box(Vec3(200, 200, 0), Vec3(300, 300, 256)));
    const CompileResult r = compileWorld(w);
    const std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(400, 400, 24)),
                                     entity(2, "item_health", Vec3(232, 232, 46)),  // in the pillar
                                     entity(3, "item_health", Vec3(100, 100, 0))};  // on the floor
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, e);
        ASSERT_EQ(problems.size(), 1u);
        EXPECT_EQ(problems[0].kind, SpawnProblemKind::FellOut);
        EXPECT_EQ(problems[0].entity, 2);
        EXPECT_NE(problems[0].message.find("fell out of the level: in solid"), std::string::npos) << problems[0].message;
        EXPECT_EQ(problems[0].message.find("no floor within"), std::string::npos) << problems[0].message;
        EXPECT_NE(std::find(problems[0].brushes.begin(), problems[0].brushes.end(), pillar), problems[0].brushes.end());
    }
}

TEST(SpawnChecks, LeakFoundWithItsPath) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    // A hole 96 wide and 128 high in the +x wall: open for every pose.
    Brush& wall = w.brushes[1]; // +x wall: [512, 528] in x
    wall = Brush::box(Vec3(512, -16, 128), Vec3(528, 528, 272));
    w.brushes.push_back(Brush::box(Vec3(512, -16, -16), Vec3(528, 200, 128)));
    w.brushes.push_back(Brush::box(Vec3(512, 296, -16), Vec3(528, 528, 128)));
    const CompileResult r = compileWorld(w);
    const std::vector<SpawnProblem> problems =
        check(w, &r.onion, {entity(1, "info_player_start", Vec3(100, 250, 24)), entity(2, "info_player_start", Vec3(200, 250, 24))});
    const auto leaks = ofKind(problems, SpawnProblemKind::Leak);
    ASSERT_EQ(leaks.size(), w.poses.size());
    for (size_t i = 0; i < leaks.size(); ++i) {
        EXPECT_EQ(leaks[i]->pose, int(i));
        EXPECT_EQ(leaks[i]->entity, 1);
        ASSERT_GE(leaks[i]->path.size(), 2u);
        EXPECT_LT((leaks[i]->path.front() - Vec3(100, 250, 24)).norm(), 1.0);
        EXPECT_FALSE(r.onion.bounds.contains(leaks[i]->path.back(), -1.0)); // on the world box
        // The hole: the body passing the opening (x 512..528, y 200..296, z 0..128) spans
        // it; found on the cells' faces within the largest box of it, never at a start.
        const Aabb& hole = leaks[i]->hole;
        ASSERT_FALSE(hole.empty());
        EXPECT_TRUE(hole.overlaps({Vec3(512, 200, 0), Vec3(528, 296, 128)}));
        const Aabb near{Vec3(512 - 64, 200 - 64, 0 - 128), Vec3(528 + 64, 296 + 64, 128 + 128)};
        EXPECT_TRUE(near.contains(hole.mins) && near.contains(hole.maxs)) << hole.mins.transpose() << " .. " << hole.maxs.transpose();
        EXPECT_FALSE(hole.contains(Vec3(100, 250, 24)) || hole.contains(Vec3(200, 250, 24)));
    }
    EXPECT_EQ(problems.size(), leaks.size());
    // Without a tree there is no leak check.
    EXPECT_TRUE(check(w, nullptr, {entity(1, "info_player_start", Vec3(100, 250, 24))}).empty());
}

// Without a player start the other point entities start the flood (qbsp's rule): a light
// in a leaking room gives the leak, the same room sealed gives none, and with no entity at
// all nothing is said.
TEST(SpawnChecks, WithoutAPlayerStartAnyEntityFindsTheLeak) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const CompileResult sealed = compileWorld(w);
    EXPECT_TRUE(ofKind(check(w, &sealed.onion, {entity(1, "light", Vec3(256, 256, 200))}), SpawnProblemKind::Leak).empty());

    w.brushes[1] = Brush::box(Vec3(512, -16, 128), Vec3(528, 528, 272)); // a hole in the +x wall
    w.brushes.push_back(Brush::box(Vec3(512, -16, -16), Vec3(528, 200, 128)));
    w.brushes.push_back(Brush::box(Vec3(512, 296, -16), Vec3(528, 528, 128)));
    const CompileResult leaky = compileWorld(w);
    const std::vector<SpawnProblem> problems =
        check(w, &leaky.onion, {entity(1, "light", Vec3(256, 256, 100)), entity(2, "info_null", Vec3(100, 100, 100))});
    const auto leaks = ofKind(problems, SpawnProblemKind::Leak);
    ASSERT_EQ(leaks.size(), w.poses.size());
    for (const SpawnProblem* leak : leaks) {
        EXPECT_EQ(leak->entity, 1);
        EXPECT_EQ(leak->classname, "light");
        ASSERT_GE(leak->path.size(), 2u);
        EXPECT_FALSE(leaky.onion.bounds.contains(leak->path.back(), -1.0));
    }
    EXPECT_TRUE(ofKind(check(w, &leaky.onion, {}), SpawnProblemKind::Leak).empty());
}

// A wall across a room, too high to step over and too low to close the room: a monster
// beyond it could fly to the player start, but no walking path joins them either way.
TEST(SpawnChecks, MonsterBehindAWallTooHighToStepIsUnreachableWalking) {
    auto problemsWithWall = [](double height, double step) {
        World w = quakeWorld();
        addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
        w.brushes.push_back(Brush::box(Vec3(240, 0, 0), Vec3(272, 512, height)));
        for (Pose& p : w.poses) p.nav.stepHeight = step;
        const CompileResult r = compileWorld(w);
        return check(w, &r.onion, {entity(1, "info_player_start", Vec3(100, 256, 24)),
                                   entity(2, "monster_army", Vec3(400, 256, 24)),
                                   entity(3, "monster_ogre", Vec3(400, 100, 24)),
                                   entity(4, "monster_wizard", Vec3(400, 400, 64))});
    };
    const std::vector<SpawnProblem> high = problemsWithWall(40, 18);
    const auto walking = ofKind(high, SpawnProblemKind::UnreachableWalking);
    ASSERT_EQ(walking.size(), 2u); // the army and the ogre; the wizard flies
    EXPECT_EQ(high.size(), 2u);
    EXPECT_EQ(walking[0]->entity, 2);
    EXPECT_EQ(walking[0]->pose, 1);
    EXPECT_EQ(walking[1]->entity, 3);
    EXPECT_EQ(walking[1]->pose, 2);
    EXPECT_NE(walking[0]->message.find("never meets the player on foot"), std::string::npos) << walking[0]->message;
    EXPECT_NE(walking[0]->message.find("step 18"), std::string::npos) << walking[0]->message;
    // A step of 16 is climbed; a pose whose step reaches 40 climbs the high wall too.
    EXPECT_TRUE(problemsWithWall(16, 18).empty());
    // beforeWalking sees the other problems first (here none) and can skip the walking check.
    {
        World w = quakeWorld();
        addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
        w.brushes.push_back(Brush::box(Vec3(240, 0, 0), Vec3(272, 512, 40)));
        const CompileResult r = compileWorld(w);
        SpawnCheckInput in;
        in.world = &w;
        in.onion = &r.onion;
        in.entities = {entity(1, "info_player_start", Vec3(100, 256, 24)), entity(2, "monster_army", Vec3(400, 256, 24)),
                       entity(3, "monster_army", Vec3(0, 256, 24))}; // 3: half in the west wall
        int calls = 0;
        in.beforeWalking = [&](const std::vector<SpawnProblem>& found) {
            ++calls;
            EXPECT_EQ(ofKind(found, SpawnProblemKind::Stuck).size(), 1u);
            EXPECT_TRUE(ofKind(found, SpawnProblemKind::UnreachableWalking).empty());
            return true;
        };
        EXPECT_EQ(ofKind(checkSpawns(in), SpawnProblemKind::UnreachableWalking).size(), 1u);
        EXPECT_EQ(calls, 1);
        in.beforeWalking = [](const std::vector<SpawnProblem>&) { return false; };
        const std::vector<SpawnProblem> skipped = checkSpawns(in);
        EXPECT_EQ(skipped.size(), 1u);
        EXPECT_TRUE(ofKind(skipped, SpawnProblemKind::UnreachableWalking).empty());
    }
    EXPECT_TRUE(problemsWithWall(40, 48).empty());
}

// One way is enough: a monster below a ledge it cannot climb meets the player who drops
// down to it, and a monster on the ledge drops down to the player.
TEST(SpawnChecks, MonstersAcrossAOneWayDropMeetThePlayer) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(256, 512, 64))); // a ledge 64 high
    const CompileResult r = compileWorld(w);
    EXPECT_TRUE(check(w, &r.onion, {entity(1, "info_player_start", Vec3(100, 256, 88)),
                                    entity(2, "monster_army", Vec3(400, 256, 24))}).empty());
    EXPECT_TRUE(check(w, &r.onion, {entity(1, "info_player_start", Vec3(400, 256, 24)),
                                    entity(2, "monster_army", Vec3(100, 256, 88))}).empty());
    // Drops no deeper than 32: neither gets down, they never meet.
    for (Pose& p : w.poses) p.nav.maxDrop = 32;
    const std::vector<SpawnProblem> problems = check(w, &r.onion, {entity(1, "info_player_start", Vec3(100, 256, 88)),
                                                                  entity(2, "monster_army", Vec3(400, 256, 24))});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].kind, SpawnProblemKind::UnreachableWalking);
}

// A ledge 128 high beside a column of water as high as the ledge, no drop deeper than 32
// for anyone: the monster on the ledge cannot come down, and the player walks into the
// water, swims up and climbs out onto the ledge. In a column of lava the player does not
// swim (it kills), and the monster is a problem.
TEST(SpawnChecks, ThePlayerSwimsUpAColumnOfWaterToAMonsterOnALedge) {
    auto problemsWith = [](BrushContents liquid) {
        World w = quakeWorld();
        addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 512));
        w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(256, 512, 128)));
        Brush column = Brush::box(Vec3(256, 192, 0), Vec3(320, 320, 128));
        column.contents = liquid;
        w.brushes.push_back(column);
        for (Pose& p : w.poses) p.nav.maxDrop = 32;
        const CompileResult r = compileWorld(w);
        return check(w, &r.onion, {entity(1, "info_player_start", Vec3(450, 256, 24)),
                                   entity(2, "monster_army", Vec3(100, 256, 152))});
    };
    EXPECT_TRUE(problemsWith(BrushContents::Water).empty());
    EXPECT_TRUE(problemsWith(BrushContents::Slime).empty());
    const std::vector<SpawnProblem> lava = problemsWith(BrushContents::Lava);
    ASSERT_EQ(lava.size(), 1u);
    EXPECT_EQ(lava[0].kind, SpawnProblemKind::UnreachableWalking);
    EXPECT_NE(lava[0].message.find("walked or swum to"), std::string::npos) << lava[0].message;
}

// A trigger_push's velocity, as Quake's SetMovedir and trigger_push give it.
TEST(SpawnChecks, PushVelocityFollowsQuakesKeys) {
    const std::string up = "-1", down = "-2", west = "180", fast = "150", pitchUp = "-90 0 0";
    EXPECT_TRUE(quakePushVelocity(&up, nullptr, nullptr).isApprox(Vec3(0, 0, 10000))); // speed 1000 by default
    EXPECT_TRUE(quakePushVelocity(&down, nullptr, &fast).isApprox(Vec3(0, 0, -1500)));
    EXPECT_TRUE(quakePushVelocity(&west, nullptr, &fast).isApprox(Vec3(-1500, 0, 0)));
    EXPECT_TRUE(quakePushVelocity(nullptr, &pitchUp, &fast).isApprox(Vec3(0, 0, 1500)));
}

// A shaft beside a ledge 256 high, no drop deeper than 32 for anyone: a trigger_push in the
// shaft (up, 750 a second, to 320) carries the player onto the ledge, with a second push
// across the top of the shaft (west, 1000 a second) or without it, steering in the air out
// of the top (Quake's air control). A push too weak to lift the box above the ledge does
// not; a push 34 above the box's head is jumped into (Quake's jump rises about 45), one 64
// above it is not.
TEST(SpawnChecks, TriggerPushCarriesThePlayerUpAShaftOntoALedge) {
    struct Shaft {
        bool across = true;
        double bottom = 0, top = 320, speed = 750;
    };
    auto problemsWith = [](const Shaft& shaft) {
        World w = quakeWorld();
        addRoom(w, Vec3(0, 0, 0), Vec3(1024, 512, 1024));
        w.brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(512, 512, 256)));
        for (Pose& p : w.poses) p.nav.maxDrop = 32;
        const CompileResult r = compileWorld(w);
        std::vector<SpawnEntity> entities{entity(1, "info_player_start", Vec3(800, 256, 24)),
                                          entity(2, "monster_army", Vec3(200, 256, 280))};
        auto push = [&](int index, const Aabb& bounds, const Vec3& velocity) {
            SpawnEntity t;
            t.index = index;
            t.classname = "trigger_push";
            t.hasBrushes = true;
            t.brushBounds = bounds;
            t.pushVelocity = velocity;
            entities.push_back(t);
        };
        push(3, Aabb{Vec3(544, 224, shaft.bottom), Vec3(608, 288, shaft.top)}, Vec3(0, 0, shaft.speed));
        if (shaft.across) push(4, Aabb{Vec3(512, 192, shaft.top), Vec3(640, 320, shaft.top + 80)}, Vec3(-1000, 0, 0));
        return check(w, &r.onion, entities);
    };
    EXPECT_TRUE(problemsWith({}).empty());
    EXPECT_TRUE(problemsWith({.across = false}).empty());   // steered out of the top
    EXPECT_TRUE(problemsWith({.bottom = 90}).empty());      // 34 above the box's head: jumped into
    EXPECT_EQ(problemsWith({.bottom = 120}).size(), 1u);    // 64 above the head: too high to jump into
    const std::vector<SpawnProblem> weak = problemsWith({.across = false, .top = 160, .speed = 200});
    ASSERT_EQ(weak.size(), 1u); // thrown 25 above the trigger: below the ledge
    EXPECT_EQ(weak[0].kind, SpawnProblemKind::UnreachableWalking);
}

TEST(SpawnChecks, MonsterInASealedRoomIsUnreachableUnlessATeleporterEmptiesIt) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    addRoom(w, Vec3(1024, 0, 0), Vec3(1536, 512, 256));
    const CompileResult r = compileWorld(w);
    std::vector<SpawnEntity> e{entity(1, "info_player_start", Vec3(100, 100, 24)),
                               entity(2, "monster_army", Vec3(300, 300, 24)),
                               entity(3, "monster_army", Vec3(1200, 300, 24)),
                               entity(4, "monster_ogre", Vec3(1300, 100, 24))};
    std::vector<SpawnProblem> problems = check(w, &r.onion, e);
    const auto unreachable = ofKind(problems, SpawnProblemKind::Unreachable);
    ASSERT_EQ(unreachable.size(), 2u);
    EXPECT_EQ(unreachable[0]->entity, 3);
    EXPECT_EQ(unreachable[0]->pose, 1);
    EXPECT_EQ(unreachable[1]->entity, 4);
    EXPECT_EQ(unreachable[1]->pose, 2);
    EXPECT_EQ(problems.size(), 2u);
    EXPECT_NE(unreachable[0]->message.find("cannot reach any player start for pose player"), std::string::npos);
    // A teleport closet: a trigger_teleport in the room sends its monsters into the level.
    SpawnEntity teleporter;
    teleporter.index = 5;
    teleporter.classname = "trigger_teleport";
    teleporter.hasBrushes = true;
    teleporter.brushBounds = {Vec3(1400, 400, 0), Vec3(1500, 500, 100)};
    e.push_back(teleporter);
    EXPECT_TRUE(check(w, &r.onion, e).empty());
    // No player start in empty space for a pose: nothing is said for that pose.
    e.pop_back();
    e[0].origin = Vec3(100, 100, -8); // in the floor
    problems = check(w, &r.onion, e);
    EXPECT_TRUE(ofKind(problems, SpawnProblemKind::Unreachable).empty());
}

// ---- Many entities, hostile entities ----------------------------------------------------------

// 100,000 monsters in pairs placed into each other, pairs 100 apart on a floor: each is
// stuck with its partner and nobody else. Found through the grid (n^2 would be 5e9 pairs).
TEST(SpawnChecks, HundredThousandEntities) {
    World w = quakeWorld();
    w.brushes.push_back(Brush::box(Vec3(-8000, -8000, -64), Vec3(8000, 8000, 0)));
    const CompileResult r = compileWorld(w);
    std::vector<SpawnEntity> e;
    int index = 1;
    for (int i = 0; i < 224 && e.size() < 100000; ++i)
        for (int j = 0; j < 224 && e.size() < 100000; ++j) {
            const Vec3 o(-7000 + 60.0 * i, -7000 + 60.0 * j, 24);
            e.push_back(entity(index++, "monster_army", o));
            e.push_back(entity(index++, "monster_enforcer", o + Vec3(8, 4, 0)));
        }
    ASSERT_EQ(e.size(), 100000u);
    std::vector<SpawnProblem> problems = check(w, &r.onion, e);
    // A floor with no walls: with no player start, the monsters find it open to the void.
    EXPECT_EQ(ofKind(problems, SpawnProblemKind::Leak).size(), w.poses.size());
    std::erase_if(problems, [](const SpawnProblem& p) { return p.kind == SpawnProblemKind::Leak; });
    ASSERT_EQ(problems.size(), 100000u);
    for (size_t k = 0; k < problems.size(); ++k) {
        const SpawnProblem& p = problems[k];
        ASSERT_EQ(p.kind, SpawnProblemKind::Stuck);
        ASSERT_EQ(p.entity, int(k) + 1);
        ASSERT_EQ(p.entities, std::vector<int>{k % 2 ? int(k) : int(k) + 2});
        ASSERT_TRUE(p.brushes.empty());
    }
}

TEST(SpawnChecks, HostileEntities) {
    World w = quakeWorld();
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const CompileResult r = compileWorld(w);
    std::vector<MapEntity> map(9);
    auto set = [&](size_t i, std::vector<std::pair<std::string, std::string>> keys) { map[i].keys = std::move(keys); };
    set(0, {{"classname", "worldspawn"}});
    set(1, {{"classname", "monster_ogre"}});                                   // no origin
    set(2, {{"classname", "monster_army"}, {"origin", "nan 0 0"}});           // NaN
    set(3, {{"classname", "item_health"}, {"origin", "1e300 0 0"}});          // far outside
    set(4, {{"classname", "info_player_start"}, {"origin", "1 2"}});          // two numbers
    set(5, {{"classname", "monster_frobnicator"}, {"origin", "nan nan nan"}}); // unknown class: no size
    set(6, {{"classname", "monster_army"}, {"origin", "100 100 24"}});
    map[6].brushes.push_back(Brush::box(Vec3(0, 0, 0), Vec3(8, 8, 8)));         // brushes: not checked
    set(7, {{"origin", "5 5 5"}});                                             // no classname
    set(8, {{"classname", "info_player_start"}, {"origin", "256 256 24"}, {"spawnflags", "zzz"}});
    const std::vector<SpawnEntity> entities = spawnEntities(map, 0);
    ASSERT_EQ(entities.size(), 9u);
    EXPECT_EQ(entities[2].originText, "nan 0 0");
    EXPECT_FALSE(entities[2].hasOrigin);
    EXPECT_TRUE(entities[6].hasBrushes);
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, entities);
        ASSERT_EQ(problems.size(), 4u);
        const int expected[] = {1, 2, 3, 4};
        for (size_t i = 0; i < problems.size(); ++i) {
            EXPECT_EQ(problems[i].kind, SpawnProblemKind::BadOrigin);
            EXPECT_EQ(problems[i].entity, expected[i]);
            EXPECT_TRUE(problems[i].origin.allFinite());
        }
        EXPECT_NE(problems[0].message.find("has no \"origin\""), std::string::npos) << problems[0].message;
        EXPECT_NE(problems[1].message.find("unusable \"origin\" \"nan 0 0\""), std::string::npos) << problems[1].message;
        EXPECT_NE(problems[2].message.find("outside the world box"), std::string::npos) << problems[2].message;
    }
    // A document's entities start at 1.
    EXPECT_EQ(spawnEntities(map, 1)[0].index, 1);
    // No world: nothing, no crash.
    SpawnCheckInput none;
    none.entities = entities;
    EXPECT_TRUE(checkSpawns(none).empty());
}

// A class no pose carries is checked with its box against the brushes, tree or not.
TEST(SpawnChecks, HullWithoutAPoseUsesTheBrushes) {
    World w = quakeWorld();
    w.poses.pop_back(); // no large pose
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    w.brushes.push_back(Brush::box(Vec3(0, 0, 80), Vec3(200, 200, 256)));
    const CompileResult r = compileWorld(w);
    const std::vector<SpawnProblem> problems =
        check(w, &r.onion, {entity(1, "info_player_start", Vec3(400, 400, 24)), entity(2, "monster_shambler", Vec3(100, 100, 24))});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].pose, -1);
    EXPECT_EQ(problems[0].kind, SpawnProblemKind::Stuck);
    EXPECT_NE(problems[0].message.find("no pose has that size"), std::string::npos) << problems[0].message;
}

// ---- The shared Quake levels -----------------------------------------------------------------

// Every shipped level checks without error; with the rules fitted to the engine they report
// nothing (docs/spawn-checks.md says why each problem the first rules found was not one)
// but the walking monsters that meet the player only by what is not walked.
TEST(SpawnChecks, SharedQuakeLevels) {
    const std::filesystem::path dir = SHALLOT_SHARED_MAPS;
    if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no " << dir;
    int levels = 0;
    for (const auto& file : std::filesystem::directory_iterator(dir)) {
        if (file.path().extension() != ".map") continue;
        const MapReadResult read = readMapFile(file.path().string());
        ASSERT_TRUE(read.ok()) << read.error.format();
        const World world = worldFromMap(*read.map);
        const CompileResult r = compileWorld(world);
        ASSERT_TRUE(r.error.empty()) << file.path();
        const std::vector<SpawnProblem> problems = check(world, &r.onion, spawnEntities(read.map->entities, 0));
        std::vector<int> walking;
        for (const SpawnProblem& p : problems) {
            if (p.kind == SpawnProblemKind::UnreachableWalking) walking.push_back(p.entity);
            else ADD_FAILURE() << file.path().filename() << ": " << p.message;
        }
        // No walking monster fails to meet the player either: id_e3m5's 32 below its wind
        // tunnels are met since the player is flown by its 16 trigger_push (and steers out
        // of the tops), id_e4m1's 14 at x 1976..2400 since it swims up through *WATER1.
        EXPECT_TRUE(walking.empty()) << file.path().filename() << ": " << walking.size();
        ++levels;
    }
    EXPECT_GE(levels, 1);
}

// A round pose carrying the player's hull box (a capsule 16,56 has the player's 32x32x56
// box) is tested as its shape: a start beside a column's corner whose box overlaps the
// column by 3 units on two axes is free for the capsule (its axis is 13 sqrt 2 = 18.4 from
// the corner), one 10 units out on both axes (14.1 from it) is stuck in it. With the tree
// of its bounding box (as the editor compiles it) and without a tree, the same; the brute
// force (the brush's vertices alone) agrees.
TEST(SpawnChecks, ARoundPoseIsTestedAsItsShapeNotItsBox) {
    World w = quakeWorld();
    w.poses[1] = Pose::round("cap", PoseShape::capsule(16, 56));
    addRoom(w, Vec3(0, 0, 0), Vec3(512, 512, 256));
    const int column = int(w.brushes.size());
    w.brushes.push_back(Brush::box(Vec3(200, 200, 0), Vec3(232, 232, 256)));
    World boxes = w;
    boxes.poses[1] = boundingBoxPose(w.poses[1]);
    const CompileResult r = compileWorld(boxes);
    const Vec3 free(245, 245, 24), stuck(190, 190, 24);
    // The capsule's centre is 4 above the origin (the hull spans -24..32): its bottom on the floor.
    const BrushGeometry columnGeometry = *buildBrushGeometry(w.brushes[size_t(column)], w.bounds).geometry;
    EXPECT_GT(bruteClearance(columnGeometry, w.poses[1].shape, free + Vec3(0, 0, 4)), 2.0);
    EXPECT_LT(bruteClearance(columnGeometry, w.poses[1].shape, stuck + Vec3(0, 0, 4)), -1.0);
    const std::vector<SpawnEntity> e{entity(1, "info_player_start", free), entity(2, "info_player_deathmatch", stuck),
                                     entity(3, "item_health", Vec3(250, 250, 100))};
    for (const BspTree* tree : {&r.onion, static_cast<const BspTree*>(nullptr)}) {
        const std::vector<SpawnProblem> problems = check(w, tree, e);
        ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? std::string() : problems[0].message);
        EXPECT_EQ(problems[0].kind, SpawnProblemKind::Stuck);
        EXPECT_EQ(problems[0].entity, 2);
        EXPECT_EQ(problems[0].pose, 1);
        EXPECT_EQ(problems[0].brushes, std::vector<int>{column});
    }
    // The box of the same size is stuck at both.
    const std::vector<SpawnProblem> asBoxes = check(boxes, &r.onion, e);
    EXPECT_EQ(ofKind(asBoxes, SpawnProblemKind::Stuck).size(), 2u);
}

// The mover checks (check/mover_checks.h): never_opens, missing_target, blocked and
// bad_mover on small maps written here, hostile input, and the swept-brush test against
// brute force.
#include "mover_maps.h"
#include "random_world.h"

#include "check/mover_checks.h"
#include "check/swept_brush_box.h"
#include "io/map_reader.h"
#include "movers/build_movers.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace shallot;
using namespace shallot::test;

namespace {

MapFile parse(const std::string& entities, Game game = Game::Quake) {
    MapReadResult r = readMap(worldText() + entities, "checks.map", game);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? *r.map : MapFile{};
}

using Found = std::vector<std::string>;

// "kind entity" per problem, in the order checkMovers gives them.
Found found(const std::string& entities, Game game = Game::Quake) {
    Found out;
    for (const SpawnProblem& p : checkMovers(parse(entities, game)))
        out.push_back(std::string(spawnProblemName(p.kind)) + " " + std::to_string(p.entity));
    return out;
}

// A func_door 64 x 16 x 128 at x with `keys`.
std::string door(const Keys& keys, int x = 0) {
    Keys all{{"classname", "func_door"}};
    all.insert(all.end(), keys.begin(), keys.end());
    return entityText(all, {boxBrush(x, 0, 0, x + 64, 16, 128)});
}

std::string trigger(const std::string& target, int x = 0) {
    return entityText({{"classname", "trigger_multiple"}, {"target", target}}, {boxBrush(x, 200, 0, x + 64, 264, 64)});
}

} // namespace

TEST(MoverChecks, DoorNamedButNeverFired) {
    EXPECT_EQ(found(door({{"targetname", "d"}})), Found{"never_opens 1"});
    EXPECT_EQ(found(door({{"targetname", "d"}}) + trigger("d")), Found{});
    EXPECT_EQ(found(door({})), Found{});                                      // touched open
    // Quake's LinkDoors gives a DONT_LINK door no trigger field: touch does nothing.
    const std::vector<SpawnProblem> unlinked = checkMovers(parse(door({{"spawnflags", "4"}})));
    ASSERT_EQ(unlinked.size(), 1u);
    EXPECT_NE(unlinked[0].message.find("DONT_LINK"), std::string::npos) << unlinked[0].message;
    EXPECT_EQ(found(door({{"spawnflags", "4"}, {"health", "1"}})), Found{});
    EXPECT_EQ(found(door({{"spawnflags", "4"}}), Game::Quake2), Found{}); // Quake 2's flag 4 is CRUSHER
    EXPECT_EQ(found(door({{"targetname", "d"}, {"health", "20"}})), Found{}); // shot open
    // Its own target names it: still nothing else fires it.
    const std::vector<SpawnProblem> self = checkMovers(parse(door({{"targetname", "d"}, {"target", "d"}})));
    ASSERT_EQ(self.size(), 1u);
    EXPECT_EQ(self[0].kind, SpawnProblemKind::NeverOpens);
    EXPECT_NE(self[0].message.find("its own target"), std::string::npos) << self[0].message;
    // A killtarget removes, it does not open.
    EXPECT_EQ(found(door({{"targetname", "d"}}) +
                    entityText({{"classname", "trigger_once"}, {"killtarget", "d"}}, {boxBrush(0, 200, 0, 64, 264, 64)})),
              Found{"never_opens 1"});
}

TEST(MoverChecks, KeyDoorsNeedTheirKey) {
    EXPECT_EQ(found(door({{"spawnflags", "16"}})), Found{"never_opens 1"});
    EXPECT_EQ(found(door({{"spawnflags", "16"}}) + entityText({{"classname", "item_key1"}, {"origin", "500 500 0"}})),
              Found{});
    // The silver key does not open a gold door.
    const std::vector<SpawnProblem> gold = checkMovers(
        parse(door({{"spawnflags", "8"}}) + entityText({{"classname", "item_key1"}, {"origin", "500 500 0"}})));
    ASSERT_EQ(gold.size(), 1u);
    EXPECT_NE(gold[0].message.find("gold key (item_key2)"), std::string::npos) << gold[0].message;
    // A key door the level fires anyway opens.
    EXPECT_EQ(found(door({{"spawnflags", "8"}, {"targetname", "g"}}) + trigger("g")), Found{});
}

TEST(MoverChecks, LinkedDoorsAreOneProblem) {
    // Two touching leaves, one named: the group opens only when fired (Quake gives the
    // master the name), and nothing fires it. One problem, on the first leaf.
    const std::vector<SpawnProblem> p = checkMovers(parse(door({{"targetname", "pair"}}) + door({}, 64)));
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].entity, 1);
    EXPECT_EQ(p[0].entities, std::vector<int>{2});
    EXPECT_EQ(found(door({{"targetname", "pair"}}) + door({}, 64) + trigger("pair")), Found{});
}

TEST(MoverChecks, PlatsTrainsSecretDoorsAndButtons) {
    const std::string plat =
        entityText({{"classname", "func_plat"}, {"targetname", "lift"}}, {boxBrush(0, 0, -128, 64, 64, 0)});
    EXPECT_EQ(found(plat), Found{"never_opens 1"});
    EXPECT_EQ(found(plat + trigger("lift")), Found{});
    const std::string train =
        entityText({{"classname", "func_train"}, {"targetname", "tr"}, {"target", "c1"}}, {boxBrush(0, 0, 0, 32, 32, 16)}) +
        entityText({{"classname", "path_corner"}, {"targetname", "c1"}, {"target", "c1"}, {"origin", "0 0 300"}});
    EXPECT_EQ(found(train), Found{"never_opens 1"});
    EXPECT_EQ(found(train + trigger("tr")), Found{});
    const std::string secret =
        entityText({{"classname", "func_door_secret"}, {"targetname", "s"}}, {boxBrush(0, 0, 0, 64, 16, 128)});
    EXPECT_EQ(found(secret), Found{"never_opens 1"});
    // SECRET_YES_SHOOT: shot open, name or not.
    EXPECT_EQ(found(entityText({{"classname", "func_door_secret"}, {"targetname", "s"}, {"spawnflags", "16"}},
                               {boxBrush(0, 0, 0, 64, 16, 128)})),
              Found{});
    // A button is always pressed by touch: a name does not make it never_opens.
    EXPECT_EQ(found(entityText({{"classname", "func_button"}, {"targetname", "b"}, {"target", "x"}},
                               {boxBrush(0, 0, 0, 8, 16, 16)}) +
                    entityText({{"classname", "info_null"}, {"targetname", "x"}, {"origin", "0 0 0"}})),
              Found{});
}

TEST(MoverChecks, Quake2TriggerKeyWithoutItsItem) {
    const std::string doorAndKeyTrigger =
        door({{"targetname", "vault"}}) +
        entityText({{"classname", "trigger_key"}, {"targetname", "k"}, {"item", "key_blue_key"}, {"target", "vault"}}) +
        trigger("k");
    EXPECT_EQ(found(doorAndKeyTrigger, Game::Quake2), Found{"never_opens 1"});
    EXPECT_EQ(found(doorAndKeyTrigger + entityText({{"classname", "key_blue_key"}, {"origin", "300 300 0"}}), Game::Quake2),
              Found{});
}

TEST(MoverChecks, MissingTargets) {
    const std::vector<SpawnProblem> p = checkMovers(
        parse(trigger("nowhere") + entityText({{"classname", "trigger_relay"},
                                               {"targetname", "r"},
                                               {"target", "r"},
                                               {"killtarget", "gone"},
                                               {"origin", "1 2 3"}})));
    ASSERT_EQ(p.size(), 2u); // a relay naming itself names something: only its killtarget is missing
    EXPECT_EQ(p[0].kind, SpawnProblemKind::MissingTarget);
    EXPECT_EQ(p[0].entity, 1);
    EXPECT_EQ(p[0].targetKey, "target");
    EXPECT_EQ(p[0].targetName, "nowhere");
    EXPECT_EQ(p[0].origin, Vec3(32, 232, 32)); // a brush entity: its box's centre
    EXPECT_EQ(p[1].entity, 2);
    EXPECT_EQ(p[1].targetKey, "killtarget");
    EXPECT_EQ(p[1].origin, Vec3(1, 2, 3));
    // Chthon's doors carry target "lightning" for boss.qc to find them by: not missing.
    EXPECT_EQ(found(door({{"target", "lightning"}})), Found{});
    EXPECT_EQ(found(door({{"target", "lightning"}}), Game::Quake2), Found{"missing_target 1"});
}

TEST(MoverChecks, BlockedByTheSweptVolume) {
    // A door sliding 56 along +x from 0..64: a grunt (box -16..16, -16..16, -24..40) at
    // x 100 is in its way; one at x 200 is not; one whose box only touches the open door's
    // face (x = 120 + 16 = 136) is not.
    const std::string slider = door({{"angle", "0"}});
    auto grunt = [](int x) { return entityText({{"classname", "monster_army"}, {"origin", std::to_string(x) + " 8 24"}}); };
    const std::vector<SpawnProblem> p = checkMovers(parse(slider + grunt(100) + grunt(200) + grunt(136)));
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].kind, SpawnProblemKind::Blocked);
    EXPECT_EQ(p[0].entity, 2);
    EXPECT_EQ(p[0].entities, std::vector<int>{1});
    EXPECT_EQ(p[0].box.mins, Vec3(84, -8, 0));
    // A plat 128 high resting 120 down (-248..-120): a rider on its top is carried up, not
    // blocked; an item in its shaft (-200..-144) is under it; one below it is not.
    const std::string plat = entityText({{"classname", "func_plat"}}, {boxBrush(0, 0, -128, 64, 64, 0)});
    EXPECT_EQ(found(plat + entityText({{"classname", "monster_army"}, {"origin", "32 32 -96"}})), Found{});
    EXPECT_EQ(found(plat + entityText({{"classname", "item_health"}, {"origin", "16 16 -200"}})), Found{"blocked 2"});
    EXPECT_EQ(found(plat + entityText({{"classname", "item_health"}, {"origin", "16 16 -320"}})), Found{});
    // A door going down onto an item.
    EXPECT_EQ(found(entityText({{"classname", "func_door"}, {"angle", "-2"}}, {boxBrush(0, 0, 0, 64, 64, 128)}) +
                    entityText({{"classname", "item_health"}, {"origin", "16 16 -60"}})),
              Found{"blocked 2"});
    // Lights have no size: never blocked.
    EXPECT_EQ(found(slider + entityText({{"classname", "light"}, {"origin", "100 8 24"}})), Found{});
}

TEST(MoverChecks, BlockedUsesTheBrushesNotTheirBox) {
    // A thin diagonal wall (x + y from 100 to 116) rising: its box covers a grunt at
    // (24, 24), the wall itself does not; a grunt at (54, 54) stands in it.
    const std::string diagonal = "{\n"
                                 "( 0 100 0 ) ( 100 0 128 ) ( 100 0 0 ) WALL 0 0 0 1 1\n"
                                 "( 108 8 0 ) ( 8 108 128 ) ( 8 108 0 ) WALL 0 0 0 1 1\n"
                                 "( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) WALL 0 0 0 1 1\n"
                                 "( 0 0 128 ) ( 0 1 128 ) ( 1 0 128 ) WALL 0 0 0 1 1\n"
                                 "( 100 0 128 ) ( 108 8 0 ) ( 100 0 0 ) WALL 0 0 0 1 1\n"
                                 "( 8 108 0 ) ( 0 100 128 ) ( 0 100 0 ) WALL 0 0 0 1 1\n"
                                 "}\n";
    const std::string rising = entityText({{"classname", "func_door"}, {"angle", "-1"}}, {diagonal});
    const MapFile map = parse(rising);
    const LevelMovers movers = buildMovers(map);
    ASSERT_EQ(movers.movers.size(), 1u);
    ASSERT_EQ(movers.movers[0].brushes.size(), 1u);
    ASSERT_TRUE(movers.movers[0].bounds.contains(Vec3(24, 24, 24))); // a box test would flag it
    EXPECT_EQ(found(rising + entityText({{"classname", "monster_army"}, {"origin", "24 24 24"}})), Found{});
    EXPECT_EQ(found(rising + entityText({{"classname", "monster_army"}, {"origin", "54 54 24"}})), Found{"blocked 2"});
}

TEST(MoverChecks, BadMoversAndOrder) {
    const std::vector<SpawnProblem> p =
        checkMovers(parse(entityText({{"classname", "func_train"}, {"targetname", "t"}}, {boxBrush(0, 0, 0, 32, 32, 16)}) +
                          door({{"speed", "nan"}, {"targetname", "d"}}, 200)));
    Found kinds;
    for (const SpawnProblem& q : p) kinds.push_back(std::string(spawnProblemName(q.kind)) + " " + std::to_string(q.entity));
    EXPECT_EQ(kinds, (Found{"never_opens 1", "bad_mover 1", "never_opens 2", "bad_mover 2"}));
    ASSERT_EQ(p.size(), 4u);
    EXPECT_NE(p[1].message.find("no target"), std::string::npos) << p[1].message;
    EXPECT_NE(p[3].message.find("\"nan\""), std::string::npos) << p[3].message;
}

TEST(MoverChecks, HostileLevelsEndQuickly) {
    // Thousands of doors (each named, every other one fired by a relay), a cyclic corner
    // chain of a thousand corners, and a thousand grunts: every problem found, no hang.
    constexpr int kDoors = 2000, kCorners = 1000, kGrunts = 1000;
    std::string text;
    // Doors 64 wide every 80 units, 50 a row, 100 apart; each slides 56 along +x.
    for (int i = 0; i < kDoors; ++i) {
        const std::string name = "d" + std::to_string(i);
        const int x = (i % 50) * 80, y = (i / 50) * 100;
        text += entityText({{"classname", "func_door"}, {"targetname", name}, {"spawnflags", "4"}},
                           {boxBrush(x, y, 0, x + 64, y + 16, 128)});
        if (i % 2 == 0) text += entityText({{"classname", "trigger_relay"}, {"target", name}, {"origin", "0 0 0"}});
    }
    text += entityText({{"classname", "func_train"}, {"target", "c0"}}, {boxBrush(0, -400, 0, 32, -368, 16)});
    for (int i = 0; i < kCorners; ++i)
        text += entityText({{"classname", "path_corner"},
                            {"targetname", "c" + std::to_string(i)},
                            {"target", "c" + std::to_string((i + 1) % kCorners)},
                            {"origin", std::to_string(i) + " -400 0"}});
    // A grunt (box x +-16) 100 past every other door's x: in the way of that door (sliding
    // to 120) and of the next (from 80).
    for (int i = 0; i < kGrunts; ++i)
        text += entityText({{"classname", "monster_army"},
                            {"origin", std::to_string((i % 25) * 160 + 100) + " " + std::to_string((i / 25) * 100 + 8) + " 24"}});
    const MapFile map = parse(text);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<SpawnProblem> p = checkMovers(map);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int neverOpens = 0, blocked = 0;
    for (const SpawnProblem& q : p) {
        neverOpens += q.kind == SpawnProblemKind::NeverOpens;
        if (q.kind == SpawnProblemKind::Blocked) {
            ++blocked;
            EXPECT_EQ(q.entities.size(), 2u) << q.message;
        }
    }
    EXPECT_EQ(neverOpens, kDoors / 2);
    EXPECT_EQ(blocked, kGrunts);
    const LevelMovers movers = buildMovers(map);
    EXPECT_EQ(movers.movers.back().motion.stops.size(), size_t(kCorners));
    EXPECT_EQ(movers.movers.back().motion.loopsTo, 0);
    EXPECT_LT(seconds, 10.0); // well under a second; the bound catches a hang, not a slowdown
}

TEST(MoverChecks, DocumentEntitiesKeepTheFileNumbers) {
    const MapFile file = parse(door({{"targetname", "d"}}) + trigger("nowhere"));
    const std::vector<MapEntity> documentEntities(file.entities.begin() + 1, file.entities.end());
    const MapFile rebuilt = mapOfDocumentEntities(documentEntities, Game::Quake);
    Found a, b;
    for (const SpawnProblem& p : checkMovers(file)) a.push_back(p.message);
    for (const SpawnProblem& p : checkMovers(rebuilt)) b.push_back(p.message);
    EXPECT_EQ(a.size(), 2u);
    EXPECT_EQ(a, b);
}

// The swept-brush test against brute force: the brush placed at many points along the
// move, each tested with the static separating-axis test (random_world.h) against the box
// shrunk by the depth. Only cases whose answer does not change within a margin of the
// depth are compared (the sampling cannot see a graze finer than its step).
TEST(MoverChecks, SweptBrushTestAgreesWithSampling) {
    Rng rng(4040);
    constexpr int kCases = 400, kSamples = 400;
    constexpr double kDepth = 0.5, kMargin = 0.25;
    int overlapping = 0, compared = 0;
    for (int i = 0; i < kCases; ++i) {
        const Brush brush = randomBrush(rng, Vec3::Zero(), 32, BrushShape(rng() % 3));
        const BrushGeometryResult built = buildBrushGeometry(brush, defaultWorldBounds());
        ASSERT_TRUE(built.geometry);
        const Vec3 from(uniform(rng, -40, 40), uniform(rng, -40, 40), uniform(rng, -40, 40));
        const Vec3 to = from + Vec3(uniform(rng, -80, 80), uniform(rng, -80, 80), uniform(rng, -80, 80));
        const Vec3 centre(uniform(rng, -80, 80), uniform(rng, -80, 80), uniform(rng, -80, 80));
        const Vec3 half(uniform(rng, 4, 24), uniform(rng, 4, 24), uniform(rng, 4, 32));
        const Aabb box{centre - half, centre + half};
        const bool loose = sweptBrushOverlapsBox(*built.geometry, from, to, box, kDepth - kMargin);
        const bool tight = sweptBrushOverlapsBox(*built.geometry, from, to, box, kDepth + kMargin);
        const bool answer = sweptBrushOverlapsBox(*built.geometry, from, to, box, kDepth);
        EXPECT_TRUE(!tight || answer); // a deeper overlap is an overlap
        EXPECT_TRUE(!answer || loose);
        if (loose != tight) continue;
        Pose shrunk;
        shrunk.mins = -(half - Vec3::Constant(kDepth));
        shrunk.maxs = half - Vec3::Constant(kDepth);
        bool sampled = false;
        for (int s = 0; s <= kSamples && !sampled; ++s) {
            const Vec3 at = from + (to - from) * (double(s) / kSamples);
            sampled = boxOverlapsBrush(*built.geometry, shrunk, centre - at);
        }
        ++compared;
        overlapping += answer;
        EXPECT_EQ(answer, sampled) << "case " << i;
    }
    // The cases cover both answers.
    EXPECT_GT(compared, kCases / 2);
    EXPECT_GT(overlapping, compared / 10);
    EXPECT_LT(overlapping, compared - compared / 10);
}

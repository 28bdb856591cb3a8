// The .obsp movers section (format version 6, objects/obsp_movers.h): a level's movers
// and entities read back from the file answer every query as those built from its .map
// (random points, segments, moves and mover states on a level with doors, a plat, a train
// and a teleporter, and on id_e1m1), typed travel finds the same paths, a version 5 file
// still reads, and hostile sections are errors.
#include "compile/compiler.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/obsp_format.h"
#include "movers/build_movers.h"
#include "movers/travel.h"
#include "movers/travel_reach.h"
#include "nav/nav_mesh.h"
#include "objects/collision_scene.h"
#include "objects/obsp_movers.h"
#include "mover_maps.h"
#include "obsp_bytes.h"
#include "random_world.h"

#include <gtest/gtest.h>

#include <sstream>

namespace shallot {
namespace {

using namespace test;

// What a .map gives and what its .obsp gives back.
struct Both {
    MapFile map;
    BspTree tree;
    LevelObjects objects;
    ObspReadResult read;
    std::string bytes;
};

Both compileAndStore(MapFile map) {
    Both b;
    b.map = std::move(map);
    const World world = worldFromMap(b.map);
    CompileResult compiled = compileWorld(world);
    EXPECT_EQ(compiled.error, "");
    b.tree = std::move(compiled.onion);
    const ObspMovers movers = obspMoversOf(b.map, b.tree.poses, world.bounds, 2);
    b.objects = buildLevelObjects(buildMovers(b.map), b.tree.poses, world.bounds, 2);
    std::ostringstream out;
    writeObsp(b.tree, out, &world.brushes, nullptr, nullptr, &movers);
    EXPECT_TRUE(out.good());
    b.bytes = out.str();
    b.read = readObspBytes(b.bytes);
    return b;
}

Both moversLevel() {
    MapReadResult read = readMap(moversLevelText(), "movers.map");
    EXPECT_TRUE(read.ok()) << read.error.format();
    return compileAndStore(std::move(*read.map));
}

// Random states: each mover closed, open, at a fraction or at one of its stops.
std::map<int, MoverState> randomStates(Rng& rng, const LevelMovers& movers) {
    std::map<int, MoverState> states;
    for (const Mover& m : movers.movers) {
        switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
        case 0: states[m.entity] = MoverState::closed(); break;
        case 1: states[m.entity] = MoverState::open(); break;
        case 2: states[m.entity] = MoverState::atCorner(int(m.motion.stops.size()) - 1); break;
        case 3: break; // where it spawns
        default: states[m.entity] = MoverState::at(uniform(rng, 0.0, 1.0));
        }
    }
    return states;
}

std::unique_ptr<CollisionScene> placed(const BspTree& tree, const LevelObjects& level,
                                       const std::map<int, MoverState>& states) {
    auto scene = std::make_unique<CollisionScene>(tree, level.pointers());
    const std::vector<Vec3> offsets = level.offsets(states);
    for (size_t i = 0; i < offsets.size(); ++i) scene->setObjectOffset(i, offsets[i]);
    scene->rebuildGrid();
    return scene;
}

void expectSameTrace(const TraceResult& a, const TraceResult& b, int ha, int hb) {
    EXPECT_EQ(a.startSolid, b.startSolid);
    EXPECT_EQ(a.allSolid, b.allSolid);
    EXPECT_EQ(a.hit, b.hit);
    EXPECT_EQ(a.t, b.t);
    EXPECT_EQ(a.point, b.point);
    if (a.hit) {
        EXPECT_EQ(a.normal, b.normal);
    }
    EXPECT_EQ(ha, hb);
}

// Every query of `rounds` random mover states, points, segments and moves inside `box`:
// the movers read from the file answer exactly as those built from the map.
void expectSameAnswers(const Both& b, const Aabb& box, int rounds, int perRound, uint32_t seed) {
    ASSERT_TRUE(b.read.tree) << b.read.error;
    ASSERT_TRUE(b.read.movers);
    const LevelObjects& stored = b.read.movers->level;
    ASSERT_EQ(stored.movers.movers.size(), b.objects.movers.movers.size());
    for (size_t i = 0; i < stored.movers.movers.size(); ++i) {
        EXPECT_EQ(stored.movers.movers[i].entity, b.objects.movers.movers[i].entity);
        EXPECT_EQ(stored.movers.movers[i].motion.stops, b.objects.movers.movers[i].motion.stops);
        EXPECT_EQ(stored.movers.movers[i].spawn, b.objects.movers.movers[i].spawn);
    }
    Rng rng(seed);
    auto point = [&] {
        return Vec3(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                    uniform(rng, box.mins.z(), box.maxs.z()));
    };
    size_t hitsOnMovers = 0, solidDiffers = 0;
    for (int round = 0; round < rounds; ++round) {
        const std::map<int, MoverState> states = randomStates(rng, b.objects.movers);
        const auto fromMap = placed(b.tree, b.objects, states);
        const auto fromFile = placed(*b.read.tree, stored, states);
        SceneScratch sa, sb;
        StageCounts ca, cb;
        for (int k = 0; k < perRound; ++k) {
            const int pose = std::uniform_int_distribution<int>(0, int(b.tree.poses.size()) - 1)(rng);
            const Vec3 p = point(), q = point() , d = (point() - p) * 0.25;
            const bool solid = fromMap->isSolid({pose, -1}, p, sa, ca);
            ASSERT_EQ(solid, fromFile->isSolid({pose, -1}, p, sb, cb)) << "round " << round << " point " << k;
            solidDiffers += solid != bool((b.tree.leafSolid[size_t(b.tree.findLeaf(p))] >> pose) & 1u);
            const TraceResult ta = fromMap->trace({pose, -1}, p, q, sa, ca);
            const TraceResult tb = fromFile->trace({pose, -1}, p, q, sb, cb);
            expectSameTrace(ta, tb, sa.hitObject, sb.hitObject);
            hitsOnMovers += sa.hitObject >= 0;
            const MoveResult ma = fromMap->move({pose, -1}, p, d, 18.0, sa, ca);
            const MoveResult mb = fromFile->move({pose, -1}, p, d, 18.0, sb, cb);
            ASSERT_EQ(ma.end, mb.end);
            EXPECT_EQ(ma.startSolid, mb.startSolid);
            EXPECT_EQ(ma.stepped, mb.stepped);
            ASSERT_EQ(ma.contacts.size(), mb.contacts.size());
            for (size_t c = 0; c < ma.contacts.size(); ++c) {
                EXPECT_EQ(ma.contacts[c].point, mb.contacts[c].point);
                EXPECT_EQ(ma.contacts[c].normal, mb.contacts[c].normal);
                EXPECT_EQ(ma.contacts[c].t, mb.contacts[c].t);
            }
        }
    }
    // The samples meet the movers: otherwise the comparison says little.
    EXPECT_GT(hitsOnMovers, size_t(rounds));
    EXPECT_GT(solidDiffers, size_t(0));
}

TEST(ObspMovers, GeneratedLevelAnswersAsItsMap) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.tree) << b.read.error;
    ASSERT_TRUE(b.read.movers);
    EXPECT_EQ(b.read.info.version, kObspVersion);
    EXPECT_EQ(b.read.info.movers, 6u); // two doors, a plat, a train, a button, a func_wall
    expectSameAnswers(b, {Vec3(-1024, -512, -240), Vec3(1024, 512, 256)}, 40, 100, 1);
}

TEST(ObspMovers, WritingWhatWasReadGivesTheSameBytes) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.tree) << b.read.error;
    std::ostringstream again;
    writeObsp(*b.read.tree, again, &*b.read.brushes, nullptr, nullptr, b.read.movers.get());
    EXPECT_TRUE(again.str() == b.bytes);
}

// Travel reads the stored entities: the same movers, entity graph, pushes and the same
// paths through the door, onto the plat, through the teleporter and past the named gate.
TEST(ObspMovers, TravelFromTheStoredEntitiesFindsTheSamePaths) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.movers);
    const TravelLevel fromMap = travelLevelOf(b.map), fromFile = travelLevelOf(b.read.movers->entities);
    EXPECT_EQ(fromFile.shootable, fromMap.shootable);
    EXPECT_EQ(fromFile.pushes.size(), fromMap.pushes.size());
    EXPECT_EQ(fromFile.graph.teleports.size(), fromMap.graph.teleports.size());
    EXPECT_EQ(fromFile.graph.triggers.size(), fromMap.graph.triggers.size());
    EXPECT_EQ(fromFile.graph.firesOf, fromMap.graph.firesOf);
    const int player = b.tree.poseIndex("player");
    const NavMesh meshA = buildNavMesh(b.tree, player, b.tree.poses[size_t(player)].nav);
    const NavMesh meshB = buildNavMesh(*b.read.tree, player, b.read.tree->poses[size_t(player)].nav);
    const TravelGraph ga = buildTravelGraph(b.tree, meshA, b.tree.poses[size_t(player)], fromMap);
    const TravelGraph gb = buildTravelGraph(*b.read.tree, meshB, b.read.tree->poses[size_t(player)], fromFile);
    EXPECT_EQ(ga.links.size(), gb.links.size());
    EXPECT_EQ(ga.gates.size(), gb.gates.size());
    size_t travelled = 0;
    for (const auto& [from, to] : std::vector<std::pair<Vec3, Vec3>>{{{-600, 0, 24}, {300, 0, 24}},
                                                                     {{-600, 0, 24}, {264, 264, 24}},
                                                                     {{-868, 332, 24}, {900, 0, 24}},
                                                                     {{-600, 0, 24}, {700, -400, 24}}}) {
        const TravelPath pa = findTravelPath(b.tree, ga, from, to), pb = findTravelPath(*b.read.tree, gb, from, to);
        EXPECT_EQ(pa.found, pb.found);
        EXPECT_EQ(pa.points, pb.points);
        EXPECT_EQ(pa.seconds, pb.seconds);
        ASSERT_EQ(pa.travel.size(), pb.travel.size());
        for (size_t i = 0; i < pa.travel.size(); ++i) {
            EXPECT_EQ(pa.travel[i].kind, pb.travel[i].kind);
            EXPECT_EQ(pa.travel[i].entity, pb.travel[i].entity);
            travelled += pa.travel[i].kind != TravelKind::Walk;
        }
    }
    EXPECT_GT(travelled, size_t(0));
}

// The world's liquids and ladders are stored with the entities (only those of the world's
// brushes): travel from the file swims and climbs as travel from the .map's world does.
TEST(ObspMovers, StoredLiquidsAndLaddersTravelAsTheMapsWorld) {
    std::string text = moversLevelText();
    // Water standing across both floors (the door slot between them) and a slime column,
    // before the worldspawn's end.
    const size_t door = text.rfind('{', text.find("\"func_door\""));
    text.insert(text.rfind('}', door),
                boxBrush(-200, 200, 0, 200, 400, 40, "*water1") + boxBrush(-300, 200, 0, -290, 232, 200, "*slime0"));
    MapReadResult read = readMap(text, "liquids.map");
    ASSERT_TRUE(read.ok()) << read.error.format();
    const Both b = compileAndStore(std::move(*read.map));
    ASSERT_TRUE(b.read.movers) << b.read.error;
    const World world = worldFromMap(b.map);
    TravelLevel fromMap = travelLevelOf(b.map);
    addLiquidsAndLadders(fromMap, world);
    const TravelLevel fromFile = storedTravelLevel(b.read.movers->entities);
    ASSERT_EQ(fromMap.water.size(), 2u);
    ASSERT_EQ(fromFile.water.size(), fromMap.water.size());
    for (size_t i = 0; i < fromMap.water.size(); ++i) {
        EXPECT_EQ(fromFile.water[i].bounds.mins, fromMap.water[i].bounds.mins);
        EXPECT_EQ(fromFile.water[i].bounds.maxs, fromMap.water[i].bounds.maxs);
    }
    // Only the travelled brushes of the world are stored: the walls are the file's tree.
    EXPECT_EQ(b.read.movers->entities.entities[0].brushes.size(), 2u);
    const int player = b.tree.poseIndex("player");
    const NavMesh meshA = buildNavMesh(b.tree, player, b.tree.poses[size_t(player)].nav);
    const NavMesh meshB = buildNavMesh(*b.read.tree, player, b.read.tree->poses[size_t(player)].nav);
    const TravelGraph ga = buildTravelGraph(b.tree, meshA, b.tree.poses[size_t(player)], fromMap);
    const TravelGraph gb = buildTravelGraph(*b.read.tree, meshB, b.read.tree->poses[size_t(player)], fromFile);
    size_t swims = 0;
    for (const TravelLink& l : ga.links) swims += l.kind == TravelKind::Swim || l.kind == TravelKind::WaterJump;
    EXPECT_GT(swims, 0u);
    ASSERT_EQ(ga.links.size(), gb.links.size());
    for (size_t i = 0; i < ga.links.size(); ++i) {
        EXPECT_EQ(ga.links[i].kind, gb.links[i].kind);
        EXPECT_EQ(ga.links[i].start, gb.links[i].start);
        EXPECT_EQ(ga.links[i].end, gb.links[i].end);
    }
}

TEST(ObspMovers, IdE1m1AnswersAsItsMap) {
    MapReadResult read = readMapFile(SHALLOT_SHARED_MAPS "/id_e1m1.map");
    ASSERT_TRUE(read.ok());
    const Both b = compileAndStore(std::move(*read.map));
    ASSERT_TRUE(b.read.tree) << b.read.error;
    ASSERT_TRUE(b.read.movers);
    EXPECT_EQ(b.read.info.movers, b.objects.objects.size());
    // Around the first doors, the bridge, the lift and t10 (docs/movers.md), where the
    // movers are; then anywhere in the level.
    expectSameAnswers(b, {Vec3(-600, 400, -300), Vec3(400, 2800, 200)}, 30, 200, 2);
    expectSameAnswers(b, {Vec3(-800, -600, -500), Vec3(1600, 3000, 300)}, 10, 200, 3);
}

// A file without movers is a version 5 file but for its version number, which still
// reads; version 5 knows no movers flag.
TEST(ObspMovers, Version5FilesStillRead) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.tree) << b.read.error;
    std::ostringstream plain;
    writeObsp(*b.read.tree, plain, &*b.read.brushes);
    std::string v5 = plain.str();
    putLE(v5, 4, 5, 4);
    fixChecksums(v5);
    const ObspReadResult r = readObspBytes(v5);
    ASSERT_TRUE(r.tree) << r.error;
    EXPECT_EQ(r.info.version, 5u);
    EXPECT_FALSE(r.movers);
    EXPECT_EQ(r.info.movers, 0u);
    EXPECT_EQ(r.tree->nodes.size(), b.read.tree->nodes.size());
    std::string forged = b.bytes;
    putLE(forged, 4, 5, 4);
    fixChecksums(forged);
    EXPECT_EQ(readObspBytes(forged).error, "obsp: unknown flags 9 at byte 8");
    // The movers are one more section after the brushes.
    EXPECT_TRUE(b.bytes.substr(0, payloadOf(b.bytes, "MOVR") - 12).substr(96) == plain.str().substr(96));
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(ObspMovers, HostileSectionsAreErrors) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.tree) << b.read.error;
    const size_t payload = payloadOf(b.bytes, "MOVR");
    // Every truncation inside the section (sampled) is an error.
    for (size_t length = payload - 12; length < b.bytes.size(); length += 97) {
        const ObspReadResult r = readObspBytes(b.bytes.substr(0, length));
        EXPECT_FALSE(r.tree) << length;
        EXPECT_TRUE(contains(r.error, "obsp: ")) << r.error;
    }
    auto forged = [&](auto&& change) {
        std::string bytes = b.bytes;
        change(bytes);
        fixChecksums(bytes);
        return readObspBytes(bytes);
    };
    // An unknown game.
    ObspReadResult r = forged([&](std::string& s) { s[payload + 4] = 'X'; });
    EXPECT_TRUE(contains(r.error, "section 'movers': unknown game")) << r.error;
    // Entities that are not a .map.
    const size_t gameLength = getLE(b.bytes, payload, 4);
    const size_t textAt = payload + 4 + gameLength + 8;
    r = forged([&](std::string& s) { s[textAt] = '}'; });
    EXPECT_TRUE(contains(r.error, "section 'movers': the entities do not read")) << r.error;
    // A game name or text longer than the section.
    r = forged([&](std::string& s) { putLE(s, payload, 1000000, 4); });
    EXPECT_TRUE(contains(r.error, "game name too long")) << r.error;
    r = forged([&](std::string& s) { putLE(s, textAt - 8, ~uint64_t(0), 8); });
    EXPECT_TRUE(contains(r.error, "unexpected end of the movers")) << r.error;
    // A mover count that is not the entities' movers.
    const size_t countAt = textAt + getLE(b.bytes, textAt - 8, 8);
    r = forged([&](std::string& s) { putLE(s, countAt, 5, 4); });
    EXPECT_TRUE(contains(r.error, "5 mover trees for 6 movers")) << r.error;
    // A bounding sphere with a NaN radius.
    r = forged([&](std::string& s) { putLE(s, countAt + 4 + 72, 0x7ff8000000000000ull, 8); });
    EXPECT_TRUE(contains(r.error, "mover 0: bad bounds or bounding sphere")) << r.error;
    // A mover's tree that has optional sections (images do not nest), or is damaged.
    const size_t imageAt = countAt + 4 + 80 + 8;
    r = forged([&](std::string& s) {
        putLE(s, imageAt + 8, kObspFlagMovers, 4);
        putLE(s, imageAt + 92, obspCrc32(s.data() + imageAt, 92), 4);
    });
    EXPECT_TRUE(contains(r.error, "mover 0: tree: obsp: a mover's tree has optional sections")) << r.error;
    r = forged([&](std::string& s) { s[imageAt + 200] = char(s[imageAt + 200] ^ 0x40); });
    EXPECT_TRUE(contains(r.error, "mover 0: tree: obsp: checksum mismatch")) << r.error;
    // A mover's tree with other poses than the world's.
    r = forged([&](std::string& s) {
        const size_t poseName = imageAt + 96 + 12 + 4; // the first pose's name
        s[poseName] = 'Q';
        fixChecksums(s); // the outer file's
        std::string image = s.substr(imageAt, size_t(getLE(s, imageAt - 8, 8)));
        fixChecksums(image);
        s.replace(imageAt, image.size(), image);
    });
    EXPECT_TRUE(contains(r.error, "mover 0: its tree's poses differ from the world's")) << r.error;
}

// Random bytes of the section changed, checksums recomputed as a hostile writer would: an
// error, or a file whose movers answer queries (never a crash or a hang).
TEST(ObspMovers, RandomCorruptionWithForgedChecksumsIsAnErrorOrAUsableFile) {
    const Both b = moversLevel();
    ASSERT_TRUE(b.read.tree) << b.read.error;
    const size_t payload = payloadOf(b.bytes, "MOVR");
    const size_t length = size_t(getLE(b.bytes, payload - 8, 8));
    Rng rng(77);
    size_t usable = 0;
    for (int i = 0; i < 400; ++i) {
        std::string bytes = b.bytes;
        for (int k = 0; k < 1 + i % 4; ++k)
            bytes[payload + rng() % length] = char(rng() % 256);
        fixChecksums(bytes);
        const ObspReadResult r = readObspBytes(bytes);
        if (!r.tree) {
            EXPECT_TRUE(contains(r.error, "obsp: ")) << r.error;
            continue;
        }
        ++usable;
        ASSERT_TRUE(r.movers);
        const auto scene = placed(*r.tree, r.movers->level, {});
        SceneScratch scratch;
        StageCounts counts;
        (void)scene->trace({1, -1}, Vec3(-600, 0, 24), Vec3(600, 0, 24), scratch, counts);
        (void)scene->isSolid({1, -1}, Vec3(0, 0, 64), scratch, counts);
    }
    std::printf("%zu of 400 corrupted files still read\n", usable);
}

} // namespace
} // namespace shallot

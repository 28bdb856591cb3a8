// The .map writer: number formatting, both face formats, keys, brush placement, poses,
// and read -> write -> read round trips of the unit and sample maps.
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

using namespace shallot;

namespace {

MapFile read(const std::string& text) {
    MapReadResult r = readMap(text, "written.map");
    EXPECT_TRUE(r.ok()) << r.error.format() << "\n" << text.substr(0, 2000);
    return r.ok() ? std::move(*r.map) : MapFile{};
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

BrushSide sideFromPoints(const Vec3& a, const Vec3& b, const Vec3& c, std::string params = "0 0 0 1 1") {
    BrushSide s;
    s.plane = *Plane::fromPoints(a, b, c);
    s.points = {a, b, c};
    s.hasPoints = true;
    s.texture = "WALL";
    s.textureParams = std::move(params);
    return s;
}

// The box [0, 64]^3 with its six sides given by points, as a .map would have them.
Brush pointBox(const std::string& params = "0 0 0 1 1") {
    Brush b;
    const auto face = [&](Vec3 a, Vec3 p, Vec3 c) { b.sides.push_back(sideFromPoints(a, p, c, params)); };
    face({0, 0, 64}, {0, 1, 64}, {1, 0, 64});
    face({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
    face({64, 0, 0}, {64, 0, 1}, {64, 1, 0});
    face({0, 0, 0}, {0, 1, 0}, {0, 0, 1});
    face({0, 64, 0}, {1, 64, 0}, {0, 64, 1});
    face({0, 0, 0}, {0, 0, 1}, {1, 0, 0});
    return b;
}

MapFile worldspawnWith(std::vector<Brush> brushes, bool valve = false) {
    MapFile m;
    m.valve220 = valve;
    m.entities.push_back({{{"classname", "worldspawn"}}, std::move(brushes), 1});
    return m;
}

void expectSamePlane(const Plane& a, const Plane& b, double tolerance) {
    EXPECT_LE((a.normal - b.normal).cwiseAbs().maxCoeff(), tolerance);
    EXPECT_LE(std::abs(a.dist - b.dist), tolerance);
}

void expectMapsEqual(const MapFile& a, const MapFile& b) {
    EXPECT_EQ(a.valve220, b.valve220);
    ASSERT_EQ(a.entities.size(), b.entities.size());
    for (size_t e = 0; e < a.entities.size(); ++e) {
        EXPECT_EQ(a.entities[e].keys, b.entities[e].keys) << "entity " << e;
        ASSERT_EQ(a.entities[e].brushes.size(), b.entities[e].brushes.size()) << "entity " << e;
        for (size_t i = 0; i < a.entities[e].brushes.size(); ++i) {
            const Brush& x = a.entities[e].brushes[i];
            const Brush& y = b.entities[e].brushes[i];
            EXPECT_EQ(x.contents, y.contents);
            ASSERT_EQ(x.sides.size(), y.sides.size());
            for (size_t s = 0; s < x.sides.size(); ++s) {
                EXPECT_EQ(x.sides[s].points, y.sides[s].points) << "entity " << e << " brush " << i << " side " << s;
                EXPECT_EQ(x.sides[s].plane.normal, y.sides[s].plane.normal);
                EXPECT_EQ(x.sides[s].plane.dist, y.sides[s].plane.dist);
                EXPECT_EQ(x.sides[s].texture, y.sides[s].texture);
                EXPECT_EQ(x.sides[s].textureParams, y.sides[s].textureParams);
            }
        }
    }
}

} // namespace

TEST(MapWriter, IntegralPointsAreWrittenAsIntegers) {
    const std::string text = writeMap(worldspawnWith({pointBox()}));
    EXPECT_NE(text.find("( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) WALL 0 0 0 1 1\n"), std::string::npos) << text;
    EXPECT_EQ(text.find('.'), std::string::npos) << text;
    EXPECT_EQ(text.find("-0 "), std::string::npos) << text;
}

TEST(MapWriter, DecimalsAreShortestAndReadBackExactly) {
    const Vec3 a(0.1, 1.0 / 3.0, -2.5e-7), b(1e-300, 65535.999999999, 12.5), c(-7.0 / 9.0, 4096.0, 0.2);
    Brush brush = pointBox();
    brush.sides[0] = sideFromPoints(a, b, c);
    const std::string text = writeMap(worldspawnWith({brush}));
    // Points a side already has are written as they are, in fixed notation (no exponent).
    const std::string tiny = "0." + std::string(299, '0') + "1"; // 1e-300
    EXPECT_NE(text.find("( 0.1 0.3333333333333333 -0.00000025 ) ( " + tiny + " 65535.999999999 12.5 )"),
              std::string::npos)
        << text;
    const MapFile back = read(text);
    const BrushSide& side = back.entities[0].brushes[0].sides[0];
    for (size_t i = 0; i < 3; ++i)
        for (int axis = 0; axis < 3; ++axis)
            EXPECT_TRUE(sameBits(side.points[i][axis], brush.sides[0].points[i][axis])) << i << " " << axis;
}

TEST(MapWriter, NegativeZeroIsWrittenAsZero) {
    Brush brush = pointBox();
    brush.sides[1] = sideFromPoints({-0.0, -0.0, 0}, {1, -0.0, 0}, {-0.0, 1, 0});
    const std::string text = writeMap(worldspawnWith({brush}));
    EXPECT_NE(text.find("( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 )"), std::string::npos) << text;
}

TEST(MapWriter, StandardAndValveDefaultsForMissingParameters) {
    Brush brush = pointBox("");
    const std::string standard = writeMap(worldspawnWith({brush}));
    EXPECT_NE(standard.find("// Format: Standard"), std::string::npos);
    EXPECT_NE(standard.find(std::string("WALL ") + kDefaultStandardTextureParams + "\n"), std::string::npos) << standard;
    const std::string valve = writeMap(worldspawnWith({brush}, true));
    EXPECT_NE(valve.find("// Format: Valve"), std::string::npos);
    EXPECT_NE(valve.find(std::string("WALL ") + kDefaultValveTextureParams + "\n"), std::string::npos) << valve;
    const MapFile back = read(valve);
    EXPECT_TRUE(back.valve220);
    EXPECT_EQ(back.entities[0].brushes[0].sides.size(), 6u);
}

TEST(MapWriter, TextureParametersAreVerbatim) {
    Brush brush = pointBox("[ -2.22045e-16 -1 0 112 ] [ 0 0 -1 0 ] 0 1 1");
    const MapFile back = read(writeMap(worldspawnWith({brush}, true)));
    EXPECT_EQ(back.entities[0].brushes[0].sides[0].textureParams, "[ -2.22045e-16 -1 0 112 ] [ 0 0 -1 0 ] 0 1 1");
    brush.sides[0].textureParams = "0 0 0 1 1 1 2 3"; // Quake 2 style extra fields
    EXPECT_EQ(read(writeMap(worldspawnWith({brush}))).entities[0].brushes[0].sides[0].textureParams, "0 0 0 1 1 1 2 3");
}

TEST(MapWriter, KeysKeepTheirOrderAndDuplicates) {
    MapFile m = worldspawnWith({});
    m.entities[0].keys = {{"wad", "a.wad"}, {"classname", "worldspawn"}, {"message", "two  spaces"}};
    m.entities.push_back({{{"origin", "0 0 24"}, {"classname", "info_player_start"}, {"origin", "8 8 24"}}, {}, 0});
    const MapFile back = read(writeMap(m));
    ASSERT_EQ(back.entities.size(), 2u);
    EXPECT_EQ(back.entities[0].keys, m.entities[0].keys);
    EXPECT_EQ(back.entities[1].keys, m.entities[1].keys);
    EXPECT_EQ(*back.entities[1].value("origin"), "8 8 24");
}

TEST(MapWriter, QuotesAndLineBreaksAreReplaced) {
    MapFile m = worldspawnWith({});
    m.entities[0].keys.emplace_back("message", "say \"hi\"\nnow");
    const MapFile back = read(writeMap(m));
    EXPECT_EQ(*back.entities[0].value("message"), "say 'hi' now");
}

TEST(MapWriter, TextureNamesAreQuotedWhenNeeded) {
    Brush brush = pointBox();
    brush.sides[0].texture = "my texture";
    brush.sides[1].texture = "{fence";
    brush.sides[2].texture = "*water1";
    brush.sides[3].texture = "";
    const MapFile back = read(writeMap(worldspawnWith({brush})));
    const auto& sides = back.entities[0].brushes[0].sides;
    EXPECT_EQ(sides[0].texture, "my texture");
    EXPECT_EQ(sides[1].texture, "{fence");
    EXPECT_EQ(sides[2].texture, "*water1");
    EXPECT_EQ(sides[3].texture, kDefaultMapTexture);
}

TEST(MapWriter, SidesWithoutPointsGetIntegralPointsWhenExact) {
    const Brush box = Brush::box(Vec3(-16, 32, 0), Vec3(48, 96, 128));
    const std::string text = writeMap(worldspawnWith({box}));
    EXPECT_EQ(text.find('.'), std::string::npos) << text;
    const MapFile back = read(text);
    const auto& sides = back.entities[0].brushes[0].sides;
    ASSERT_EQ(sides.size(), box.sides.size());
    for (size_t i = 0; i < sides.size(); ++i) {
        EXPECT_EQ(sides[i].plane.normal, box.sides[i].plane.normal) << i;
        EXPECT_EQ(sides[i].plane.dist, box.sides[i].plane.dist) << i;
    }
}

TEST(MapWriter, SidesWithoutPointsKeepTheirPlane) {
    // A box cut by a slanted plane whose vertices are not integral.
    Brush brush = Brush::box(Vec3(0, 0, 0), Vec3(100, 100, 100));
    brush.sides.push_back({{Vec3(1, 2, 3).normalized(), 123.456}, {}, false, "", "", 0});
    // And a side with stale points (its plane was moved): the plane wins.
    brush.sides[0].points = {Vec3(100, 0, 0), Vec3(100, 0, 1), Vec3(100, 1, 0)};
    brush.sides[0].hasPoints = true;
    brush.sides[0].plane.dist = 90;
    const MapFile back = read(writeMap(worldspawnWith({brush})));
    const auto& sides = back.entities[0].brushes[0].sides;
    ASSERT_EQ(sides.size(), brush.sides.size());
    for (size_t i = 0; i < sides.size(); ++i) expectSamePlane(sides[i].plane, brush.sides[i].plane, 1e-9);
}

TEST(MapWriter, SidesWithoutPointsGetIntegralPointsOfTheirPlane) {
    // The plane 3x - 11y = -48 (through (-16, 0) and (160, 48)) crosses the box's edges off
    // the grid (y = 48/11 at x = 0), yet passes through integral points: those are written.
    Brush brush = Brush::box(Vec3(0, 0, 0), Vec3(128, 128, 64));
    const Plane cut{Vec3(3, -11, 0).normalized(), -48 / std::sqrt(130.0)};
    brush.sides.push_back({cut, {}, false, "", "", 0});
    const std::string text = writeMap(worldspawnWith({brush}));
    EXPECT_EQ(text.find('.'), std::string::npos) << text;
    const MapFile back = read(text);
    const auto& sides = back.entities[0].brushes[0].sides;
    ASSERT_EQ(sides.size(), brush.sides.size());
    for (size_t i = 0; i < sides.size(); ++i) expectSamePlane(sides[i].plane, brush.sides[i].plane, 1e-9);
}

TEST(MapWriter, SidesOfAnUnboundedBrushStillGetPoints) {
    Brush brush = Brush::fromPlanes({{Vec3(0, 0, 1), 10}, {Vec3(0.6, 0, -0.8), 5}});
    const MapFile back = read(writeMap(worldspawnWith({brush})));
    const auto& sides = back.entities[0].brushes[0].sides;
    ASSERT_EQ(sides.size(), 2u);
    for (size_t i = 0; i < 2; ++i) expectSamePlane(sides[i].plane, brush.sides[i].plane, 1e-9);
}

TEST(MapWriter, WorldBrushesGoToTheirEntities) {
    World world;
    world.poses = quakePoses();
    const auto brushOf = [](int entity, double x) {
        Brush b = Brush::box(Vec3(x, 0, 0), Vec3(x + 16, 16, 16));
        b.source.entity = entity;
        return b;
    };
    world.brushes = {brushOf(-1, 0), brushOf(2, 100), brushOf(0, 200), brushOf(99, 300), brushOf(2, 400)};
    std::vector<MapEntity> entities(2);
    entities[0].keys = {{"classname", "info_player_start"}, {"origin", "0 0 0"}};
    entities[1].keys = {{"classname", "func_group"}};
    MapEntity door;
    door.keys = {{"classname", "func_door"}};
    door.brushes = {Brush::box(Vec3(0, 0, 100), Vec3(8, 8, 164))};
    entities.push_back(door);

    const MapFile map = mapFromWorld(world, {}, entities);
    ASSERT_EQ(map.entities.size(), 4u);
    EXPECT_EQ(map.entities[0].keys, (MapKeyValues{{"classname", "worldspawn"}}));
    EXPECT_EQ(map.entities[0].brushes.size(), 3u); // -1, 0 and 99 all mean worldspawn
    EXPECT_EQ(map.entities[1].brushes.size(), 0u);
    ASSERT_EQ(map.entities[2].brushes.size(), 2u);
    EXPECT_EQ(map.entities[2].brushes[1].sides[0].plane.dist, 416);
    EXPECT_EQ(map.entities[3].brushes.size(), 1u);
    EXPECT_FALSE(map.valve220);

    // worldFromMap takes back exactly the static brushes, in entity order.
    const World back = worldFromMap(read(writeMap(map)));
    EXPECT_EQ(back.brushes.size(), 5u);
}

TEST(MapWriter, PosesBecomeWorldspawnKeysUnlessQuakes) {
    World world;
    world.poses = quakePoses();
    const MapKeyValues keys{{"classname", "worldspawn"}, {"wad", "x.wad"}};
    EXPECT_EQ(mapFromWorld(world, keys, {}).entities[0].keys, keys);

    world.poses = {{"point", Vec3::Zero(), Vec3::Zero()}, {"crouch", Vec3(-16, -16, -12), Vec3(16, 16, 12.5)}};
    const MapFile map = mapFromWorld(world, keys, {});
    const MapKeyValues expected{{"classname", "worldspawn"},
                                {"wad", "x.wad"},
                                {"_shallot_pose1", "point 0 0 0 0 0 0"},
                                {"_shallot_pose2", "crouch -16 -16 -12 16 16 12.5"}};
    EXPECT_EQ(map.entities[0].keys, expected);
    const World back = worldFromMap(read(writeMap(map)));
    ASSERT_EQ(back.poses.size(), 2u);
    EXPECT_EQ(back.poses[1].name, "crouch");
    EXPECT_EQ(back.poses[1].maxs, Vec3(16, 16, 12.5));
}

TEST(MapWriter, PoseKeysAreKeptOrReplacedInPlace) {
    World world;
    const MapKeyValues keys{{"classname", "worldspawn"}, {"_shallot_pose1", "tiny  -1 -1 -1 1 1 1"}, {"wad", "x.wad"}};
    world.poses = {{"tiny", Vec3(-1, -1, -1), Vec3(1, 1, 1)}};
    EXPECT_EQ(mapFromWorld(world, keys, {}).entities[0].keys, keys); // still right: kept verbatim

    world.poses = {{"a", Vec3(-2, -2, -2), Vec3(2, 2, 2)}, {"b", Vec3(-3, -3, -3), Vec3(3, 3, 3)}};
    const MapKeyValues replaced{{"classname", "worldspawn"},
                                {"_shallot_pose1", "a -2 -2 -2 2 2 2"},
                                {"_shallot_pose2", "b -3 -3 -3 3 3 3"},
                                {"wad", "x.wad"}};
    EXPECT_EQ(mapFromWorld(world, keys, {}).entities[0].keys, replaced);

    world.poses = quakePoses();
    const MapKeyValues without{{"classname", "worldspawn"}, {"wad", "x.wad"}};
    EXPECT_EQ(mapFromWorld(world, keys, {}).entities[0].keys, without);
}

TEST(MapWriter, ValveWhenTheWorldUsesIt) {
    World world;
    world.poses = quakePoses();
    world.brushes = {pointBox("[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1")};
    EXPECT_TRUE(mapFromWorld(world, {}, {}).valve220);
    world.brushes = {pointBox()};
    EXPECT_FALSE(mapFromWorld(world, {}, {}).valve220);
    EXPECT_TRUE(mapFromWorld(world, {{"mapversion", "220"}}, {}).valve220);
}

TEST(MapWriter, UnitAndSampleMapsRoundTrip) {
    std::vector<std::filesystem::path> files;
    for (const char* dir : {SHALLOT_SHARED_MAPS "/unit", SHALLOT_SAMPLE_MAPS})
        if (std::filesystem::is_directory(dir))
            for (const auto& entry : std::filesystem::directory_iterator(dir))
                if (entry.path().extension() == ".map") files.push_back(entry.path());
    if (files.empty()) GTEST_SKIP() << "no maps found";
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const MapReadResult first = readMapFile(file.string());
        ASSERT_TRUE(first.ok()) << first.error.format();
        const MapFile again = read(writeMap(*first.map));
        expectMapsEqual(*first.map, again);
        // And through a World and back, as a document does it (in the file's game and dialect).
        const World world = worldFromMap(*first.map);
        const World back = worldFromMap(read(writeMap(mapFromWorld(world, first.map->entities[0].keys, {}, first.map->game, first.map->quake3Brushes))));
        ASSERT_EQ(back.brushes.size(), world.brushes.size());
        for (size_t b = 0; b < world.brushes.size(); ++b)
            for (size_t s = 0; s < world.brushes[b].sides.size(); ++s)
                expectSamePlane(back.brushes[b].sides[s].plane, world.brushes[b].sides[s].plane, 0.0);
    }
}

// Contents set in the editor survive a .map export (issue 31): a world brush whose contents
// its sides do not say is written with sides that do (texture names in Quake, Half-Life and
// Quake 3, CONTENTS FLAGS VALUE in Quake 2), so the file reads back with them; a brush whose
// sides already say its contents is written byte for byte as before.
#include "io/game_contents.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace shallot;

namespace {

using BC = BrushContents;

constexpr Game kGames[] = {Game::Quake, Game::Quake2, Game::HalfLife, Game::Quake3};
constexpr uint32_t kAllContents = 1u << 13; // every set of the 13 bits Edit > Contents toggles

// The box [0, 64]^3 with its six sides given by points, each side's texture and
// parameters from `side` (index -> {texture, params}).
template <class Side>
Brush pointBox(Side side) {
    Brush b;
    const Vec3 corners[6][3] = {{{0, 0, 64}, {0, 1, 64}, {1, 0, 64}}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                {{64, 0, 0}, {64, 0, 1}, {64, 1, 0}}, {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                {{0, 64, 0}, {1, 64, 0}, {0, 64, 1}}, {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}};
    for (size_t i = 0; i < 6; ++i) {
        BrushSide s;
        s.points = {corners[i][0], corners[i][1], corners[i][2]};
        s.plane = *Plane::fromPoints(s.points[0], s.points[1], s.points[2]);
        s.hasPoints = true;
        std::tie(s.texture, s.textureParams) = side(i);
        b.sides.push_back(std::move(s));
    }
    return b;
}

Brush uniformBox(const std::string& texture, const std::string& params) {
    return pointBox([&](size_t) { return std::pair{texture, params}; });
}

// A level of `game` to start from: its brush as read (contents from its sides), and
// whether it is written as Quake 3 brushDef.
struct Start {
    std::string name;
    Game game;
    Brush brush;
    bool brushDef = false;
};

// The brush as the reader gives it in `game` (contents and Quake 2 fields from its sides).
Start start(std::string name, Game game, Brush brush, bool brushDef = false) {
    MapFile map;
    map.game = game;
    map.quake3Brushes = brushDef;
    map.entities.push_back({{{"classname", "worldspawn"}}, {std::move(brush)}, 1});
    const MapReadResult r = readMap(writeMap(map), name + ".map", game);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return {std::move(name), game, r.ok() ? r.map->entities[0].brushes.at(0) : Brush{}, brushDef};
}

std::vector<Start> starts() {
    const std::string q2 = "0 0 0 1 1", valve = "[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1";
    const std::string matrix = "( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) )";
    std::vector<Start> s;
    for (Game game : kGames) s.push_back(start("editor box", game, Brush::box(Vec3(0, 0, 0), Vec3(64, 64, 64))));
    s.push_back(start("quake wall", Game::Quake,
                      pointBox([](size_t i) { return std::pair{"wall" + std::to_string(i), std::string("0 0 0 1 1")}; })));
    s.push_back(start("quake clip", Game::Quake, uniformBox("clip", "0 0 0 1 1")));
    s.push_back(start("quake water", Game::Quake, uniformBox("*water0", "0 0 0 1 1")));
    s.push_back(start("quake hint", Game::Quake,
                      pointBox([](size_t i) { return std::pair{std::string(i == 0 ? "hint" : "skip"), std::string("0 0 0 1 1")}; })));
    s.push_back(start("half-life wall", Game::HalfLife, uniformBox("C1A0_W1", valve)));
    s.push_back(start("half-life water", Game::HalfLife, uniformBox("!waterblue", valve)));
    s.push_back(start("quake 2 wall", Game::Quake2, uniformBox("e1u1/wall", q2 + " 0 0 0")));
    s.push_back(start("quake 2 without fields", Game::Quake2, uniformBox("e1u1/wall", q2)));
    s.push_back(start("quake 2 clip texture", Game::Quake2, uniformBox("e1u1/clip", q2)));
    s.push_back(start("quake 2 window", Game::Quake2, uniformBox("e1u1/glass", q2 + " 2 16 7")));
    s.push_back(start("quake 2 hint", Game::Quake2, pointBox([&](size_t i) {
                          return std::pair{std::string(i == 0 ? "e1u1/hint" : "e1u1/skip"), q2 + (i == 0 ? " 0 256 0" : " 0 512 0")};
                      })));
    s.push_back(start("quake 2 valve", Game::Quake2, uniformBox("e1u1/wall", valve + " 1 1024 300")));
    s.push_back(start("quake 3 brushDef", Game::Quake3, uniformBox("base_wall/concrete", "0 0 0"), true));
    for (BrushSide& side : s.back().brush.sides) side.textureMatrix = matrix;
    s.push_back(start("quake 3 legacy caulk", Game::Quake3, uniformBox("common/caulk", "0 0 0 0.5 0.5 0 0 0")));
    s.push_back(start("quake 3 water", Game::Quake3, pointBox([](size_t i) {
                          return std::pair{std::string(i == 0 ? "common/caulk" : "liquids/water"), std::string("0 0 0 0.5 0.5 0 0 0")};
                      })));
    return s;
}

std::string exported(const Start& s, BrushContents contents) {
    World world;
    world.poses = gamePoses(s.game);
    world.brushes = {s.brush};
    world.brushes[0].contents = contents;
    return writeMap(mapFromWorld(world, {}, {}, s.game, s.brushDef));
}

MapFile readBack(const std::string& text) {
    MapReadResult r = readMap(text, "exported.map");
    EXPECT_TRUE(r.ok()) << r.error.format() << "\n" << text;
    return r.ok() ? std::move(*r.map) : MapFile{};
}

const Brush& onlyBrush(const MapFile& map) {
    static const Brush none;
    return map.entities.empty() || map.entities[0].brushes.size() != 1 ? none : map.entities[0].brushes[0];
}

} // namespace

// Property: in each game, from each kind of brush, every set of contents the editor can
// give reads back as the nearest set the game can hold (itself when it can), with the
// same planes; what the game can hold is what docs/games.md says.
TEST(ContentsExport, EverySetReadsBackAsTheNearestTheGameHolds) {
    for (const Start& s : starts()) {
        SCOPED_TRACE(s.name + " (" + gameTitle(s.game) + ")");
        int held = 0;
        for (uint32_t bits = 0; bits < kAllContents; ++bits) {
            const BrushContents c{bits};
            const BrushContents nearest = writableContents(s.game, c, s.brush.sides.size());
            held += nearest == c;
            const std::string text = exported(s, c);
            const MapFile back = readBack(text);
            ASSERT_EQ(back.game, s.game);
            const Brush& b = onlyBrush(back);
            ASSERT_EQ(b.sides.size(), s.brush.sides.size()) << text;
            ASSERT_EQ(b.contents, nearest) << contentsName(c) << " written as\n" << text;
            EXPECT_EQ(writableContents(s.game, nearest, b.sides.size()), nearest); // the nearest of the nearest
            for (size_t i = 0; i < b.sides.size(); ++i) {
                EXPECT_EQ(b.sides[i].plane.normal, s.brush.sides[i].plane.normal);
                EXPECT_EQ(b.sides[i].plane.dist, s.brush.sides[i].plane.dist);
            }
            // Written again with the contents it read back as: the same text.
            Start again = s;
            again.brush = b;
            ASSERT_EQ(exported(again, b.contents), text) << contentsName(c);
            if (HasFailure()) return;
        }
        switch (s.game) {
        case Game::Quake:
        case Game::HalfLife: EXPECT_EQ(held, 6); break;  // solid, clip, lava, slime, water, nonsolid
        case Game::Quake2: EXPECT_EQ(held, 1 << 10); break; // every set of its ten bits
        case Game::Quake3: EXPECT_EQ(held, 256 - 8 - 1); break; // sets of its eight, six at most
        }
    }
}

// Every set the reader gives a brush is its own nearest, so a brush left as read is never
// rewritten; and the nearest of each contents, by game, as docs/games.md has it.
TEST(ContentsExport, TheNearestSets) {
    for (const Start& s : starts()) EXPECT_EQ(writableContents(s.game, s.brush.contents, 6), s.brush.contents) << s.name;
    EXPECT_EQ(writableContents(Game::Quake, BC::PlayerClip | BC::Water, 6), BC::Clip);
    EXPECT_EQ(writableContents(Game::Quake, BC::Water | BC::Lava, 6), BC::Lava);
    EXPECT_EQ(writableContents(Game::Quake, BC::Window, 6), BC::Solid);
    EXPECT_EQ(writableContents(Game::Quake, BC::Detail, 6), BC::Solid);
    EXPECT_EQ(writableContents(Game::HalfLife, BC::Mist | BC::Trigger, 6), BC::NonSolid);
    EXPECT_EQ(writableContents(Game::Quake2, BC::Clip, 6), BC::PlayerClip | BC::MonsterClip);
    EXPECT_EQ(writableContents(Game::Quake2, BC::BotClip | BC::Trigger, 6), BC::MonsterClip);
    EXPECT_EQ(writableContents(Game::Quake2, BC::Trigger, 6), BC::NonSolid);
    EXPECT_EQ(writableContents(Game::Quake3, BC::Clip | BC::MonsterClip, 6), BC::PlayerClip | BC::BotClip);
    EXPECT_EQ(writableContents(Game::Quake3, BC::Window | BC::Detail, 6), BC::Solid);
    EXPECT_EQ(writableContents(Game::Quake3, BC::Solid | BC::Water | BC::Slime, 2), BC::Solid | BC::Slime);
}

// What is written, side by side: the least change that reads back.
TEST(ContentsExport, SidesAreChangedAsLittleAsNeeded) {
    const auto sidesOf = [](const Start& s, BrushContents c) { return onlyBrush(readBack(exported(s, c))).sides; };
    const std::vector<Start> all = starts();
    const auto named = [&](const std::string& name) {
        for (const Start& s : all)
            if (s.name == name) return s;
        ADD_FAILURE() << name;
        return all[0];
    };
    // Quake: clip, liquids and skip on every side; back to solid, the first plain texture
    // (or shallot/solid when there is none); hints stay hints.
    for (const BrushSide& side : sidesOf(named("quake wall"), BC::PlayerClip)) EXPECT_EQ(side.texture, "clip");
    for (const BrushSide& side : sidesOf(named("quake wall"), BC::Slime)) EXPECT_EQ(side.texture, "*slime0");
    for (const BrushSide& side : sidesOf(named("quake wall"), BC::Lava)) EXPECT_EQ(side.texture, "*lava1");
    for (const BrushSide& side : sidesOf(named("quake clip"), BC::Solid)) EXPECT_EQ(side.texture, "shallot/solid");
    for (const BrushSide& side : sidesOf(named("quake wall"), BC::NonSolid)) EXPECT_EQ(side.texture, "skip");
    const auto hint = sidesOf(named("quake hint"), BC::NonSolid | BC::Mist); // already nonsolid: kept
    EXPECT_EQ(hint[0].texture, "hint");
    for (const BrushSide& side : sidesOf(named("quake hint"), BC::Solid)) EXPECT_EQ(side.texture, "shallot/solid");
    Start mixed = named("quake wall");
    mixed.brush.sides[0].texture = "clip";
    mixed.brush.sides[3].texture = "*water0";
    mixed.brush.contents = brushContents(Game::Quake, mixed.brush);
    const auto solid = sidesOf(mixed, BC::Solid);
    EXPECT_EQ(solid[0].texture, "wall1");
    EXPECT_EQ(solid[3].texture, "wall1");
    EXPECT_EQ(solid[5].texture, "wall5");
    EXPECT_EQ(solid[5].textureParams, "0 0 0 1 1");
    // Half-Life: its own names.
    for (const BrushSide& side : sidesOf(named("half-life wall"), BC::Clip)) EXPECT_EQ(side.texture, "CLIP");
    for (const BrushSide& side : sidesOf(named("half-life wall"), BC::Water)) EXPECT_EQ(side.texture, "!water");
    for (const BrushSide& side : sidesOf(named("half-life wall"), BC::NonSolid)) EXPECT_EQ(side.texture, "SKIP");
    for (const BrushSide& side : sidesOf(named("half-life water"), BC::Solid)) EXPECT_EQ(side.texture, "shallot/solid");
    // Quake 2: the fields on every side, names and texture parameters kept, flags and value
    // too unless they would read otherwise.
    for (const BrushSide& side : sidesOf(named("quake 2 wall"), BC::PlayerClip)) {
        EXPECT_EQ(side.texture, "e1u1/wall");
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 65536 0 0");
    }
    for (const BrushSide& side : sidesOf(named("quake 2 without fields"), BC::Water | BC::Detail))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 134217760 0 0");
    for (const BrushSide& side : sidesOf(named("quake 2 valve"), BC::Lava))
        EXPECT_EQ(side.textureParams, "[ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1 8 1024 300");
    for (const BrushSide& side : sidesOf(named("quake 2 window"), BC::Window | BC::Detail))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 134217730 16 7"); // translucent window: flags kept
    for (const BrushSide& side : sidesOf(named("quake 2 window"), BC::Solid))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 1 0 7"); // a solid cannot be translucent
    for (const BrushSide& side : sidesOf(named("quake 2 wall"), BC::NonSolid))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 0 512 0"); // skip
    for (const BrushSide& side : sidesOf(named("quake 2 wall"), BC::Detail))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 134217732 0 0"); // detail alone: with CONTENTS_AUX
    for (const BrushSide& side : sidesOf(named("quake 2 hint"), BC::Solid))
        EXPECT_EQ(side.textureParams, "0 0 0 1 1 1 0 0");
    for (const BrushSide& side : sidesOf(named("quake 2 clip texture"), BC::Clip)) // already so: kept
        EXPECT_EQ(side.textureParams, "0 0 0 1 1");
    for (const BrushSide& side : sidesOf(named("editor box"), BC::Water)) // Quake: as the first start
        EXPECT_EQ(side.texture, "*water0");
    // Quake 3: shaders by name, on as few sides as the union needs.
    const auto q3 = [&](const std::string& name, BrushContents c) {
        std::vector<std::string> textures;
        for (const BrushSide& side : sidesOf(named(name), c)) textures.push_back(side.texture);
        return textures;
    };
    using V = std::vector<std::string>;
    const std::string w = "base_wall/concrete";
    EXPECT_EQ(q3("quake 3 brushDef", BC::PlayerClip), V(6, "common/clip"));
    EXPECT_EQ(q3("quake 3 brushDef", BC::Solid | BC::BotClip), (V{w, w, w, w, w, "common/botclip"}));
    EXPECT_EQ(q3("quake 3 brushDef", BC::Water | BC::Trigger), (V{"liquids/water", "common/trigger", "liquids/water", "liquids/water", "liquids/water", "liquids/water"}));
    EXPECT_EQ(q3("quake 3 brushDef", BC::NonSolid), V(6, "common/skip"));
    EXPECT_EQ(q3("quake 3 legacy caulk", BC::Mist), V(6, "fogs/fog"));
    EXPECT_EQ(q3("quake 3 water", BC::Water), (V{"liquids/water", "liquids/water", "liquids/water", "liquids/water", "liquids/water", "liquids/water"}));
    EXPECT_EQ(q3("quake 3 water", BC::Solid | BC::Water | BC::Lava),
              (V{"common/caulk", "liquids/water", "liquids/water", "liquids/water", "liquids/water", "liquids/lava"}));
    EXPECT_EQ(q3("quake 3 brushDef", BC::Solid | BC::Detail), V(6, w)); // solid already: kept
    const auto brushDef = sidesOf(named("quake 3 brushDef"), BC::Slime);
    EXPECT_EQ(brushDef[0].textureMatrix, "( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) )");
    EXPECT_EQ(brushDef[0].textureParams, "0 0 0");
}

// A brush whose contents its sides already say is written as before, byte for byte: every
// level of ../shared/maps and maps/, all its brushes in the world, through mapFromWorld as
// the editor exports, gives the text writeMap gives the map as read.
TEST(ContentsExport, BrushesLeftAsReadAreWrittenByteForByte) {
    std::vector<std::filesystem::path> files;
    for (const char* dir : {SHALLOT_SHARED_MAPS, SHALLOT_SHARED_MAPS "/games", SHALLOT_SHARED_MAPS "/unit", SHALLOT_SAMPLE_MAPS})
        if (std::filesystem::is_directory(dir))
            for (const auto& entry : std::filesystem::directory_iterator(dir))
                if (entry.path().extension() == ".map") files.push_back(entry.path());
    if (files.empty()) GTEST_SKIP() << "no maps found";
    std::sort(files.begin(), files.end());
    size_t brushes = 0;
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const MapReadResult r = readMapFile(file.string());
        ASSERT_TRUE(r.ok()) << r.error.format();
        const MapFile& map = *r.map;
        ASSERT_FALSE(map.entities.empty());
        ASSERT_EQ(map.entities[0].classname(), "worldspawn");
        const World world = worldFromMap(map, {true, true});
        std::vector<MapEntity> entities(map.entities.begin() + 1, map.entities.end());
        for (MapEntity& e : entities) e.brushes.clear(); // in the world, all of them
        MapFile out = mapFromWorld(world, map.entities[0].keys, entities, map.game, map.quake3Brushes);
        out.entities[0].patches = map.entities[0].patches;
        const std::string expected = writeMap(map), written = writeMap(out);
        ASSERT_EQ(written.size(), expected.size());
        ASSERT_TRUE(written == expected);
        brushes += world.brushes.size();
        // And one brush set otherwise: only its lines change.
        const auto changeable = std::find_if(world.brushes.begin(), world.brushes.end(), [&](const Brush& b) {
            return b.sides.size() >= 4 && !illusionaryEntity(map.game, map.entities[size_t(b.source.entity)].classname());
        });
        if (changeable == world.brushes.end()) continue;
        World edited = world;
        Brush& b = edited.brushes[size_t(changeable - world.brushes.begin())];
        b.contents = b.contents == BC::NonSolid ? BC::Solid : BC::NonSolid;
        MapFile changedMap = mapFromWorld(edited, map.entities[0].keys, entities, map.game, map.quake3Brushes);
        changedMap.entities[0].patches = map.entities[0].patches;
        const std::string changed = writeMap(changedMap);
        const MapFile back = readBack(changed);
        const Brush& again = back.entities[size_t(b.source.entity)].brushes[size_t(b.source.brush)];
        EXPECT_EQ(again.contents, b.contents);
        EXPECT_EQ(again.sides.size(), b.sides.size());
        size_t differing = 0;
        for (size_t pos = 0, at = 0; pos < expected.size() && at < changed.size();) {
            const size_t e = expected.find('\n', pos), c = changed.find('\n', at);
            if (e == std::string::npos || c == std::string::npos) break;
            differing += expected.compare(pos, e - pos, changed, at, c - at) != 0;
            pos = e + 1, at = c + 1;
        }
        EXPECT_GE(differing, 1u);
        EXPECT_LE(differing, b.sides.size());
    }
    EXPECT_GT(brushes, 10000u);
}

// Brushes of an illusionary entity read back nonsolid whatever their sides say, so their
// sides are left alone; entities' own brushes (doors) are not the world's and are kept too.
TEST(ContentsExport, IllusionaryAndEntityBrushesAreLeftAlone) {
    for (Game game : {Game::Quake, Game::HalfLife}) {
        World world;
        world.poses = gamePoses(game);
        Brush wall = uniformBox("wall", "0 0 0 1 1");
        wall.contents = BC::NonSolid;
        wall.source.entity = 1;
        world.brushes = {wall};
        MapEntity illusionary{{{"classname", "func_detail_illusionary"}}, {}, 0};
        MapEntity door{{{"classname", "func_door"}}, {uniformBox("*water0", "0 0 0 1 1")}, 0};
        door.brushes[0].contents = BC::Solid; // stale: never rewritten
        const MapFile map = mapFromWorld(world, {}, {illusionary, door}, game);
        EXPECT_EQ(map.entities[1].brushes[0].sides[0].texture, "wall");
        EXPECT_EQ(map.entities[2].brushes[0].sides[0].texture, "*water0");
    }
}

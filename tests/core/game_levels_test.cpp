// Game profiles (issue #31): detection, each game's contents rules, Quake 3 brushDef and
// patches, and the Quake 2 and Half-Life levels of ../shared/maps/games: each compiles for
// its detected game and matches brute force per pose, and reads back the same after a
// write in its own dialect.
#include "brute_force.h"
#include "io/game_contents.h"
#include "io/map_reader.h"
#include "io/map_to_world.h"
#include "io/map_writer.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace shallot;
using namespace shallot::test;

namespace {

const std::string kFace = "( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) ";
const std::string kBox = "( -8 -8 -8 ) ( -8 -7 -8 ) ( -8 -8 -7 ) ";

MapFile parse(const std::string& text, std::optional<Game> game = std::nullopt) {
    MapReadResult r = readMap(text, "test.map", game);
    EXPECT_TRUE(r.ok()) << r.error.format();
    return r.ok() ? *r.map : MapFile{};
}

// A worldspawn with one brush of two sides, each "TEXTURE PARAMS" (an unbounded brush is
// enough for the contents rules).
std::string oneBrush(const std::string& side1, const std::string& side2, const std::string& keys = "") {
    return "{\n\"classname\" \"worldspawn\"\n" + keys + "{\n" + kFace + side1 + "\n" + kBox + side2 + "\n}\n}\n";
}

BrushContents contentsOf(const std::string& text, std::optional<Game> game = std::nullopt) {
    const MapFile map = parse(text, game);
    return map.entities.empty() || map.entities[0].brushes.empty() ? BrushContents::NonSolid
                                                                   : map.entities[0].brushes[0].contents;
}

} // namespace

TEST(GameProfiles, DetectedFromTheFile) {
    EXPECT_EQ(parse(oneBrush("a 0 0 0 1 1", "a 0 0 0 1 1")).game, Game::Quake);
    EXPECT_EQ(parse(oneBrush("a 0 0 0 1 1 65536 0 0", "a 0 0 0 1 1")).game, Game::Quake2);
    EXPECT_EQ(parse(oneBrush("a 0 0 0 1 1 1", "a 0 0 0 1 1")).game, Game::Quake); // one field: not Quake 2's three
    const std::string valve = "a [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1";
    EXPECT_EQ(parse(oneBrush(valve, valve, "\"wad\" \"halflife.wad\"\n")).game, Game::HalfLife);
    EXPECT_EQ(parse(oneBrush(valve, valve)).game, Game::Quake);
    EXPECT_EQ(parse(oneBrush(valve + " 0 0 0", valve, "\"wad\" \"q.wad\"\n")).game, Game::Quake2);
    EXPECT_EQ(parse("// Game: Half-Life\n// Format: Standard\n" + oneBrush("a 0 0 0 1 1", "a 0 0 0 1 1")).game,
              Game::HalfLife);
    EXPECT_EQ(parse("// Game: Quake 2\n" + oneBrush("a 0 0 0 1 1", "a 0 0 0 1 1")).game, Game::Quake2);
    EXPECT_EQ(parse("// Game: Hexen 2\n" + oneBrush("a 0 0 0 1 1", "a 0 0 0 1 1")).game, Game::Quake);
    // Given, the game wins over detection.
    EXPECT_EQ(parse(oneBrush("a 0 0 0 1 1 65536 0 0", "a 0 0 0 1 1"), Game::Quake).game, Game::Quake);
}

TEST(GameProfiles, Quake2ContentsFromFaceFields) {
    const auto q2 = [](const std::string& fields, const std::string& second = "t 0 0 0 1 1 0 0 0") {
        return contentsOf(oneBrush("t 0 0 0 1 1 " + fields, second), Game::Quake2);
    };
    EXPECT_EQ(q2("0 0 0"), BrushContents::Solid); // 0 means solid
    EXPECT_EQ(q2("1 0 0"), BrushContents::Solid);
    EXPECT_EQ(q2("2 0 0"), BrushContents::Window);
    EXPECT_EQ(q2("65536 0 0"), BrushContents::PlayerClip);
    EXPECT_EQ(q2("131072 0 0"), BrushContents::MonsterClip);
    EXPECT_EQ(q2("196608 0 0"), BrushContents::PlayerClip | BrushContents::MonsterClip);
    EXPECT_EQ(q2("32 0 0"), BrushContents::Water);
    EXPECT_EQ(q2("8 9 300"), BrushContents::Lava);
    EXPECT_EQ(q2("64 0 0"), BrushContents::Mist);
    EXPECT_EQ(q2("134217728 0 0"), BrushContents::Solid | BrushContents::Detail); // detail alone is solid
    EXPECT_EQ(q2("536870913 0 0"), BrushContents::Solid | BrushContents::Ladder);
    EXPECT_EQ(q2("1 16 0"), BrushContents::Window); // translucent (SURF_TRANS33) solid: a window
    EXPECT_EQ(q2("1 256 0"), BrushContents::NonSolid); // hint: no contents
    EXPECT_EQ(q2("0 512 0"), BrushContents::NonSolid); // skip
    // Faces without the fields: Quake 2's own clip texture, else solid.
    EXPECT_EQ(contentsOf(oneBrush("e1u1/clip 0 0 0 1 1", "e1u1/clip 0 0 0 1 1"), Game::Quake2),
              BrushContents::PlayerClip | BrushContents::MonsterClip);
    EXPECT_EQ(contentsOf(oneBrush("e1u1/wall 0 0 0 1 1", "e1u1/wall 0 0 0 1 1"), Game::Quake2), BrushContents::Solid);
    // The first side decides, as in Quake 2's qbsp.
    EXPECT_EQ(q2("65536 0 0", "t 0 0 0 1 1 1 0 0"), BrushContents::PlayerClip);
}

TEST(GameProfiles, HalfLifeAndQuake3ContentsFromNames) {
    const auto hl = [](const std::string& tex) { return contentsOf(oneBrush(tex + " 0 0 0 1 1", tex + " 0 0 0 1 1"), Game::HalfLife); };
    EXPECT_EQ(hl("CLIP"), BrushContents::Clip);
    EXPECT_EQ(hl("!water1"), BrushContents::Water);
    EXPECT_EQ(hl("!lava"), BrushContents::Lava);
    EXPECT_EQ(hl("SKIP"), BrushContents::NonSolid);
    EXPECT_EQ(hl("crate01"), BrushContents::Solid);
    const auto q3 = [](const std::string& tex) { return contentsOf(oneBrush(tex + " 0 0 0 1 1", tex + " 0 0 0 1 1"), Game::Quake3); };
    EXPECT_EQ(q3("common/clip"), BrushContents::PlayerClip);
    EXPECT_EQ(q3("textures/common/playerclip"), BrushContents::PlayerClip);
    EXPECT_EQ(q3("common/botclip"), BrushContents::BotClip);
    EXPECT_EQ(q3("common/trigger"), BrushContents::Trigger);
    EXPECT_EQ(q3("common/hint"), BrushContents::NonSolid);
    EXPECT_EQ(q3("common/caulk"), BrushContents::Solid);
    EXPECT_EQ(q3("liquids/lavahell"), BrushContents::Lava);
    // Half-Life entities that never block.
    EXPECT_TRUE(illusionaryEntity(Game::HalfLife, "func_illusionary"));
    EXPECT_TRUE(illusionaryEntity(Game::HalfLife, "func_water"));
    EXPECT_FALSE(illusionaryEntity(Game::Quake, "func_water"));
    EXPECT_TRUE(illusionaryEntity(Game::Quake, "func_detail_illusionary"));
}

TEST(GameProfiles, PosesAndTheirBlockingSets) {
    const std::vector<Pose> q2 = gamePoses(Game::Quake2);
    ASSERT_EQ(q2.size(), 4u);
    EXPECT_EQ(q2[0].blockingSet(), BrushContents::Solid | BrushContents::Window);
    EXPECT_EQ(q2[1].blockingSet(), BrushContents::Solid | BrushContents::Window | BrushContents::PlayerClip);
    EXPECT_EQ(q2[2].maxs, Vec3(16, 16, 4));
    EXPECT_EQ(q2[3].blockingSet(), BrushContents::Solid | BrushContents::Window | BrushContents::MonsterClip);
    const std::vector<Pose> hl = gamePoses(Game::HalfLife);
    ASSERT_EQ(hl.size(), 4u);
    EXPECT_EQ(hl[1].mins, Vec3(-16, -16, -36));
    EXPECT_EQ(hl[2].maxs, Vec3(32, 32, 32));
    EXPECT_EQ(hl[3].maxs, Vec3(16, 16, 18));
    EXPECT_FALSE(hl[0].blockingSet() == hl[1].blockingSet()); // CLIP: the hulls, not the point
    EXPECT_EQ(gamePoses(Game::Quake3)[1].mins, Vec3(-15, -15, -24));
    EXPECT_TRUE(samePoseBoxes(gamePoses(Game::Quake), quakePoses()));
    // A pose key may name its blocking set; without one a Quake 2 pose gets the player's.
    const MapFile map = parse("// Game: Quake 2\n" +
                              oneBrush("a 0 0 0 1 1", "a 0 0 0 1 1",
                                       "\"_shallot_pose1\" \"walker -16 -16 -24 16 16 32 solid+monsterclip\"\n"
                                       "\"_shallot_pose2\" \"runner -16 -16 -24 16 16 32\"\n"));
    const World w = worldFromMap(map);
    ASSERT_EQ(w.poses.size(), 2u);
    EXPECT_EQ(w.poses[0].blockingSet(), BrushContents::Solid | BrushContents::MonsterClip);
    EXPECT_EQ(w.poses[1].blockingSet(), BrushContents::Solid | BrushContents::Window | BrushContents::PlayerClip);
}

TEST(GameProfiles, Quake3BrushDefReadAndWrittenBackPatchesKept) {
    const std::string text =
        "{\n\"classname\" \"worldspawn\"\n"
        "{\nbrushDef\n{\n"
        "( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) ( ( 0.03125 0 0 ) ( 0 0.03125 0 ) ) common/clip 0 0 0\n"
        "}\n}\n"
        "{\npatchDef2\n{\ncommon/caulk\n( 3 3 0 0 0 )\n(\n( ( 0 0 0 0 0 ) ( 0 32 0 0 1 ) ( 0 64 0 0 2 ) )\n"
        "( ( 32 0 0 1 0 ) ( 32 32 0 1 1 ) ( 32 64 0 1 2 ) )\n( ( 64 0 0 2 0 ) ( 64 32 0 2 1 ) ( 64 64 0 2 2 ) )\n)\n}\n}\n"
        "}\n";
    const MapFile map = parse(text);
    EXPECT_EQ(map.game, Game::Quake3);
    EXPECT_TRUE(map.quake3Brushes);
    ASSERT_EQ(map.entities[0].brushes.size(), 1u);
    ASSERT_EQ(map.entities[0].patches.size(), 1u);
    ASSERT_EQ(map.warnings.size(), 1u); // one for the file
    EXPECT_NE(map.warnings[0].message.find("left out of collision"), std::string::npos);
    const Brush& b = map.entities[0].brushes[0];
    ASSERT_EQ(b.sides.size(), 6u);
    EXPECT_EQ(b.contents, BrushContents::PlayerClip);
    EXPECT_EQ(b.sides[0].textureMatrix, "( ( 0.03125 0 0 ) ( 0 0.03125 0 ) )");
    EXPECT_EQ(b.sides[0].surface, (BrushSide::SurfaceFlags{0, 0, 0}));
    const World w = worldFromMap(map);
    EXPECT_EQ(w.poses.size(), 3u);
    EXPECT_TRUE(buildBrushGeometry(w.brushes[0], w.bounds).geometry.has_value());

    const std::string written = writeMap(map);
    EXPECT_NE(written.find("// Game: Quake 3\n// Format: Quake3\n"), std::string::npos) << written;
    const MapFile back = parse(written);
    EXPECT_EQ(back.game, Game::Quake3);
    ASSERT_EQ(back.entities[0].brushes.size(), 1u);
    EXPECT_EQ(back.entities[0].patches, map.entities[0].patches);
    for (size_t s = 0; s < 6; ++s) {
        EXPECT_EQ(back.entities[0].brushes[0].sides[s].points, b.sides[s].points);
        EXPECT_EQ(back.entities[0].brushes[0].sides[s].textureMatrix, b.sides[s].textureMatrix);
    }
}

TEST(GameProfiles, PatchAndBrushDefErrorsSayWhere) {
    for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
             {"{\n{\npatchDef2\n{\nx\n", "test.map:2:1: patch is not closed"},
             {"{\n{\nbrushDef\n( 0 0 0 )\n}\n}\n", "test.map:4:1: expected '{' after brushDef"},
             {"{\n{\nbrushDef\n{\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) common/clip 0 0 0\n}\n}\n}\n",
              "test.map:5:34: expected '('"},
             {"{\n{\nterrainDef\n}\n}\n", "test.map:3:1: unknown primitive 'terrainDef'"}}) {
        const MapReadResult r = readMap(text, "test.map");
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error.format().rfind(message, 0), 0u) << r.error.format();
    }
}

namespace {

const std::filesystem::path kGames = std::filesystem::path(SHALLOT_SHARED_MAPS) / "games";

std::vector<std::filesystem::path> gameLevels() {
    std::vector<std::filesystem::path> out;
    if (std::filesystem::is_directory(kGames))
        for (const auto& e : std::filesystem::directory_iterator(kGames))
            if (e.path().extension() == ".map") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

void expectSameBrushes(const MapFile& a, const MapFile& b) {
    ASSERT_EQ(a.entities.size(), b.entities.size());
    for (size_t e = 0; e < a.entities.size(); ++e) {
        ASSERT_EQ(a.entities[e].keys, b.entities[e].keys);
        ASSERT_EQ(a.entities[e].brushes.size(), b.entities[e].brushes.size()) << "entity " << e;
        for (size_t i = 0; i < a.entities[e].brushes.size(); ++i) {
            const Brush &x = a.entities[e].brushes[i], &y = b.entities[e].brushes[i];
            ASSERT_EQ(x.contents, y.contents) << x.describe(int(i));
            ASSERT_EQ(x.sides.size(), y.sides.size()) << x.describe(int(i));
            for (size_t s = 0; s < x.sides.size(); ++s) {
                EXPECT_EQ(x.sides[s].points, y.sides[s].points) << x.describe(int(i));
                EXPECT_EQ(x.sides[s].texture, y.sides[s].texture);
                EXPECT_EQ(x.sides[s].textureParams, y.sides[s].textureParams);
                EXPECT_EQ(x.sides[s].surface, y.sides[s].surface) << x.describe(int(i)) << " side " << s;
            }
        }
    }
}

} // namespace

// Every Quake 2 and Half-Life level reads as its game, is written back in its own dialect
// with its contents and face fields unchanged, and reads back the same.
TEST(GameLevels, RoundTripInTheirOwnDialect) {
    const std::vector<std::filesystem::path> levels = gameLevels();
    if (levels.empty()) GTEST_SKIP() << "no shared game levels at " << kGames;
    int checked = 0;
    for (const auto& path : levels) {
        SCOPED_TRACE(path.filename().string());
        const MapReadResult r = readMapFile(path.string());
        ASSERT_TRUE(r.ok()) << r.error.format();
        const Game expected = path.filename().string().starts_with("q2_") ? Game::Quake2 : Game::HalfLife;
        EXPECT_EQ(r.map->game, expected);
        const std::string written = writeMap(*r.map);
        const MapFile back = parse(written);
        EXPECT_EQ(back.game, expected);
        EXPECT_EQ(back.valve220, r.map->valve220);
        expectSameBrushes(*r.map, back);
        if (HasFailure()) return;
        ++checked;
    }
    EXPECT_EQ(checked, 84);
}

// Every Quake 2 and Half-Life level compiles with its game's poses, and each pose's
// solidity matches brute force over only the brushes whose contents it is blocked by.
TEST(GameLevels, CompileForTheirGameAndMatchBruteForcePerPose) {
    const std::vector<std::filesystem::path> levels = gameLevels();
    if (levels.empty()) GTEST_SKIP() << "no shared game levels at " << kGames;
    Rng rng(31);
    int clipLevels = 0;
    for (const auto& path : levels) {
        SCOPED_TRACE(path.filename().string());
        const MapReadResult read = readMapFile(path.string());
        ASSERT_TRUE(read.ok()) << read.error.format();
        const World w = worldFromMap(*read.map);
        EXPECT_EQ(w.poses.size(), 4u);
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(w, options);
        ASSERT_TRUE(r.error.empty()) << r.error;
        bool someBrushBlocksOnlySomePoses = false;
        for (const Brush& b : w.brushes) {
            int blocked = 0;
            for (const Pose& p : w.poses) blocked += blocks(b, p);
            someBrushBlocksOnlySomePoses |= blocked > 0 && blocked < int(w.poses.size());
        }
        clipLevels += someBrushBlocksOnlySomePoses;
        if (path.filename() == "q2_playerclip.map") {
            EXPECT_TRUE(someBrushBlocksOnlySomePoses);
        }
        Aabb box;
        for (const Brush& b : w.brushes)
            if (const auto g = buildBrushGeometry(b, w.bounds).geometry) box.add(g->bounds);
        if (box.mins.x() > box.maxs.x()) continue; // no valid brush
        for (size_t pose = 0; pose < w.poses.size(); ++pose) {
            World seen;
            seen.bounds = w.bounds;
            seen.poses = {w.poses[pose]};
            seen.poses[0].blocking = BrushContents::Solid;
            for (const Brush& b : w.brushes)
                if (uint32_t(b.contents) & uint32_t(w.poses[pose].blockingSet())) {
                    seen.brushes.push_back(b);
                    seen.brushes.back().contents = BrushContents::Solid;
                }
            const BruteForce brute(seen);
            for (int i = 0; i < 150; ++i) {
                const Vec3 q(uniform(rng, box.mins.x(), box.maxs.x()), uniform(rng, box.mins.y(), box.maxs.y()),
                             uniform(rng, box.mins.z(), box.maxs.z()));
                const std::optional<bool> expected = brute.solid(q, 0);
                if (!expected) continue;
                ASSERT_EQ(r.onion.isSolid(q, int(pose)), *expected) << w.poses[pose].name << " at " << q.transpose();
            }
        }
    }
    EXPECT_GE(clipLevels, 4); // levels with clip brushes: the per-pose sets were exercised
}

// Every shared test level of ../shared/maps/games (Quake 2, Half-Life) and ../shared/maps/unit
// (Quake) compiles with its detected game's poses, or is refused with a file:line:column
// error; none crashes or takes long. A copy cut off at half its length is refused with a
// place, or reads (a cut that ends between entities). docs/games.md tables them all
// (scripts/games-table.sh).
TEST(GameLevels, EverySharedTestLevelCompilesForItsGameOrIsRefusedWithAPlace) {
    std::vector<std::filesystem::path> levels = gameLevels();
    const std::filesystem::path unit = std::filesystem::path(SHALLOT_SHARED_MAPS) / "unit";
    if (std::filesystem::is_directory(unit))
        for (const auto& e : std::filesystem::directory_iterator(unit))
            if (e.path().extension() == ".map") levels.push_back(e.path());
    if (levels.empty()) GTEST_SKIP() << "no shared test levels";
    int compiled = 0, refused = 0;
    for (const auto& path : levels) {
        SCOPED_TRACE(path.string());
        const auto start = std::chrono::steady_clock::now();
        const MapReadResult read = readMapFile(path.string());
        if (!read.ok()) {
            EXPECT_GT(read.error.line, 0) << read.error.format();
            EXPECT_GT(read.error.column, 0) << read.error.format();
            ++refused;
            continue;
        }
        const std::string name = path.filename().string();
        const Game expected = name.starts_with("q2_") ? Game::Quake2 : name.starts_with("hl_") ? Game::HalfLife : Game::Quake;
        EXPECT_EQ(read.map->game, expected);
        const World w = worldFromMap(*read.map);
        EXPECT_EQ(w.poses.size(), gamePoses(expected).size());
        CompileOptions options;
        options.threads = 2;
        const CompileResult r = compileWorld(w, options);
        EXPECT_TRUE(r.error.empty()) << r.error;
        EXPECT_EQ(r.onion.poses.size(), w.poses.size());
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
        ++compiled;

        std::ifstream in(path, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const MapReadResult cut = readMap(std::string_view(text).substr(0, text.size() / 2), name);
        if (!cut.ok()) {
            EXPECT_EQ(cut.error.format().rfind(name + ":", 0), 0u) << cut.error.format();
            EXPECT_GT(cut.error.line, 0) << cut.error.format();
            EXPECT_GT(cut.error.column, 0) << cut.error.format();
        }
    }
    EXPECT_EQ(compiled + refused, int(levels.size()));
    EXPECT_EQ(levels.size(), 92u); // 84 of games/, 8 of unit/
    EXPECT_EQ(refused, 0);         // as of this writing, every one compiles
}

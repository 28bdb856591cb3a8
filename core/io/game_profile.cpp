#include "io/game_profile.h"

#include "io/map_file.h"
#include "world/world.h"

#include <algorithm>
#include <array>

namespace shallot {
namespace {

struct GameNames {
    Game game;
    const char* name;
    const char* title;
};

constexpr std::array<GameNames, 4> kGames{{
    {Game::Quake, "quake", "Quake"},
    {Game::Quake2, "quake2", "Quake 2"},
    {Game::HalfLife, "halflife", "Half-Life"},
    {Game::Quake3, "quake3", "Quake 3"},
}};

constexpr BrushContents kQuake2Shot = BrushContents::Solid | BrushContents::Window;
constexpr BrushContents kQuake2Player = kQuake2Shot | BrushContents::PlayerClip;
constexpr BrushContents kQuake2Monster = kQuake2Shot | BrushContents::MonsterClip;
constexpr BrushContents kQuake3Shot = BrushContents::Solid;
constexpr BrushContents kQuake3Player = kQuake3Shot | BrushContents::PlayerClip;

Pose pose(const char* name, const Vec3& mins, const Vec3& maxs, uint32_t colour,
          std::optional<BrushContents> blocking = std::nullopt) {
    Pose p;
    p.name = name;
    p.mins = mins;
    p.maxs = maxs;
    p.colour = colour;
    p.blocking = blocking;
    return p;
}

// The game named by TrenchBroom's header "// Game: NAME" when it is one of ours.
std::optional<Game> headerGame(const MapFile& map) {
    for (const GameNames& g : kGames)
        if (map.headerGame == g.title) return g.game;
    return std::nullopt;
}

bool hasSurfaceFlags(const MapFile& map) {
    return std::any_of(map.entities.begin(), map.entities.end(), [](const MapEntity& e) {
        return std::any_of(e.brushes.begin(), e.brushes.end(), [](const Brush& b) {
            return std::any_of(b.sides.begin(), b.sides.end(), [](const BrushSide& s) { return s.surface.has_value(); });
        });
    });
}

bool hasWad(const MapFile& map) {
    return !map.entities.empty() && map.entities[0].value("wad") != nullptr;
}

} // namespace

const char* gameName(Game game) {
    for (const GameNames& g : kGames)
        if (g.game == game) return g.name;
    return "quake";
}

const char* gameTitle(Game game) {
    for (const GameNames& g : kGames)
        if (g.game == game) return g.title;
    return "Quake";
}

std::optional<Game> parseGame(std::string_view name) {
    for (const GameNames& g : kGames)
        if (name == g.name) return g.game;
    return std::nullopt;
}

Game detectGame(const MapFile& map) {
    if (const std::optional<Game> g = headerGame(map)) return *g;
    const bool patches = std::any_of(map.entities.begin(), map.entities.end(),
                                     [](const MapEntity& e) { return !e.patches.empty(); });
    if (map.quake3Brushes || patches) return Game::Quake3;
    if (hasSurfaceFlags(map)) return Game::Quake2;
    if (map.valve220 && hasWad(map)) return Game::HalfLife;
    return Game::Quake;
}

std::vector<Pose> gamePoses(Game game) {
    switch (game) {
    case Game::Quake: return quakePoses();
    case Game::Quake2:
        return {
            pose("point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu, kQuake2Shot),
            pose("player", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0x40c040ffu, kQuake2Player),
            pose("crouch", Vec3(-16, -16, -24), Vec3(16, 16, 4), 0x4080c0ffu, kQuake2Player),
            pose("monster", Vec3(-16, -16, -24), Vec3(16, 16, 32), 0xc04040ffu, kQuake2Monster),
        };
    case Game::HalfLife:
        return {
            pose("point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu),
            pose("human", Vec3(-16, -16, -36), Vec3(16, 16, 36), 0x40c040ffu),
            pose("large", Vec3(-32, -32, -32), Vec3(32, 32, 32), 0xc04040ffu),
            pose("head", Vec3(-16, -16, -18), Vec3(16, 16, 18), 0x4080c0ffu),
        };
    case Game::Quake3:
        return {
            pose("point", Vec3::Zero(), Vec3::Zero(), 0xffffffffu, kQuake3Shot),
            pose("player", Vec3(-15, -15, -24), Vec3(15, 15, 32), 0x40c040ffu, kQuake3Player),
            pose("crouch", Vec3(-15, -15, -24), Vec3(15, 15, 16), 0x4080c0ffu, kQuake3Player),
        };
    }
    return quakePoses();
}

BrushContents gameDefaultBlocking(Game game, bool isPoint) {
    const std::vector<Pose> poses = gamePoses(game);
    return poses[isPoint ? 0 : 1].blockingSet();
}

void applyGameBlocking(Game game, Pose& pose) {
    const BrushContents blocking = gameDefaultBlocking(game, pose.isPoint());
    if (!pose.blocking && blocking != defaultBlocking(pose.isPoint())) pose.blocking = blocking;
}

} // namespace shallot

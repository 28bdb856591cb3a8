#include "io/game_contents.h"

#include <algorithm>
#include <string>

namespace shallot {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

// "textures/common/clip" -> "clip", "e1u1/clip" -> "clip".
std::string baseName(std::string_view texture) {
    const size_t slash = texture.find_last_of('/');
    return lower(slash == std::string_view::npos ? texture : texture.substr(slash + 1));
}

// A liquid by its name: lava, slime, else water.
BrushContents liquid(const std::string& name) {
    if (name.find("lava") != std::string::npos) return BrushContents::Lava;
    if (name.find("slime") != std::string::npos) return BrushContents::Slime;
    return BrushContents::Water;
}

// Quake and Half-Life: texture names decide. `liquidPrefixes` start a liquid's name.
BrushContents fromTextureNames(const Brush& brush, std::string_view liquidPrefixes) {
    bool clip = false, allHintOrSkip = !brush.sides.empty();
    for (const BrushSide& side : brush.sides) {
        const std::string name = lower(side.texture);
        if (!name.empty() && liquidPrefixes.find(name[0]) != std::string_view::npos) return liquid(name);
        clip |= name == "clip";
        allHintOrSkip &= name == "skip" || name == "hint";
    }
    if (allHintOrSkip) return BrushContents::NonSolid;
    return clip ? BrushContents::Clip : BrushContents::Solid;
}

// Quake 2 faces without CONTENTS FLAGS VALUE take them from the texture's .wal file,
// which is not read: these names get the values of Quake 2's own textures, others none.
BrushSide::SurfaceFlags quake2Defaults(const BrushSide& side) {
    const std::string name = baseName(side.texture);
    if (name == "clip") return {quake2::kPlayerClip | quake2::kMonsterClip, 0, 0};
    if (name == "hint") return {0, quake2::kSurfHint, 0};
    if (name == "skip") return {0, quake2::kSurfSkip, 0};
    return {};
}

// One side's contents as Quake 2's qbsp (map.c, ParseBrush) takes them.
uint32_t quake2SideContents(const BrushSide& side) {
    using namespace quake2;
    const BrushSide::SurfaceFlags s = side.surface ? *side.surface : quake2Defaults(side);
    if (s.flags & (kSurfHint | kSurfSkip)) return 0; // hints and skips have no contents
    const uint32_t visible = kSolid | kWindow | kAux | kLava | kSlime | kWater;
    if (!(s.contents & (visible | kPlayerClip | kMonsterClip | kMist))) return s.contents | kSolid;
    return s.contents;
}

BrushContents quake2Contents(const Brush& brush) {
    using namespace quake2;
    if (brush.sides.empty()) return BrushContents::NonSolid;
    // The brush takes its first side's contents (qbsp: BrushContents, "mixed face contents").
    uint32_t c = quake2SideContents(brush.sides[0]);
    const bool translucent = std::any_of(brush.sides.begin(), brush.sides.end(), [](const BrushSide& s) {
        return s.surface && (s.surface->flags & (kSurfTrans33 | kSurfTrans66));
    });
    if (translucent && (c & kSolid)) c = (c & ~kSolid) | kWindow; // a see-through solid is a window
    BrushContents out = BrushContents::NonSolid;
    const auto map = [&](uint32_t bit, BrushContents ours) {
        if (c & bit) out = out | ours;
    };
    map(kSolid, BrushContents::Solid);
    map(kWindow, BrushContents::Window);
    map(kLava, BrushContents::Lava);
    map(kSlime, BrushContents::Slime);
    map(kWater, BrushContents::Water);
    map(kMist, BrushContents::Mist);
    map(kPlayerClip, BrushContents::PlayerClip);
    map(kMonsterClip, BrushContents::MonsterClip);
    map(kDetail, BrushContents::Detail);
    map(kLadder, BrushContents::Ladder);
    return out;
}

// A Quake 3 shader's contents by its name (the shader scripts are not read).
BrushContents quake3ShaderContents(std::string_view texture) {
    const std::string path = lower(texture), name = baseName(texture);
    if (path.find("common/") != std::string::npos) {
        if (name == "clip" || name == "playerclip") return BrushContents::PlayerClip;
        if (name == "botclip") return BrushContents::BotClip;
        if (name == "weapclip" || name == "caulk" || name == "nodraw" || name.starts_with("nodraw")) return BrushContents::Solid;
        if (name == "trigger") return BrushContents::Trigger;
        if (name.starts_with("fog")) return BrushContents::Mist;
        if (name == "water" || name == "lava" || name == "slime") return liquid(name);
        if (name == "hint" || name == "skip" || name == "areaportal" || name == "clusterportal" || name == "origin" ||
            name == "nodrop" || name == "donotenter")
            return BrushContents::NonSolid;
    }
    if (path.find("liquids/") != std::string::npos) return liquid(name);
    if (path.find("fogs/") != std::string::npos || name.starts_with("fog")) return BrushContents::Mist;
    return BrushContents::Solid;
}

BrushContents quake3Contents(const Brush& brush) {
    BrushContents out = BrushContents::NonSolid;
    for (const BrushSide& side : brush.sides) out = out | quake3ShaderContents(side.texture);
    return out;
}

} // namespace

BrushContents brushContents(Game game, const Brush& brush) {
    switch (game) {
    case Game::Quake: return fromTextureNames(brush, "*");
    case Game::HalfLife: return fromTextureNames(brush, "*!");
    case Game::Quake2: return quake2Contents(brush);
    case Game::Quake3: return quake3Contents(brush);
    }
    return BrushContents::Solid;
}

bool illusionaryEntity(Game game, std::string_view classname) {
    const std::string cls = lower(classname);
    if (cls == "func_detail_illusionary") return true;
    return game == Game::HalfLife && (cls == "func_illusionary" || cls == "func_water");
}

} // namespace shallot

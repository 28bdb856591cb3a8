#include "io/game_contents.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace shallot {
namespace {

using BC = BrushContents;

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

// Quake 2's numbers for our contents, both ways.
constexpr std::pair<uint32_t, BrushContents> kQuake2Bits[] = {
    {quake2::kSolid, BC::Solid},   {quake2::kWindow, BC::Window},           {quake2::kLava, BC::Lava},
    {quake2::kSlime, BC::Slime},   {quake2::kWater, BC::Water},             {quake2::kMist, BC::Mist},
    {quake2::kPlayerClip, BC::PlayerClip}, {quake2::kMonsterClip, BC::MonsterClip}, {quake2::kDetail, BC::Detail},
    {quake2::kLadder, BC::Ladder},
};

// The bits of a set, lowest first.
std::vector<BrushContents> bitsOf(BrushContents c) {
    std::vector<BrushContents> bits;
    for (uint32_t k = 0; k < 32; ++k)
        if (uint32_t(c) & (1u << k)) bits.push_back(BrushContents(1u << k));
    return bits;
}

} // namespace

// Quake 2 faces without CONTENTS FLAGS VALUE take them from the texture's .wal file,
// which is not read: these names get the values of Quake 2's own textures, others none.
BrushSide::SurfaceFlags quake2Fields(const BrushSide& side) {
    if (side.surface) return *side.surface;
    const std::string name = baseName(side.texture);
    if (name == "clip") return {quake2::kPlayerClip | quake2::kMonsterClip, 0, 0};
    if (name == "hint") return {0, quake2::kSurfHint, 0};
    if (name == "skip") return {0, quake2::kSurfSkip, 0};
    return {};
}

// The shader scripts are not read: the name alone decides.
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

namespace {

bool isLiquidName(const std::string& lowerName, std::string_view liquidPrefixes) {
    return !lowerName.empty() && liquidPrefixes.find(lowerName[0]) != std::string_view::npos;
}

bool isHintOrSkip(const std::string& lowerName) { return lowerName == "skip" || lowerName == "hint"; }

// Quake and Half-Life: texture names decide. `liquidPrefixes` start a liquid's name.
BrushContents fromTextureNames(const Brush& brush, std::string_view liquidPrefixes) {
    bool clip = false, allHintOrSkip = !brush.sides.empty();
    for (const BrushSide& side : brush.sides) {
        const std::string name = lower(side.texture);
        if (isLiquidName(name, liquidPrefixes)) return liquid(name);
        clip |= name == "clip";
        allHintOrSkip &= isHintOrSkip(name);
    }
    if (allHintOrSkip) return BrushContents::NonSolid;
    return clip ? BrushContents::Clip : BrushContents::Solid;
}

// One side's contents as Quake 2's qbsp (map.c, ParseBrush) takes them.
uint32_t quake2SideContents(const BrushSide& side) {
    using namespace quake2;
    const BrushSide::SurfaceFlags s = quake2Fields(side);
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
    for (const auto& [bit, ours] : kQuake2Bits)
        if (c & bit) out = out | ours;
    return out;
}

BrushContents quake3Contents(const Brush& brush) {
    BrushContents out = BrushContents::NonSolid;
    for (const BrushSide& side : brush.sides) out = out | quake3ShaderContents(side.texture);
    return out;
}

// ------------------------------------------------------------ sides for given contents

// The names Quake and Half-Life sides are given (Quake's are id's textures).
struct TextureNames {
    const char* clip;
    const char* skip;
    const char* lava;
    const char* slime;
    const char* water;
    std::string_view liquidPrefixes;
};
constexpr TextureNames kQuakeNames{"clip", "skip", "*lava1", "*slime0", "*water0", "*"};
constexpr TextureNames kHalfLifeNames{"CLIP", "SKIP", "!lava", "!slime", "!water", "*!"};
// A solid side's name when the brush has no side of a plain texture to copy.
constexpr const char* kPlainTexture = "shallot/solid";

// `target` is one of writableContents' six for Quake and Half-Life.
void setTextureNames(Brush& brush, BrushContents target, const TextureNames& names) {
    const auto setAll = [&](const char* name) {
        for (BrushSide& side : brush.sides) side.texture = name;
    };
    switch (target) {
    case BC::Clip: return setAll(names.clip);
    case BC::Lava: return setAll(names.lava);
    case BC::Slime: return setAll(names.slime);
    case BC::Water: return setAll(names.water);
    case BC::NonSolid:
        // Hint sides stay hints; every other side becomes skip.
        for (BrushSide& side : brush.sides)
            if (!isHintOrSkip(lower(side.texture))) side.texture = names.skip;
        return;
    default: break;
    }
    // Solid: clip and liquid sides (and hint and skip ones when every side is) take the
    // first plain side's texture, else kPlainTexture.
    const auto special = [&](const std::string& name) {
        return name == "clip" || isHintOrSkip(name) || isLiquidName(name, names.liquidPrefixes);
    };
    std::string plain = kPlainTexture;
    for (const BrushSide& side : brush.sides)
        if (!special(lower(side.texture))) {
            plain = side.texture;
            break;
        }
    bool allHintOrSkip = true;
    for (BrushSide& side : brush.sides) {
        const std::string name = lower(side.texture);
        if (name == "clip" || isLiquidName(name, names.liquidPrefixes)) side.texture = plain;
        allHintOrSkip &= isHintOrSkip(lower(side.texture));
    }
    if (allHintOrSkip) setAll(plain.c_str());
}

// Every side gets the target's contents bits; flags and value are kept but for those that
// would read otherwise: hint and skip (no contents), and SURF_TRANS33/66 on a solid brush
// (a window). Nonsolid is contents 0 with SURF_SKIP (hint sides stay hints).
void setQuake2Fields(Brush& brush, BrushContents target) {
    using namespace quake2;
    if (target == BC::NonSolid) {
        for (BrushSide& side : brush.sides) {
            BrushSide::SurfaceFlags f = quake2Fields(side);
            f.contents = 0;
            if (!(f.flags & (kSurfHint | kSurfSkip))) f.flags |= kSurfSkip;
            side.surface = f;
        }
        return;
    }
    uint32_t c = 0;
    for (const auto& [bit, ours] : kQuake2Bits)
        if (intersects(target, ours)) c |= bit;
    // Detail or ladder alone: qbsp adds solid to contents with no visible bit, so the
    // unused visible CONTENTS_AUX (4) keeps them as they are.
    if (!(c & (kSolid | kWindow | kAux | kLava | kSlime | kWater | kMist | kPlayerClip | kMonsterClip))) c |= kAux;
    for (BrushSide& side : brush.sides) {
        BrushSide::SurfaceFlags f = quake2Fields(side);
        f.contents = c;
        f.flags &= ~(kSurfHint | kSurfSkip);
        if (c & kSolid) f.flags &= ~(kSurfTrans33 | kSurfTrans66);
        side.surface = f;
    }
}

std::string quake3Shader(BrushContents bit, const std::string& plain) {
    switch (bit) {
    case BC::PlayerClip: return "common/clip";
    case BC::BotClip: return "common/botclip";
    case BC::Trigger: return "common/trigger";
    case BC::Mist: return "fogs/fog";
    case BC::Lava: return "liquids/lava";
    case BC::Slime: return "liquids/slime";
    case BC::Water: return "liquids/water";
    default: return plain; // solid
    }
}

// Quake 3 takes the union of its sides' shaders: sides whose shader gives a contents not in
// the target are given one that does, and contents the kept sides do not give are put on
// them (then on kept sides the others make up for, last first).
void setQuake3Shaders(Brush& brush, BrushContents target) {
    const size_t n = brush.sides.size();
    std::vector<BrushContents> own(n);
    for (size_t i = 0; i < n; ++i) own[i] = quake3ShaderContents(brush.sides[i].texture);
    if (target == BC::NonSolid) {
        for (size_t i = 0; i < n; ++i)
            if (own[i] != BC::NonSolid) brush.sides[i].texture = "common/skip";
        return;
    }
    std::string plain = "common/caulk";
    for (size_t i = 0; i < n; ++i)
        if (own[i] == BC::Solid) {
            plain = brush.sides[i].texture;
            break;
        }
    std::vector<bool> rewrite(n);
    for (size_t i = 0; i < n; ++i) rewrite[i] = withoutContents(own[i], target) != BC::NonSolid;
    const auto keptExcept = [&](size_t skip) {
        BrushContents c = BC::NonSolid;
        for (size_t i = 0; i < n; ++i)
            if (!rewrite[i] && i != skip) c = c | own[i];
        return c;
    };
    std::vector<BrushContents> missing;
    for (;;) {
        missing = bitsOf(withoutContents(target, keptExcept(n)));
        if (missing.size() <= size_t(std::count(rewrite.begin(), rewrite.end(), true))) break;
        size_t pick = n, fallback = n;
        for (size_t i = n; i-- > 0 && pick == n;) {
            if (rewrite[i]) continue;
            if (withoutContents(own[i], keptExcept(i)) == BC::NonSolid) pick = i;
            else if (fallback == n) fallback = i;
        }
        rewrite[pick != n ? pick : fallback] = true; // writableContents leaves no more bits than sides
    }
    const BrushContents first = bitsOf(target).front();
    size_t j = 0;
    for (size_t i = 0; i < n; ++i)
        if (rewrite[i]) {
            brush.sides[i].texture = quake3Shader(j < missing.size() ? missing[j] : first, plain);
            ++j;
        }
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

BrushContents writableContents(Game game, BrushContents c, size_t sides) {
    const auto has = [&](BrushContents bits) { return intersects(c, bits); };
    switch (game) {
    case Game::Quake:
    case Game::HalfLife:
        if (has(BC::Solid | BC::Window | BC::Detail | BC::Ladder)) return BC::Solid;
        if (has(BC::Clip | BC::PlayerClip | BC::MonsterClip | BC::BotClip)) return BC::Clip;
        if (has(BC::Lava)) return BC::Lava;
        if (has(BC::Slime)) return BC::Slime;
        if (has(BC::Water)) return BC::Water;
        return BC::NonSolid;
    case Game::Quake2: {
        BrushContents out = withoutContents(c, BC::Clip | BC::BotClip | BC::Trigger);
        if (has(BC::Clip)) out = out | BC::PlayerClip | BC::MonsterClip;
        if (has(BC::BotClip)) out = out | BC::MonsterClip;
        return out;
    }
    case Game::Quake3: {
        BrushContents out = withoutContents(c, BC::Clip | BC::MonsterClip | BC::Window | BC::Detail | BC::Ladder);
        if (has(BC::Clip)) out = out | BC::PlayerClip;
        if (has(BC::MonsterClip)) out = out | BC::BotClip;
        if (has(BC::Window | BC::Detail | BC::Ladder)) out = out | BC::Solid;
        const std::vector<BrushContents> bits = bitsOf(out);
        out = BC::NonSolid;
        for (size_t i = 0; i < bits.size() && i < sides; ++i) out = out | bits[i];
        return out;
    }
    }
    return c;
}

bool setSidesToContents(Game game, Brush& brush) {
    if (brush.sides.empty()) return false;
    const BrushContents target = writableContents(game, brush.contents, brush.sides.size());
    if (brushContents(game, brush) == target) return false;
    switch (game) {
    case Game::Quake: setTextureNames(brush, target, kQuakeNames); break;
    case Game::HalfLife: setTextureNames(brush, target, kHalfLifeNames); break;
    case Game::Quake2: setQuake2Fields(brush, target); break;
    case Game::Quake3: setQuake3Shaders(brush, target); break;
    }
    return true;
}

bool illusionaryEntity(Game game, std::string_view classname) {
    const std::string cls = lower(classname);
    if (cls == "func_detail_illusionary") return true;
    return game == Game::HalfLife && (cls == "func_illusionary" || cls == "func_water");
}

} // namespace shallot

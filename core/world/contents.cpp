#include "world/contents.h"

#include <array>
#include <utility>

namespace shallot {
namespace {

constexpr std::array<std::pair<BrushContents, std::string_view>, 13> kNames{{
    {BrushContents::Solid, "solid"},
    {BrushContents::Clip, "clip"},
    {BrushContents::Window, "window"},
    {BrushContents::PlayerClip, "playerclip"},
    {BrushContents::MonsterClip, "monsterclip"},
    {BrushContents::BotClip, "botclip"},
    {BrushContents::Lava, "lava"},
    {BrushContents::Slime, "slime"},
    {BrushContents::Water, "water"},
    {BrushContents::Mist, "mist"},
    {BrushContents::Ladder, "ladder"},
    {BrushContents::Detail, "detail"},
    {BrushContents::Trigger, "trigger"},
}};

constexpr std::string_view kNonSolidName = "nonsolid";

} // namespace

std::string contentsName(BrushContents contents) {
    std::string out;
    for (const auto& [bit, name] : kNames) {
        if (!intersects(contents, bit)) continue;
        if (!out.empty()) out += '+';
        out += name;
    }
    return out.empty() ? std::string(kNonSolidName) : out;
}

std::optional<BrushContents> parseContents(std::string_view text) {
    if (text == kNonSolidName) return BrushContents::NonSolid;
    BrushContents set = BrushContents::NonSolid;
    for (;;) {
        const size_t plus = text.find('+');
        const std::string_view part = text.substr(0, plus);
        bool known = false;
        for (const auto& [bit, name] : kNames)
            if (part == name) set = set | bit, known = true;
        if (!known) return std::nullopt;
        if (plus == std::string_view::npos) return set;
        text.remove_prefix(plus + 1);
    }
}

std::string contentsNameList() {
    std::string out(kNonSolidName);
    for (const auto& entry : kNames) out += ", " + std::string(entry.second);
    return out;
}

} // namespace shallot

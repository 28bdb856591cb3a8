#include "world/nav_settings.h"

#include "world/number_text.h"

#include <charconv>
#include <cmath>

namespace shallot {
namespace {

// A finite number >= 0 (slopes: in (0, 1]), the whole text.
bool parseLength(std::string_view text, double& out) {
    double v = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0) return false;
    out = v;
    return true;
}

} // namespace

std::string navSettingsSummary(const NavSettings& s) {
    std::string out = "step " + numberText(s.stepHeight) + ", drops of " +
                      (std::isinf(s.maxDrop) ? std::string("any height") : "up to " + numberText(s.maxDrop));
    out += s.jump ? ", jumps " + numberText(s.jumpHeight) + " up and " + numberText(s.jumpLength) + " across" : ", no jumps";
    if (s.walkableNormalZ != NavSettings{}.walkableNormalZ) out += ", ground normal z " + numberText(s.walkableNormalZ);
    return out;
}

std::string navSettingsFields(const NavSettings& s) {
    const NavSettings d;
    std::string out;
    auto add = [&](const std::string& field) { out += (out.empty() ? "" : " ") + field; };
    if (s.walkableNormalZ != d.walkableNormalZ) add("slope=" + numberText(s.walkableNormalZ));
    if (s.stepHeight != d.stepHeight) add("step=" + numberText(s.stepHeight));
    if (s.maxDrop != d.maxDrop) add("drop=" + (std::isinf(s.maxDrop) ? std::string("any") : numberText(s.maxDrop)));
    if (s.jump) add("jump=" + numberText(s.jumpHeight) + "," + numberText(s.jumpLength));
    return out;
}

bool applyNavSettingsField(std::string_view field, NavSettings& s) {
    const size_t eq = field.find('=');
    if (eq == std::string_view::npos) return false;
    const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    double v = 0;
    if (key == "slope") {
        if (!parseLength(value, v) || v <= 0 || v > 1) return false;
        s.walkableNormalZ = v;
    } else if (key == "step") {
        if (!parseLength(value, v)) return false;
        s.stepHeight = v;
    } else if (key == "drop") {
        if (value == "any") s.maxDrop = std::numeric_limits<double>::infinity();
        else if (parseLength(value, v)) s.maxDrop = v;
        else return false;
    } else if (key == "jump") {
        if (value == "off") {
            s.jump = false;
            return true;
        }
        const size_t comma = value.find(',');
        double h = 0, l = 0;
        if (comma == std::string_view::npos || !parseLength(value.substr(0, comma), h) ||
            !parseLength(value.substr(comma + 1), l))
            return false;
        s.jump = true;
        s.jumpHeight = h;
        s.jumpLength = l;
    } else {
        return false;
    }
    return true;
}

} // namespace shallot

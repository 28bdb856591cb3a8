#include "movers/mover_keys.h"

#include "world/entity_class.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

namespace shallot {
namespace {

// One number and nothing else (spaces around it allowed, as .map writers leave them).
std::optional<double> parseNumber(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

void note(std::vector<MoverNote>& notes, const MapEntity& entity, int index, std::string message) {
    notes.push_back({index, entity.line, std::move(message)});
}

// Quake's angle -1 (up) and -2 (down): the only yaws that are not a direction in the plane.
constexpr double kAngleUp = -1.0;
constexpr double kAngleDown = -2.0;

// A direction component this small is rounding of cos/sin at a multiple of 90 degrees
// (cos 90 degrees is 6.1e-17 in doubles): it is zero, so that an axial door moves axially.
constexpr double kDirectionNoise = 1e-12;

Vec3 forwardOf(double pitchDegrees, double yawDegrees) {
    const double pitch = pitchDegrees * std::numbers::pi / 180.0, yaw = yawDegrees * std::numbers::pi / 180.0;
    // The games' AngleVectors: a positive pitch looks down.
    Vec3 forward(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), -std::sin(pitch));
    for (int k = 0; k < 3; ++k)
        if (std::abs(forward[k]) < kDirectionNoise) forward[k] = 0.0;
    return forward;
}

} // namespace

std::optional<double> numberKey(const MapEntity& entity, int index, std::string_view key,
                                std::vector<MoverNote>& notes) {
    const std::string* text = entity.value(key);
    if (!text) return std::nullopt;
    if (const std::optional<double> v = parseNumber(*text)) return v;
    note(notes, entity, index,
         entity.classname() + " (entity " + std::to_string(index) + ") key \"" + std::string(key) + "\" is \"" + *text +
             "\", not a finite number: the game's default is used");
    return std::nullopt;
}

double numberOr(const MapEntity& entity, int index, std::string_view key, double fallback,
                std::vector<MoverNote>& notes) {
    const std::optional<double> v = numberKey(entity, index, key, notes);
    return v && *v != 0.0 ? *v : fallback;
}

int spawnflagsOf(const MapEntity& entity, int index, std::vector<MoverNote>& notes) {
    const std::optional<double> v = numberKey(entity, index, "spawnflags", notes);
    // Flags past 2^30 mean nothing to any of the games; a huge value is read as none.
    constexpr double kLargestFlags = 1 << 30;
    return v && *v >= 0.0 && *v < kLargestFlags ? int(*v) : 0;
}

int healthOf(const MapEntity& entity, int index, std::vector<MoverNote>& notes) {
    // Any health above this is as good as unbreakable; it keeps the int conversion defined.
    constexpr double kLargestHealth = 1e9;
    return int(std::clamp(numberKey(entity, index, "health", notes).value_or(0.0), -kLargestHealth, kLargestHealth));
}

double yawOf(const MapEntity& entity) {
    if (const std::string* angle = entity.value("angle"))
        if (const std::optional<double> v = parseNumber(*angle)) return *v;
    if (const std::string* angles = entity.value("angles"))
        if (const std::optional<Vec3> v = parseEntityVector(*angles)) return v->y();
    return 0.0;
}

Vec3 moveDirection(const MapEntity& entity, int index, std::vector<MoverNote>& notes) {
    double pitch = 0.0, yaw = 0.0;
    if (const std::string* angles = entity.value("angles"); angles && !entity.value("angle")) {
        if (const std::optional<Vec3> v = parseEntityVector(*angles)) {
            pitch = v->x();
            yaw = v->y();
        } else {
            note(notes, entity, index,
                 entity.classname() + " (entity " + std::to_string(index) + ") key \"angles\" is \"" + *angles +
                     "\", not three finite numbers: it moves along +x");
        }
    } else if (const std::optional<double> v = numberKey(entity, index, "angle", notes)) {
        yaw = *v;
    }
    if (pitch == 0.0 && yaw == kAngleUp) return Vec3::UnitZ();
    if (pitch == 0.0 && yaw == kAngleDown) return -Vec3::UnitZ();
    return forwardOf(pitch, yaw);
}

} // namespace shallot

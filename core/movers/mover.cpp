#include "movers/mover.h"

#include "world/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace shallot {

const char* moverKindName(MoverKind kind) {
    switch (kind) {
    case MoverKind::Door: return "door";
    case MoverKind::SecretDoor: return "secret_door";
    case MoverKind::Plat: return "plat";
    case MoverKind::Train: return "train";
    case MoverKind::Button: return "button";
    case MoverKind::Static: return "static";
    }
    return "static";
}

const char* keyKindName(KeyKind kind) {
    switch (kind) {
    case KeyKind::None: return "";
    case KeyKind::Silver: return "silver";
    case KeyKind::Gold: return "gold";
    }
    return "";
}

std::string formatMoverState(const MoverState& state) {
    switch (state.type) {
    case MoverState::Type::Closed: return "closed";
    case MoverState::Type::Open: return "open";
    case MoverState::Type::Corner: return "corner " + std::to_string(state.corner);
    case MoverState::Type::Fraction: return numberText(state.fraction);
    }
    return "closed";
}

std::optional<MoverState> parseMoverState(std::string_view text) {
    if (text == "closed") return MoverState::closed();
    if (text == "open") return MoverState::open();
    constexpr std::string_view kCorner = "corner ";
    if (text.starts_with(kCorner)) {
        const std::string_view digits = text.substr(kCorner.size());
        int corner = -1;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), corner);
        if (ec != std::errc() || end != digits.data() + digits.size() || corner < 0) return std::nullopt;
        return MoverState::atCorner(corner);
    }
    double fraction = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), fraction);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    if (!(fraction >= 0.0 && fraction <= 1.0)) return std::nullopt; // also NaN
    return MoverState::at(fraction);
}

namespace {

// The point `fraction` of the way along the polyline `stops` by length; a polyline of
// zero length stays at its first point.
Vec3 alongStops(const std::vector<Vec3>& stops, double fraction) {
    if (stops.empty()) return Vec3::Zero();
    if (!(fraction > 0.0)) return stops.front(); // also NaN
    if (fraction >= 1.0) return stops.back(); // also +infinity
    double total = 0.0;
    for (size_t i = 1; i < stops.size(); ++i) total += (stops[i] - stops[i - 1]).norm();
    if (!(total > 0.0) || !std::isfinite(total)) return stops.front();
    double remaining = fraction * total;
    for (size_t i = 1; i < stops.size(); ++i) {
        const double length = (stops[i] - stops[i - 1]).norm();
        if (remaining <= length && length > 0.0) return stops[i - 1] + (stops[i] - stops[i - 1]) * (remaining / length);
        remaining -= length;
    }
    return stops.back();
}

Aabb moved(const Aabb& box, const Vec3& offset) {
    if (box.empty()) return box;
    return {box.mins + offset, box.maxs + offset};
}

} // namespace

Vec3 Mover::offsetAt(const MoverState& state) const {
    const std::vector<Vec3>& stops = motion.stops;
    if (stops.empty()) return Vec3::Zero();
    switch (state.type) {
    case MoverState::Type::Closed: return stops.front();
    case MoverState::Type::Open: return stops.back();
    case MoverState::Type::Corner:
        return stops[size_t(std::clamp(state.corner, 0, int(stops.size()) - 1))];
    case MoverState::Type::Fraction: return alongStops(stops, state.fraction);
    }
    return stops.front();
}

Aabb Mover::boundsAt(const MoverState& state) const { return moved(bounds, offsetAt(state)); }

Aabb grownByTouchReach(const Aabb& box) {
    if (box.empty()) return box;
    const Vec3 reach = Vec3::Constant(kTouchReach);
    return {box.mins - reach, box.maxs + reach};
}

Aabb touchFieldOf(const Mover& m) {
    const bool solidField = !m.touchBounds.empty() && m.touchBounds == m.bounds;
    return solidField ? grownByTouchReach(m.touchBounds) : m.touchBounds;
}

Aabb Mover::sweptBounds() const {
    Aabb swept;
    for (const Vec3& stop : motion.stops) swept.add(moved(bounds, stop));
    return swept;
}

const Mover* LevelMovers::forEntity(int entity) const {
    // Movers are in file order: a binary search by entity index.
    const auto it = std::lower_bound(movers.begin(), movers.end(), entity,
                                     [](const Mover& m, int e) { return m.entity < e; });
    return it != movers.end() && it->entity == entity ? &*it : nullptr;
}

std::vector<int> LevelMovers::group(int index) const {
    if (index < 0 || size_t(index) >= movers.size()) return {};
    const int master = movers[size_t(index)].master < 0 ? index : movers[size_t(index)].master;
    std::vector<int> members;
    for (size_t i = 0; i < movers.size(); ++i)
        if (int(i) == master || movers[i].master == master) members.push_back(int(i));
    return members;
}

} // namespace shallot

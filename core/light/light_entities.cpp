#include "light/light_entities.h"

#include <charconv>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>

namespace shallot {

namespace {

// ericw-tools reads "_key" and "key" as one key; the last one in the entity wins.
const std::string* keyValue(const MapEntity& e, std::string_view key) {
    const std::string* found = nullptr;
    for (const auto& [k, v] : e.keys) {
        const std::string_view name = k.starts_with('_') ? std::string_view(k).substr(1) : std::string_view(k);
        if (name == key) found = &v;
    }
    return found;
}

// Up to `max` whitespace-separated numbers (fewer when the text ends or a token is not one).
std::vector<double> numbers(const std::string& text, size_t max) {
    std::vector<double> out;
    std::istringstream in(text);
    std::string token;
    while (out.size() < max && in >> token) {
        double v = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
        if (ec != std::errc() || end != token.data() + token.size()) break;
        out.push_back(v);
    }
    return out;
}

struct Reader {
    const MapEntity& entity;
    const std::string& file;
    std::vector<std::string>& warnings;

    void warn(const std::string& message) const {
        warnings.push_back(file + ":" + std::to_string(entity.line) + ": " + entity.classname() + ": " + message);
    }
    // A finite number within +-limit, or nothing (with a warning when the key is there).
    std::optional<double> number(std::string_view key, double limit) const {
        const std::string* v = keyValue(entity, key);
        if (!v) return std::nullopt;
        const std::vector<double> n = numbers(*v, 1);
        if (n.empty() || !std::isfinite(n[0]) || std::abs(n[0]) > limit) {
            warn("\"" + std::string(key) + "\" \"" + *v + "\" is not a number within +-" + std::to_string(limit) +
                 "; ignored");
            return std::nullopt;
        }
        return n[0];
    }
    std::optional<Vec3> vector(std::string_view key) const {
        const std::string* v = keyValue(entity, key);
        if (!v) return std::nullopt;
        const std::vector<double> n = numbers(*v, 3);
        if (n.size() != 3 || !Vec3(n[0], n[1], n[2]).allFinite() || Vec3(n[0], n[1], n[2]).cwiseAbs().maxCoeff() > kMaxLightValue) {
            warn("\"" + std::string(key) + "\" \"" + *v + "\" is not three finite numbers; ignored");
            return std::nullopt;
        }
        return Vec3(n[0], n[1], n[2]);
    }
    // A colour "r g b", 0-255, or 0-1 read as fractions of 255 (ericw-tools).
    std::optional<Vec3> color(std::string_view key) const {
        std::optional<Vec3> c = vector(key);
        if (c && (c->array() >= 0).all() && (c->array() <= 1).all()) *c *= 255.0;
        return c;
    }
};

double cosOfHalf(double degrees) { return -std::cos(degrees / 2 * std::numbers::pi / 180); }

// ericw-tools' dirt flags: 1 on, -1 off, 0 as worldspawn's "_dirt".
bool dirtFlag(int flag, const DirtSettings& dirt) { return flag == 1 || (flag == 0 && dirt.all); }

// ericw-tools' SetupSkyDome (from q3map2): kSkyDomeSamples suns over the upper (`down`:
// shining down) or lower hemisphere, in rings of elevation, sharing `light`.
void addSkyDome(std::vector<SunLight>& suns, double light, const Vec3& color, bool down, const SunLight& base) {
    if (light <= 0) return;
    const int iterations = std::max(2, int(std::rint(std::sqrt((kSkyDomeSamples - 1) / 4.0))) + 1);
    const int elevationSteps = iterations - 1, angleSteps = elevationSteps * 4;
    const double elevationStep = (90.0 / (elevationSteps + 1)) * std::numbers::pi / 180;
    const double angleStep = (360.0 / angleSteps) * std::numbers::pi / 180;
    const double each = light / (angleSteps * elevationSteps + 1);
    const auto add = [&](const Vec3& travel) {
        SunLight sun = base;
        sun.towardSun = -travel.normalized();
        sun.light = each;
        sun.color = color;
        suns.push_back(sun);
    };
    double angle = 0, elevation = elevationStep * 0.5;
    for (int i = 0; i < elevationSteps; ++i) {
        for (int j = 0; j < angleSteps; ++j) {
            const double z = std::sin(elevation) * (down ? -1 : 1);
            add(Vec3(std::cos(angle) * std::cos(elevation), std::sin(angle) * std::cos(elevation), z));
            angle += angleStep;
        }
        elevation += elevationStep;
        angle += angleStep / elevationSteps;
    }
    add(Vec3(0, 0, down ? -1 : 1));
}

} // namespace

Vec3 directionFromMangle(const Vec3& mangle) {
    const double yaw = mangle.x() * std::numbers::pi / 180, pitch = mangle.y() * std::numbers::pi / 180;
    return {std::cos(yaw) * std::cos(pitch), std::sin(yaw) * std::cos(pitch), std::sin(pitch)};
}

LightEntities readLightEntities(const std::vector<MapEntity>& entities, const std::string& file) {
    LightEntities out;
    LightSettings& s = out.settings;
    const MapEntity* world = nullptr;
    for (const MapEntity& e : entities)
        if (e.classname() == "worldspawn") world = &e;
    double sunlight = 0, sunlight2 = 0, sunlight3 = 0;
    Vec3 sunMangle(0, -90, 0), sunColor = Vec3::Constant(255), sun2Color = sunColor, sun3Color = sunColor;
    std::optional<double> sunDirt, sun2Dirt;
    if (world) {
        const Reader r{*world, file, out.warnings};
        if (auto v = r.number("minlight", kMaxLightValue)) s.minlight = *v;
        if (auto v = r.number("light", kMaxLightValue)) s.minlight = *v;
        if (auto v = r.color("minlight_color")) s.minlightColor = *v;
        if (auto v = r.color("mincolor")) s.minlightColor = *v;
        if (auto v = r.number("dist", 100)) s.scaledist = std::max(0.0, *v);
        if (auto v = r.number("range", 100)) s.rangescale = std::max(0.0, *v);
        for (const char* key : {"anglesense", "anglescale"})
            if (auto v = r.number(key, 1)) s.anglescale = std::clamp(*v, 0.0, 1.0);
        for (const char* key : {"sun_light", "sunlight"})
            if (auto v = r.number(key, kMaxLightValue)) sunlight = *v;
        for (const char* key : {"sun_angle", "sun_mangle", "sunlight_mangle"})
            if (auto v = r.vector(key)) sunMangle = *v;
        for (const char* key : {"sun_color", "sunlight_color"})
            if (auto v = r.color(key)) sunColor = *v;
        if (auto v = r.number("sunlight2", kMaxLightValue)) sunlight2 = *v;
        if (auto v = r.number("sunlight3", kMaxLightValue)) sunlight3 = *v;
        for (const char* key : {"sunlight_color2", "sunlight2_color"})
            if (auto v = r.color(key)) sun2Color = *v;
        for (const char* key : {"sunlight_color3", "sunlight3_color"})
            if (auto v = r.color(key)) sun3Color = *v;
        if (auto v = r.number("dirt", 1e9)) s.dirt.all = *v == 1;
        std::optional<double> minlightDirt = r.number("minlight_dirt", 1e9);
        sunDirt = r.number("sunlight_dirt", 1e9);
        sun2Dirt = r.number("sunlight2_dirt", 1e9);
        if (auto v = r.number("dirtdepth", kMaxLightValue)) s.dirt.depth = std::max(1.0, *v);
        if (auto v = r.number("dirtscale", 100)) s.dirt.scale = std::max(0.0, *v);
        if (auto v = r.number("dirtgain", 100)) s.dirt.gain = std::max(0.0, *v);
        if (auto v = r.number("dirtangle", 90)) s.dirt.angle = std::clamp(*v, 1.0, 90.0);
        // "_dirt" 1 implies the minlight's and the suns' dirt unless they are set.
        s.dirt.minlight = minlightDirt ? *minlightDirt == 1 : s.dirt.all;
    }
    SunLight base;
    base.anglescale = s.anglescale;
    base.dirt = sunDirt ? *sunDirt == 1 : s.dirt.all;
    if (sunlight != 0) {
        SunLight sun = base;
        sun.towardSun = -directionFromMangle(sunMangle).normalized();
        sun.light = sunlight;
        sun.color = sunColor;
        s.suns.push_back(sun);
    }
    base.dirt = sun2Dirt ? *sun2Dirt == 1 : s.dirt.all;
    addSkyDome(s.suns, sunlight2, sun2Color, true, base);
    addSkyDome(s.suns, sunlight3, sun3Color, false, base);

    // Switchable lights: each targetname its style from 32 on, as id's light numbers them.
    std::map<std::string, int> switchable;
    std::map<std::string, Vec3> targets; // targetname -> origin, for spotlights
    for (const MapEntity& e : entities) {
        const std::string* name = e.value("targetname");
        const std::optional<Vec3> origin = e.origin();
        if (name && origin && !targets.contains(*name)) targets[*name] = *origin;
    }
    for (const MapEntity& e : entities) {
        if (!e.classname().starts_with("light")) continue;
        const Reader r{e, file, out.warnings};
        const std::optional<Vec3> origin = e.origin();
        if (!origin || origin->cwiseAbs().maxCoeff() > kMaxLightValue) {
            r.warn("no valid \"origin\"; the light is left out");
            continue;
        }
        PointLight l;
        l.origin = *origin;
        l.line = e.line;
        l.anglescale = s.anglescale;
        if (const std::string* v = keyValue(e, "light")) {
            // "n", or Half-Life's "r g b n", or "r g b" (colour only), as ericw-tools reads it.
            const std::vector<double> n = numbers(*v, 4);
            const bool finite = std::all_of(n.begin(), n.end(), [](double x) { return std::isfinite(x) && std::abs(x) <= kMaxLightValue; });
            if (!finite || (n.size() != 1 && n.size() != 3 && n.size() != 4)) {
                r.warn("\"light\" \"" + *v + "\" is not a number within +-" + std::to_string(kMaxLightValue) +
                       "; the light is left out");
                continue;
            }
            if (n.size() == 1) l.light = n[0];
            if (n.size() >= 3) l.color = Vec3(n[0], n[1], n[2]);
            if (n.size() == 4) l.light = n[3];
            if ((l.color.array() >= 0).all() && (l.color.array() <= 1).all()) l.color *= 255.0;
        }
        if (auto v = r.number("wait", kMaxLightValue)) l.wait = *v > 0 ? *v : 1.0;
        if (auto v = r.number("delay", 100)) {
            if (*v >= 0 && *v <= 5 && *v == std::floor(*v)) l.formula = LightFormula(int(*v));
            else r.warn("\"delay\" " + std::to_string(*v) + " is not 0-5; the light is linear");
        }
        if (auto v = r.number("falloff", kMaxLightValue)) {
            if (l.formula == LightFormula::Linear) l.falloff = std::max(0.0, *v);
            else r.warn("\"_falloff\" works on linear (delay 0) lights only; ignored");
        }
        if (auto v = r.color("color")) l.color = *v;
        for (const char* key : {"anglesense", "anglescale"})
            if (auto v = r.number(key, kMaxLightValue); v && *v >= 0 && *v <= 1) l.anglescale = *v;
        if (auto v = r.number("style", kMaxLightValue)) {
            if (*v >= 0 && *v <= 254) l.style = int(*v);
            else r.warn("\"style\" " + std::to_string(*v) + " is not 0-254; style 0");
        }
        if (const std::string* name = e.value("targetname"); name && l.style == 0 && e.classname() == "light") {
            auto [it, inserted] = switchable.try_emplace(*name, 32 + int(switchable.size()));
            l.style = it->second;
        }
        const std::optional<Vec3> mangle = r.vector("mangle");
        if (mangle) {
            l.spotlight = true;
            l.spotDirection = directionFromMangle(*mangle);
        }
        std::optional<Vec3> toTarget;
        if (const std::string* target = e.value("target")) {
            const auto t = targets.find(*target);
            if (t == targets.end()) r.warn("\"target\" \"" + *target + "\" matches no entity with an origin");
            else if ((t->second - l.origin).norm() > 0) {
                l.spotlight = true;
                l.spotDirection = (t->second - l.origin).normalized();
                toTarget = l.spotDirection;
            }
        }
        if (auto v = r.number("dirt", 1e9)) l.dirt = *v == 1 ? 1 : *v == -1 ? -1 : 0;
        if (auto v = r.number("dirtscale", 100)) l.dirtScale = std::max(0.0, *v);
        if (auto v = r.number("dirtgain", 100)) l.dirtGain = std::max(0.0, *v);
        // Suns and domes from light entities (ericw-tools' "_sun", "_sunlight2", "_sunlight3").
        SunLight sun;
        sun.color = l.color;
        sun.anglescale = l.anglescale;
        sun.dirt = dirtFlag(l.dirt, s.dirt);
        sun.style = l.style;
        if (r.number("sun", 1e9).value_or(0) != 0 && l.light > 0) {
            const Vec3 travel = toTarget                            ? *toTarget
                                : mangle && mangle->squaredNorm() > 0 ? directionFromMangle(*mangle)
                                                                      : Vec3(-l.origin);
            if (travel.norm() == 0) {
                r.warn("a sun with no direction (no target, mangle, and origin 0 0 0); left out");
                continue;
            }
            sun.towardSun = -travel.normalized();
            sun.light = l.light;
            s.suns.push_back(sun);
            continue;
        }
        const bool upper = r.number("sunlight2", 1e9).value_or(0) != 0, lower = r.number("sunlight3", 1e9).value_or(0) != 0;
        if ((upper || lower) && l.light > 0) {
            addSkyDome(s.suns, l.light, l.color, upper, sun);
            continue;
        }
        if (l.spotlight) {
            double angle = r.number("angle", 360).value_or(0.0);
            if (angle <= 0) angle = kDefaultSpotAngle;
            double soft = r.number("softangle", 360).value_or(0.0);
            if (soft <= 0 || soft > angle) soft = angle;
            l.spotOuterCos = cosOfHalf(angle);
            l.spotInnerCos = cosOfHalf(soft);
        }
        out.lights.push_back(l);
    }
    s.dirtInUse = s.dirt.minlight && s.minlight > 0;
    for (const SunLight& sun : s.suns) s.dirtInUse |= sun.dirt;
    for (const PointLight& l : out.lights) s.dirtInUse |= dirtFlag(l.dirt, s.dirt);
    return out;
}

} // namespace shallot

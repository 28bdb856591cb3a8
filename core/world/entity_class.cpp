#include "world/entity_class.h"

#include "world/number_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace shallot {
namespace {

std::string lowerCase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool startsWithIgnoringCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

EntityClass sized(std::string name, EntityCategory category, EntityMotion motion, Vec3 mins, Vec3 maxs) {
    EntityClass c;
    c.name = std::move(name);
    c.category = category;
    c.motion = motion;
    c.hasSize = true;
    c.mins = mins;
    c.maxs = maxs;
    c.colour = categoryColour(category);
    return c;
}

EntityClass unsized(std::string name, EntityCategory category) {
    EntityClass c;
    c.name = std::move(name);
    c.category = category;
    c.colour = categoryColour(category);
    return c;
}

} // namespace

const char* categoryName(EntityCategory category) {
    switch (category) {
    case EntityCategory::PlayerStart: return "player starts";
    case EntityCategory::Monster: return "monsters";
    case EntityCategory::Item: return "items and weapons";
    case EntityCategory::Light: return "lights";
    case EntityCategory::Other: return "other entities";
    }
    return "other entities";
}

uint32_t categoryColour(EntityCategory category) {
    switch (category) {
    // Apart from every other colour the views give a meaning to (render/palette.h).
    case EntityCategory::PlayerStart: return 0x05b42dffu; // green
    case EntityCategory::Monster: return 0xe19100ffu;     // orange (red is kept for problems)
    case EntityCategory::Item: return 0x0fa0e1ffu;        // blue
    case EntityCategory::Light: return 0xf0f000ffu;       // yellow
    case EntityCategory::Other: return 0xe191f0ffu;       // pink
    }
    return 0xffffffffu;
}

// Sizes from Quake's game code (id1 progs: the setsize calls of each spawn function).
EntityClassTable EntityClassTable::quake() {
    using C = EntityCategory;
    using M = EntityMotion;
    EntityClassTable t;
    const Vec3 playerMins(-16, -16, -24), playerMaxs(16, 16, 32);
    for (const char* n : {"info_player_start", "info_player_deathmatch", "info_player_coop", "info_player_start2"})
        t.add(sized(n, C::PlayerStart, M::None, playerMins, playerMaxs));

    const Vec3 monsterMins(-16, -16, -24), monsterMaxs(16, 16, 40);
    for (const char* n : {"monster_army", "monster_knight", "monster_hell_knight", "monster_zombie", "monster_enforcer",
                          "monster_tarbaby"})
        t.add(sized(n, C::Monster, M::Walk, monsterMins, monsterMaxs));
    t.add(sized("monster_wizard", C::Monster, M::Fly, monsterMins, monsterMaxs));
    const Vec3 largeMins(-32, -32, -24), largeMaxs(32, 32, 64);
    for (const char* n : {"monster_ogre", "monster_ogre_marksman", "monster_demon1", "monster_shambler"})
        t.add(sized(n, C::Monster, M::Walk, largeMins, largeMaxs));
    t.add(sized("monster_dog", C::Monster, M::Walk, largeMins, Vec3(32, 32, 40)));
    t.add(sized("monster_shalrath", C::Monster, M::Walk, largeMins, Vec3(32, 32, 48)));
    t.add(sized("monster_fish", C::Monster, M::Swim, Vec3(-16, -16, -24), Vec3(16, 16, 24)));
    // The two bosses stand where they are placed: no walk, no drop, no check in the game.
    t.add(sized("monster_boss", C::Monster, M::None, Vec3(-128, -128, -24), Vec3(128, 128, 256)));
    t.add(sized("monster_oldone", C::Monster, M::None, Vec3(-160, -128, -24), Vec3(160, 128, 256)));

    // Items: health and ammo 0 0 0 .. 32 32 56; armor and weapons -16 -16 0 .. 16 16 56;
    // keys, the sigil and the artifacts -16 -16 -24 .. 16 16 32 (items.qc, weapons.qc).
    for (const char* n : {"item_shells", "item_spikes", "item_rockets", "item_cells", "item_health", "item_weapon"})
        t.add(sized(n, C::Item, M::None, Vec3(0, 0, 0), Vec3(32, 32, 56)));
    for (const char* n : {"item_armor1", "item_armor2", "item_armorInv", "weapon_supershotgun", "weapon_nailgun",
                          "weapon_supernailgun", "weapon_grenadelauncher", "weapon_rocketlauncher", "weapon_lightning"})
        t.add(sized(n, C::Item, M::None, Vec3(-16, -16, 0), Vec3(16, 16, 56)));
    for (const char* n : {"item_key1", "item_key2", "item_sigil", "item_artifact_invulnerability",
                          "item_artifact_envirosuit", "item_artifact_invisibility", "item_artifact_super_damage"})
        t.add(sized(n, C::Item, M::None, Vec3(-16, -16, -24), Vec3(16, 16, 32)));

    for (const char* n : {"light", "light_fluoro", "light_fluorospark", "light_globe", "light_torch_small_walltorch",
                          "light_flame_large_yellow", "light_flame_small_yellow", "light_flame_small_white"})
        t.add(unsized(n, C::Light));

    t.add(sized("misc_explobox", C::Other, M::None, Vec3(0, 0, 0), Vec3(32, 32, 64)));
    t.add(sized("misc_explobox2", C::Other, M::None, Vec3(0, 0, 0), Vec3(32, 32, 32)));
    for (const char* n :
         {"info_null", "info_notnull", "info_intermission", "info_teleport_destination", "path_corner",
          "ambient_suck_wind", "ambient_drone", "ambient_flouro_buzz", "ambient_drip", "ambient_comp_hum",
          "ambient_thunder", "ambient_light_buzz", "ambient_swamp1", "ambient_swamp2", "misc_fireball",
          "misc_noisemaker", "air_bubbles", "event_lightning", "trap_spikeshooter", "trap_shooter", "viewthing"})
        t.add(unsized(n, C::Other));
    return t;
}

const EntityClass* EntityClassTable::find(std::string_view classname) const {
    const auto it = byLowerName_.find(lowerCase(classname));
    return it == byLowerName_.end() ? nullptr : &classes_[it->second];
}

void EntityClassTable::add(EntityClass cls) {
    const auto [it, added] = byLowerName_.emplace(lowerCase(cls.name), classes_.size());
    if (added) classes_.push_back(std::move(cls));
    else classes_[it->second] = std::move(cls);
}

void EntityClassTable::merge(const EntityClassTable& other) {
    for (EntityClass cls : other.classes_) {
        if (const EntityClass* known = find(cls.name); known && !cls.hasSize) {
            cls.hasSize = known->hasSize;
            cls.mins = known->mins;
            cls.maxs = known->maxs;
            cls.category = known->category;
            cls.motion = known->motion;
        } else if (known && known->category == EntityCategory::Monster && cls.category == EntityCategory::Monster) {
            cls.motion = known->motion; // a .fgd cannot say how a monster moves (monster_wizard flies)
        }
        add(std::move(cls));
    }
}

EntityClass classOf(const EntityClassTable& table, std::string_view classname) {
    if (const EntityClass* c = table.find(classname)) return *c;
    EntityCategory category = EntityCategory::Other;
    if (startsWithIgnoringCase(classname, "info_player_")) category = EntityCategory::PlayerStart;
    else if (startsWithIgnoringCase(classname, "monster_")) category = EntityCategory::Monster;
    else if (startsWithIgnoringCase(classname, "item_") || startsWithIgnoringCase(classname, "weapon_"))
        category = EntityCategory::Item;
    else if (startsWithIgnoringCase(classname, "light")) category = EntityCategory::Light;
    EntityClass c = unsized(std::string(classname), category);
    return c;
}

int quakeHullForSize(const Vec3& mins, const Vec3& maxs) {
    const double width = maxs.x() - mins.x();
    if (width < 3) return 0;
    if (width <= 32) return 1;
    return 2;
}

Aabb quakeHullBox(int hull) {
    if (hull == 1) return {Vec3(-16, -16, -24), Vec3(16, 16, 32)};
    if (hull == 2) return {Vec3(-32, -32, -24), Vec3(32, 32, 64)};
    return {Vec3::Zero(), Vec3::Zero()};
}

Aabb entityHullBox(const EntityClass& cls, const Vec3& origin) {
    const Aabb hull = quakeHullBox(quakeHullForSize(cls.mins, cls.maxs));
    const Vec3 corner = origin + cls.mins;
    return {corner, corner + (hull.maxs - hull.mins)};
}

std::optional<Vec3> parseEntityVector(std::string_view text) {
    Vec3 v;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 3; ++i) {
        while (p < end && (*p == ' ' || *p == '\t')) ++p;
        if (p + 1 < end && *p == '+' && p[1] != '-') ++p; // from_chars does not take '+'
        const auto [next, ec] = std::from_chars(p, end, v[i]);
        if (ec != std::errc() || !std::isfinite(v[i])) return std::nullopt;
        p = next;
    }
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p != end) return std::nullopt;
    return v;
}

std::string formatEntityVector(const Vec3& v) {
    std::string out;
    for (int i = 0; i < 3; ++i) {
        if (i) out += ' ';
        appendNumber(out, v[i]);
    }
    return out;
}

} // namespace shallot

#pragma once
// What the editor and the spawn checks know about an entity class: its category, how its
// monsters move, its size (Quake's, from the game code, or a .fgd's), and a colour.
#include "geometry/aabb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace shallot {

// The groups the views colour and hide together.
enum class EntityCategory : uint8_t { PlayerStart, Monster, Item, Light, Other };
inline constexpr int kEntityCategoryCount = 5;
const char* categoryName(EntityCategory category); // "player starts", "monsters", ...

// How a monster gets about: which spawn checks apply (see check/spawn_checks.h).
enum class EntityMotion : uint8_t { None, Walk, Fly, Swim };

struct EntityClass {
    std::string name;                 // classname, as in the .map (compared ignoring case)
    EntityCategory category = EntityCategory::Other;
    EntityMotion motion = EntityMotion::None;
    bool hasSize = false;             // mins/maxs come from the game or a .fgd
    Vec3 mins = Vec3::Constant(-8);   // relative to the entity's origin
    Vec3 maxs = Vec3::Constant(8);
    uint32_t colour = 0xffffffffu;    // RGBA
    bool solidClass = false;          // a brush entity (.fgd @SolidClass)
    std::string description;
};

// Classes by name; later additions replace earlier ones of the same name.
class EntityClassTable {
public:
    // Quake's point classes (player starts, monsters, items, weapons, lights, the rest).
    static EntityClassTable quake();

    const std::vector<EntityClass>& classes() const { return classes_; }
    const EntityClass* find(std::string_view classname) const; // case-insensitive
    void add(EntityClass cls);
    // Adds every class of `other` (a loaded .fgd): its sizes and colours win. A class
    // `other` names without a size keeps this table's size, category and motion; a monster
    // it names with a size keeps this table's motion.
    void merge(const EntityClassTable& other);

private:
    std::vector<EntityClass> classes_;
    std::unordered_map<std::string, size_t> byLowerName_; // into classes_: levels hold 100,000 entities
};

// The class of `classname`, or a stand-in for an unknown one: category guessed from the
// name's prefix (info_player_ start, monster_, item_/weapon_, light), no size (16 units).
EntityClass classOf(const EntityClassTable& table, std::string_view classname);

// Default colours per category (RGBA).
uint32_t categoryColour(EntityCategory category);

// Quake's collision hulls: 0 the point, 1 the player's, 2 the large monsters'.
inline constexpr int kQuakeHullCount = 3;
// The hull an entity of size [mins, maxs] moves with (Quake's SV_HullForEntity): width
// under 3 the point, up to 32 hull 1, otherwise hull 2.
int quakeHullForSize(const Vec3& mins, const Vec3& maxs);
// The hull's box relative to its reference point: hull 1 -16 -16 -24 .. 16 16 32,
// hull 2 -32 -32 -24 .. 32 32 64, hull 0 a point.
Aabb quakeHullBox(int hull);
// Where Quake tests an entity against the world: the hull's box placed at origin + mins
// (the engine offsets the hull so that its corner meets the entity's mins corner).
Aabb entityHullBox(const EntityClass& cls, const Vec3& origin);

// "x y z" with three finite numbers and nothing else (an entity's "origin").
std::optional<Vec3> parseEntityVector(std::string_view text);
// The inverse: "x y z", integers without a decimal point, others with the digits that read
// back to the same double.
std::string formatEntityVector(const Vec3& v);

} // namespace shallot

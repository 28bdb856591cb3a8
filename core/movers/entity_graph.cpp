#include "movers/entity_graph.h"

#include "movers/brush_bounds.h"
#include "movers/mover_motion.h"

#include <algorithm>
#include <array>

namespace shallot {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

// The keys that name other entities, per game; "fires" says whether firing uses them.
struct TargetKey {
    const char* key;
    bool fires;
};
constexpr std::array kQuakeKeys{TargetKey{"target", true}, TargetKey{"killtarget", false}};
constexpr std::array kQuake2Keys{TargetKey{"target", true}, TargetKey{"killtarget", false},
                                 TargetKey{"pathtarget", true}, TargetKey{"deathtarget", true},
                                 TargetKey{"combattarget", false}};

// A Half-Life multi_manager's keys besides these name the targets it fires (a "#N" suffix
// tells repeated names apart).
constexpr std::array kMultiManagerOwnKeys{"classname", "targetname", "origin", "spawnflags", "angles", "angle", "wait"};

bool isMultiManagerTarget(const std::string& key) {
    return std::none_of(kMultiManagerOwnKeys.begin(), kMultiManagerOwnKeys.end(),
                        [&](const char* own) { return key == own; });
}

// The targets entity `index` refers to, in key order.
void addTargets(const MapFile& map, int index, const TargetnameIndex& names, std::vector<EntityTarget>& out) {
    const MapEntity& entity = map.entities[size_t(index)];
    auto add = [&](std::string key, const std::string& name, bool fires) {
        if (name.empty()) return;
        EntityTarget t;
        t.entity = index;
        t.key = std::move(key);
        t.name = name;
        t.fires = fires;
        if (const auto it = names.find(name); it != names.end()) t.named = it->second;
        out.push_back(std::move(t));
    };
    if (map.game == Game::HalfLife && lower(entity.classname()) == "multi_manager") {
        for (const auto& [key, value] : entity.keys)
            if (isMultiManagerTarget(key)) add(key, key.substr(0, key.find('#')), true);
        return;
    }
    const bool quake2 = map.game == Game::Quake2 || map.game == Game::Quake3;
    // A path_corner's target is the next corner of a path, not something it fires.
    const bool pathCorner = lower(entity.classname()) == "path_corner";
    auto addKeys = [&](const auto& keys) {
        for (const TargetKey& k : keys)
            if (const std::string* v = entity.value(k.key)) add(k.key, *v, k.fires && !(pathCorner && k.key == std::string_view("target")));
    };
    if (quake2) addKeys(kQuake2Keys);
    else addKeys(kQuakeKeys);
}

TriggerKind triggerKindOf(const std::string& cls) {
    if (cls == "trigger_multiple" || cls == "trigger_secret") return TriggerKind::Multiple;
    if (cls == "trigger_once") return TriggerKind::Once;
    if (cls == "trigger_relay") return TriggerKind::Relay;
    if (cls == "trigger_counter") return TriggerKind::Counter;
    if (cls == "trigger_key") return TriggerKind::Key;
    if (cls == "func_button") return TriggerKind::Button;
    return TriggerKind::Other;
}

// Quake 2's misc_teleporter makes its own trigger: this box about its origin (SP_misc_teleporter).
constexpr double kQuake2PadHalfWidth = 8.0, kQuake2PadBottom = 8.0, kQuake2PadTop = 24.0;

KeyKind quakeKeyOf(const std::string& cls) {
    if (cls == "item_key1") return KeyKind::Silver;
    if (cls == "item_key2") return KeyKind::Gold;
    return KeyKind::None;
}

} // namespace

const char* triggerKindName(TriggerKind kind) {
    switch (kind) {
    case TriggerKind::Multiple: return "multiple";
    case TriggerKind::Once: return "once";
    case TriggerKind::Relay: return "relay";
    case TriggerKind::Counter: return "counter";
    case TriggerKind::Key: return "key";
    case TriggerKind::Button: return "button";
    case TriggerKind::Other: return "other";
    }
    return "other";
}

const std::vector<int>& EntityGraph::entitiesNamed(const std::string& name) const {
    static const std::vector<int> kNone;
    if (name.empty()) return kNone;
    const auto it = named.find(name);
    return it == named.end() ? kNone : it->second;
}

std::vector<int> EntityGraph::targetsNaming(int entity) const {
    std::vector<int> out;
    for (size_t i = 0; i < targets.size(); ++i)
        if (std::find(targets[i].named.begin(), targets[i].named.end(), entity) != targets[i].named.end())
            out.push_back(int(i));
    return out;
}

std::vector<int> EntityGraph::firedFrom(int entity) const {
    if (entity < 0 || size_t(entity) >= firesOf.size()) return {};
    std::vector<bool> seen(firesOf.size(), false);
    std::vector<int> fired, todo = firesOf[size_t(entity)];
    while (!todo.empty()) {
        const int e = todo.back();
        todo.pop_back();
        if (seen[size_t(e)]) continue;
        seen[size_t(e)] = true;
        fired.push_back(e);
        todo.insert(todo.end(), firesOf[size_t(e)].begin(), firesOf[size_t(e)].end());
    }
    std::sort(fired.begin(), fired.end());
    return fired;
}

bool EntityGraph::givesKey(KeyKind kind) const {
    return std::any_of(keys.begin(), keys.end(), [&](const KeyItem& k) { return k.kind == kind; });
}

bool EntityGraph::givesItem(const std::string& classname) const {
    const std::string wanted = lower(classname);
    return std::any_of(keys.begin(), keys.end(), [&](const KeyItem& k) { return lower(k.classname) == wanted; });
}

EntityGraph buildEntityGraph(const MapFile& map) {
    EntityGraph graph;
    graph.named = indexTargetnames(map);
    graph.firesOf.resize(map.entities.size());
    const bool quake2 = map.game == Game::Quake2 || map.game == Game::Quake3;
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& entity = map.entities[i];
        const int index = int(i);
        const std::string cls = lower(entity.classname());
        const size_t firstTarget = graph.targets.size();
        addTargets(map, index, graph.named, graph.targets);

        const bool teleporter = cls == "trigger_teleport" || (quake2 && cls == "misc_teleporter");
        if (teleporter) {
            Teleport t;
            t.entity = index;
            t.bounds = brushesBounds(entity.brushes);
            if (t.bounds.empty() && cls == "misc_teleporter")
                if (const std::optional<Vec3> o = entity.origin())
                    t.bounds = {*o + Vec3(-kQuake2PadHalfWidth, -kQuake2PadHalfWidth, kQuake2PadBottom),
                                *o + Vec3(kQuake2PadHalfWidth, kQuake2PadHalfWidth, kQuake2PadTop)};
            const std::string* target = entity.value("target");
            for (const int d : graph.entitiesNamed(target ? *target : std::string())) {
                if (const std::optional<Vec3> o = map.entities[size_t(d)].origin()) {
                    t.destination = d;
                    t.destinationOrigin = *o;
                }
                break; // the first named, as find() takes it
            }
            t.needsFiring = map.game == Game::Quake && entity.value("targetname") != nullptr;
            switch (map.game) {
            case Game::Quake: t.arrivalLift = kQuakeTeleportArrivalLift; break;
            case Game::Quake2: t.arrivalLift = kQuake2TeleportArrivalLift; break;
            case Game::Quake3: t.arrivalLift = kQuake3TeleportArrivalLift; break;
            case Game::HalfLife: t.arrivalLift = kHalfLifeTeleportArrivalLift; break;
            }
            graph.teleports.push_back(t);
        }

        std::vector<int> fires;
        for (size_t k = firstTarget; k < graph.targets.size(); ++k)
            if (graph.targets[k].fires) fires.insert(fires.end(), graph.targets[k].named.begin(), graph.targets[k].named.end());
        std::sort(fires.begin(), fires.end());
        fires.erase(std::unique(fires.begin(), fires.end()), fires.end());
        graph.firesOf[i] = fires;
        if (!fires.empty() || cls == "trigger_key" || cls.starts_with("trigger_multiple") || cls == "trigger_once" ||
            cls == "func_button") {
            EntityTrigger trigger;
            trigger.entity = index;
            trigger.kind = triggerKindOf(cls);
            trigger.classname = entity.classname();
            trigger.bounds = brushesBounds(entity.brushes);
            if (trigger.kind == TriggerKind::Key)
                if (const std::string* item = entity.value("item")) trigger.item = *item;
            trigger.fires = std::move(fires);
            graph.triggers.push_back(std::move(trigger));
        }

        const KeyKind key = map.game == Game::Quake ? quakeKeyOf(cls) : KeyKind::None;
        if (key != KeyKind::None || (quake2 && cls.starts_with("key_")))
            graph.keys.push_back({index, entity.classname(), key, entity.origin().value_or(Vec3::Zero())});
    }
    return graph;
}

} // namespace shallot

// Linked doors: which movers move as one group (Mover::master).
#include "movers/mover_motion.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace shallot {
namespace {

constexpr int kQuakeDontLink = 4; // DOOR_DONT_LINK

// Union-find over mover indices whose root is always the smallest index (the group's
// first mover in file order).
struct Groups {
    std::vector<int> parent;
    explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    int root(int i) {
        while (parent[size_t(i)] != i) i = parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
        return i;
    }
    void join(int a, int b) {
        a = root(a);
        b = root(b);
        if (a != b) parent[size_t(std::max(a, b))] = std::min(a, b);
    }
};

// Quake's LinkDoors: func_doors without DONT_LINK whose boxes touch (closed intervals, as
// EntitiesTouching compares them) are one door. A sweep over the boxes sorted by their
// lowest x compares only boxes whose x ranges meet.
void linkTouchingDoors(const LevelMovers& level, Groups& groups) {
    std::vector<int> doors;
    for (size_t i = 0; i < level.movers.size(); ++i) {
        const Mover& m = level.movers[i];
        if (m.kind == MoverKind::Door && (m.spawnflags & kQuakeDontLink) == 0 && !m.bounds.empty())
            doors.push_back(int(i));
    }
    std::sort(doors.begin(), doors.end(), [&](int a, int b) {
        return level.movers[size_t(a)].bounds.mins.x() < level.movers[size_t(b)].bounds.mins.x();
    });
    for (size_t i = 0; i < doors.size(); ++i) {
        const Aabb& a = level.movers[size_t(doors[i])].bounds;
        for (size_t j = i + 1; j < doors.size(); ++j) {
            const Aabb& b = level.movers[size_t(doors[j])].bounds;
            if (b.mins.x() > a.maxs.x()) break;
            if (a.overlaps(b)) groups.join(doors[i], doors[j]);
        }
    }
}

// Quake 2's and Quake 3's G_FindTeams: movers with the same "team" move together.
void linkTeams(const LevelMovers& level, const MapFile& map, Groups& groups) {
    std::unordered_map<std::string, int> firstOfTeam;
    for (size_t i = 0; i < level.movers.size(); ++i) {
        const std::string* team = map.entities[size_t(level.movers[i].entity)].value("team");
        if (!team || team->empty()) continue;
        const auto [it, added] = firstOfTeam.emplace(*team, int(i));
        if (!added) groups.join(it->second, int(i));
    }
}

} // namespace

void linkDoors(LevelMovers& level, const MapFile& map) {
    Groups groups(level.movers.size());
    switch (map.game) {
    case Game::Quake: linkTouchingDoors(level, groups); break;
    case Game::Quake2:
    case Game::Quake3: linkTeams(level, map, groups); break;
    case Game::HalfLife: break; // doors named alike are fired together; none link by touch
    }
    for (size_t i = 0; i < level.movers.size(); ++i) level.movers[i].master = groups.root(int(i));
}

} // namespace shallot

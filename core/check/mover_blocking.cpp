// blocked: monsters, items and player starts in a mover's swept volume.
#include "check/box_overlap_grid.h"
#include "check/mover_check_parts.h"
#include "check/swept_brush_box.h"
#include "world/world.h"

#include <algorithm>
#include <map>

namespace shallot {
namespace {

// An entity that a mover can run into.
struct Placed {
    int entity = -1;
    std::string classname;
    int line = 0;
    Vec3 origin = Vec3::Zero();
    Aabb box; // the class's box at its origin
};

std::vector<Placed> placedEntities(const MapFile& map, const EntityClassTable& classes) {
    std::vector<Placed> placed;
    for (size_t i = 0; i < map.entities.size(); ++i) {
        const MapEntity& e = map.entities[i];
        if (!e.brushes.empty()) continue;
        const std::optional<Vec3> origin = e.origin();
        if (!origin) continue; // bad_origin is the spawn checks' to report
        const EntityClass cls = classOf(classes, e.classname());
        const bool kind = cls.category == EntityCategory::Monster || cls.category == EntityCategory::Item ||
                          cls.category == EntityCategory::PlayerStart;
        if (!kind || !cls.hasSize) continue;
        placed.push_back({int(i), e.classname(), e.line, *origin, {*origin + cls.mins, *origin + cls.maxs}});
    }
    return placed;
}

// The contents a mover's brush pushes with: its hulls are built from solid and clip brushes.
constexpr BrushContents kPushing = BrushContents::Solid | BrushContents::Window | BrushContents::Clip |
                                   BrushContents::PlayerClip | BrushContents::MonsterClip;

// One straight move of a mover between two stops: the box it sweeps, and the top of its
// lower end (an entity at or above that top rides it up, or stays as it goes down).
struct Sweep {
    Vec3 from, to;
    Aabb box;
    double lowerTop = 0.0;
};

Aabb sweptBox(const Aabb& bounds, const Vec3& from, const Vec3& to) {
    Aabb box{bounds.mins + from, bounds.maxs + from};
    box.add(Aabb{bounds.mins + to, bounds.maxs + to});
    return box;
}

std::vector<Sweep> sweepsOf(const Mover& m) {
    std::vector<Sweep> sweeps;
    const std::vector<Vec3>& stops = m.motion.stops;
    auto add = [&](const Vec3& a, const Vec3& b) {
        if (a == b || !a.allFinite() || !b.allFinite()) return;
        sweeps.push_back({a, b, sweptBox(m.bounds, a, b), m.bounds.maxs.z() + std::min(a.z(), b.z())});
    };
    for (size_t i = 1; i < stops.size(); ++i) add(stops[i - 1], stops[i]);
    if (m.motion.loopsTo >= 0 && size_t(m.motion.loopsTo) < stops.size()) add(stops.back(), stops[size_t(m.motion.loopsTo)]);
    return sweeps;
}

// The mover's pushing brushes' geometry (brushes that make no solid are left out).
std::vector<BrushGeometry> pushingBrushes(const Mover& m) {
    std::vector<BrushGeometry> out;
    for (const Brush& b : m.brushes) {
        if (!intersects(b.contents, kPushing)) continue;
        if (BrushGeometryResult built = buildBrushGeometry(b, defaultWorldBounds()); built.geometry)
            out.push_back(std::move(*built.geometry));
    }
    return out;
}

bool sweepHits(const std::vector<BrushGeometry>& brushes, const Sweep& s, const Aabb& box) {
    for (const BrushGeometry& g : brushes) {
        if (!boxesOverlap(sweptBox(g.bounds, s.from, s.to), box, kSpawnContactTolerance)) continue;
        if (sweptBrushOverlapsBox(g, s.from, s.to, box, kSpawnContactTolerance)) return true;
    }
    return false;
}

// "secret door" for secret_door: the kind's name read as words.
std::string kindWords(MoverKind kind) {
    std::string words = moverKindName(kind);
    std::replace(words.begin(), words.end(), '_', ' ');
    return words;
}

} // namespace

void findBlocked(const MoverCheckInput& input, const EntityClassTable& classes, std::vector<SpawnProblem>& out) {
    std::vector<Placed> placed = placedEntities(*input.map, classes);
    if (placed.empty()) return;
    // Entities by their lowest x: each sweep looks only at those whose x range can meet it.
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.box.mins.x() < b.box.mins.x(); });
    double widest = 0.0;
    for (const Placed& p : placed) widest = std::max(widest, p.box.maxs.x() - p.box.mins.x());
    std::map<size_t, std::vector<int>> moversInTheWay; // placed index -> mover indices (ascending)
    const std::vector<Mover>& movers = input.movers->movers;
    for (size_t mi = 0; mi < movers.size(); ++mi) {
        const Mover& m = movers[mi];
        if (m.kind == MoverKind::Static || m.bounds.empty()) continue;
        const std::vector<Sweep> sweeps = sweepsOf(m);
        if (sweeps.empty()) continue;
        const std::vector<BrushGeometry> brushes = pushingBrushes(m);
        for (const Sweep& s : sweeps) {
            const auto first = std::lower_bound(placed.begin(), placed.end(), s.box.mins.x() - widest,
                                                [](const Placed& p, double x) { return p.box.mins.x() < x; });
            for (auto it = first; it != placed.end() && it->box.mins.x() <= s.box.maxs.x(); ++it) {
                if (!boxesOverlap(it->box, s.box, kSpawnContactTolerance)) continue;
                if (it->box.mins.z() >= s.lowerTop - kSpawnContactTolerance) continue; // rides or is left
                if (!sweepHits(brushes, s, it->box)) continue;
                std::vector<int>& list = moversInTheWay[size_t(it - placed.begin())];
                if (list.empty() || list.back() != int(mi)) list.push_back(int(mi));
            }
        }
    }
    for (const auto& [index, list] : moversInTheWay) {
        const Placed& e = placed[index];
        SpawnProblem p;
        p.kind = SpawnProblemKind::Blocked;
        p.entity = e.entity;
        p.classname = e.classname;
        p.origin = e.origin;
        p.box = e.box;
        for (const int mi : list) p.entities.push_back(movers[size_t(mi)].entity);
        const Mover& first = movers[size_t(list.front())];
        p.message = describeSpawnEntity(e.classname, e.entity, e.line) + " is in the way of " + describeMover(first) +
                    (list.size() > 1 ? " and " + std::to_string(list.size() - 1) + " more movers" : "") +
                    ": the " + kindWords(first.kind) + " stops on it or crushes it";
        out.push_back(std::move(p));
    }
}

} // namespace shallot

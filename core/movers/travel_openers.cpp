// What the agent fires by standing somewhere (movers/travel.h): triggers and buttons it
// touches, door touch fields, key doors with their key; and the keys it picks up.
#include "movers/travel.h"

#include <algorithm>
#include <map>

namespace shallot {

namespace {

// A key item is looked for on the floor below its origin, and from this far above it too
// when the origin is in solid (an item sunk into the floor).
constexpr double kItemLift = 24.0;

Aabb touchBox(const Aabb& bounds, const Pose& pose, double reach) {
    const Vec3 r = Vec3::Constant(reach);
    return {bounds.mins - pose.maxs - r, bounds.maxs - pose.mins + r};
}

void addFired(const EntityGraph& g, int entity, std::vector<int>& fires) {
    fires.push_back(entity);
    for (const int e : g.firedFrom(entity)) fires.push_back(e);
}

void finish(std::vector<int>& fires) {
    std::sort(fires.begin(), fires.end());
    fires.erase(std::unique(fires.begin(), fires.end()), fires.end());
}

// Whether the opener is already touched from the polygon.
bool touchedFrom(const TravelOpener& o, int32_t polygon) {
    return std::find(o.polygons.begin(), o.polygons.end(), polygon) != o.polygons.end();
}

// The opener is also touched standing on a mover's top whose standing box meets its box:
// from the floors beside that top.
void addMoverFloors(const TravelGraph& graph, const Aabb& box, TravelOpener& o) {
    for (const TravelFloor& f : graph.floors)
        if (f.standing.overlaps(box))
            for (size_t i = 0; i < f.polygons.size(); ++i)
                if (!touchedFrom(o, f.polygons[i])) {
                    o.polygons.push_back(f.polygons[i]);
                    o.points.push_back(f.points[i]);
                }
}

// The opener is also touched in the air, by a push's flight that passes through its box:
// from the flight's takeoff (standing in a trigger_push, the box is carried off; id_e3m5's
// wind tunnels fire the triggers that fill their shafts).
void addFlights(const TravelGraph& graph, const BspTree& tree, const Aabb& box, TravelOpener& o) {
    for (const TravelLink& l : graph.links) {
        if (l.kind != TravelKind::Push || touchedFrom(o, l.from) ||
            std::none_of(l.flight.begin(), l.flight.end(), [&](const Aabb& part) { return part.overlaps(box); }))
            continue;
        // A floor point of the takeoff's polygon (a box that jumps into the push takes off
        // above it).
        const Landing floor = dropToFloor(tree, *graph.mesh, l.start);
        o.polygons.push_back(l.from);
        o.points.push_back(floor.polygon == l.from ? floor.point : l.start);
    }
}

// The opener is also touched on the way down a drop or through a jump that passes through
// its box, from the takeoff (id_e3m5's trigger_once 407 and 409: slabs across the air tube
// 500 units under the ledge the player drops from). A drop falls along its takeoff to
// landing; a jump rises by the jump height first, as the mesh's links are tested
// (nav/nav_mesh.h). Links through a closed door are left to the door.
void addFalls(const TravelGraph& graph, const Aabb& box, TravelOpener& o) {
    const NavMesh& mesh = *graph.mesh;
    for (size_t k = 0; k < mesh.links.size(); ++k) {
        const NavLink& l = mesh.links[k];
        if ((l.kind != NavLinkKind::Drop && l.kind != NavLinkKind::Jump) || graph.gateOfLink[k] >= 0 || touchedFrom(o, l.from))
            continue;
        bool meets = false;
        if (l.kind == NavLinkKind::Drop) {
            meets = segmentMeetsBox(l.start, l.end, box);
        } else {
            const Vec3 top = l.start + Vec3::UnitZ() * mesh.settings.jumpHeight;
            const Vec3 over(l.end.x(), l.end.y(), top.z());
            meets = segmentMeetsBox(l.start, top, box) || segmentMeetsBox(top, over, box) || segmentMeetsBox(over, l.end, box);
        }
        if (!meets) continue;
        o.polygons.push_back(l.from);
        o.points.push_back(l.start);
    }
}

} // namespace

void addOpeners(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level) {
    const NavMesh& mesh = *graph.mesh;
    const EntityGraph& g = level.graph;
    for (const EntityTrigger& t : g.triggers) {
        const bool touched = t.kind == TriggerKind::Multiple || t.kind == TriggerKind::Once || t.kind == TriggerKind::Button ||
                             (t.kind == TriggerKind::Key && g.givesItem(t.item));
        if (!touched || t.bounds.empty()) continue;
        TravelOpener o;
        o.entity = t.entity;
        o.fires = g.firedFrom(t.entity);
        o.shot = size_t(t.entity) < level.shootable.size() && level.shootable[size_t(t.entity)];
        const Aabb box = touchBox(t.bounds, pose, kTouchReach);
        polygonsTouching(mesh, box, o.polygons, o.points);
        addMoverFloors(graph, box, o);
        addFlights(graph, tree, box, o);
        addFalls(graph, box, o);
        graph.openers.push_back(std::move(o));
    }
    // Door groups: their touch field (every member has the group's), or a key door itself.
    std::map<int, TravelOpener> doors;
    for (size_t i = 0; i < level.movers.movers.size(); ++i) {
        const Mover& m = level.movers.movers[i];
        if (m.kind != MoverKind::Door) continue;
        if (m.touchBounds.empty() && m.key == KeyKind::None) continue;
        auto [it, added] = doors.try_emplace(m.master);
        TravelOpener& o = it->second;
        if (added) {
            o.entity = m.entity;
            o.key = m.key;
            const Aabb box = m.key != KeyKind::None ? touchBox(m.boundsAt(m.spawn), pose, kTouchReach) : touchBox(m.touchBounds, pose, 0.0);
            polygonsTouching(mesh, box, o.polygons, o.points);
            addMoverFloors(graph, box, o);
        }
        addFired(g, m.entity, o.fires);
    }
    for (auto& [master, o] : doors) {
        finish(o.fires);
        graph.openers.push_back(std::move(o));
    }
    for (const KeyItem& k : g.keys) {
        TravelKey key{k.kind, k.entity, -1, Vec3::Zero()};
        for (const double lift : {0.0, kItemLift}) {
            const Landing l = dropToFloor(tree, mesh, k.origin + Vec3::UnitZ() * lift);
            if (l.polygon >= 0) {
                key.polygon = l.polygon;
                key.point = l.point;
                break;
            }
        }
        graph.keys.push_back(key);
    }
}

} // namespace shallot

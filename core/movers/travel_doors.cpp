// Closed doors as gates over the mesh links inside their closed volume (movers/travel.h).
#include "movers/travel.h"

#include "geometry/polygon.h"
#include "nav/cut_at_boxes.h"

#include <algorithm>
#include <map>

namespace shallot {

namespace {

// A door's closed volume is shrunk by this on every side before links are tested against
// it: a link that only touches the door's face (the floor in front of it) is not closed.
constexpr double kGateInset = 0.5;
// Quake's func_door_secret may be shot when it has no targetname or SECRET_YES_SHOOT.
constexpr int kSecretYesShoot = 16;
// A door's START_OPEN spawnflag (Quake, Quake 2, Half-Life): it rests open, firing shuts it.
constexpr int kDoorStartOpen = 1;

// Whether a mesh link crosses the box: a walk when its shared edge lies inside it (an edge
// partly outside is walked across beside the door), another link when its flight does.
bool linkInside(const NavLink& l, const Aabb& box) {
    if (l.kind == NavLinkKind::Walk) return box.contains(l.start) && box.contains(l.end);
    return segmentMeetsBox(l.start, l.end, box);
}

} // namespace

void addDoorGates(TravelGraph& graph, const NavMesh& uncut, const Pose& pose, const TravelLevel& level) {
    std::map<int, DoorGate> byMaster;
    const std::vector<Mover>& movers = level.movers.movers;
    for (size_t i = 0; i < movers.size(); ++i) {
        const Mover& m = movers[i];
        if (m.kind != MoverKind::Door && m.kind != MoverKind::SecretDoor) continue;
        DoorGate& gate = byMaster[m.master];
        gate.entities.push_back(m.entity);
        const Aabb at = m.boundsAt(m.spawn);
        if (at.empty()) continue;
        const Vec3 inset = Vec3::Constant(kGateInset);
        gate.boxes.push_back({at.mins - pose.maxs + inset, at.maxs - pose.mins - inset});
        const MoverState other = m.spawn == MoverState::open() ? MoverState::closed() : MoverState::open();
        gate.seconds = std::max(gate.seconds, m.secondsBetween(m.spawn, other));
        const bool shootableSecret = m.kind == MoverKind::SecretDoor && (m.targetname.empty() || (m.spawnflags & kSecretYesShoot));
        if (m.health > 0 || shootableSecret) gate.free = true;
        if (m.kind == MoverKind::Door && (m.spawnflags & kDoorStartOpen)) gate.shut = true;
        if (!m.touchBounds.empty()) gate.touched = true;
    }
    std::vector<Aabb> boxes;
    for (auto& [master, gate] : byMaster) {
        if (gate.boxes.empty()) continue;
        boxes.insert(boxes.end(), gate.boxes.begin(), gate.boxes.end());
        graph.gates.push_back(std::move(gate));
    }
    graph.mesh = std::make_shared<const NavMesh>(cutAtBoxes(uncut, boxes));
    const NavMesh& mesh = *graph.mesh;
    graph.gateOfLink.assign(mesh.links.size(), -1);
    // A polygon inside a door's volume (cut so that it is wholly in or out): every link into
    // it is closed, as is a link whose edge or flight is inside the volume.
    std::vector<char> inside(mesh.polygons.size());
    for (size_t g = 0; g < graph.gates.size(); ++g)
        for (const Aabb& box : graph.gates[g].boxes) {
            for (size_t p = 0; p < mesh.polygons.size(); ++p) {
                const NavPolygon& polygon = mesh.polygons[p];
                const Vec3 middle = polygonCentroid(polygon.vertices);
                inside[p] = box.overlaps(polygon.bounds) && middle.x() > box.mins.x() && middle.x() < box.maxs.x() &&
                            middle.y() > box.mins.y() && middle.y() < box.maxs.y();
            }
            for (size_t k = 0; k < mesh.links.size(); ++k)
                if (inside[size_t(mesh.links[k].to)] || linkInside(mesh.links[k], box)) graph.gateOfLink[k] = int32_t(g);
        }
}

} // namespace shallot

#include "check/teleport_arrivals.h"

#include <map>
#include <sstream>

namespace shallot {

std::vector<SpawnProblem> checkTeleportArrivals(const BspTree& tree, const MapFile& map, const EntityGraph& graph,
                                                const EntityClassTable* classes) {
    std::vector<SpawnProblem> out;
    const EntityClassTable quake = classes ? EntityClassTable{} : EntityClassTable::quake();
    const EntityClass* start = (classes ? *classes : quake).find("info_player_start");
    if (!start) return out;
    const int pose = poseForHullBox(tree.poses, entityHullBox(*start, Vec3::Zero()));
    if (pose < 0) return out;
    const Pose& box = tree.poses[size_t(pose)];
    // Destination -> the teleporters that set the player down in solid there.
    std::map<int, std::vector<const Teleport*>> stuckAt;
    for (const Teleport& t : graph.teleports) {
        if (t.destination < 0) continue;
        const Vec3 arrival = t.arrival();
        if (!arrival.allFinite() || !tree.bounds.contains(arrival) || tree.isSolid(arrival, pose)) stuckAt[t.destination].push_back(&t);
    }
    for (const auto& [destination, teleporters] : stuckAt) {
        const MapEntity& d = map.entities[size_t(destination)];
        const Teleport& first = *teleporters.front();
        const Vec3 arrival = first.arrival();
        SpawnProblem p;
        p.kind = SpawnProblemKind::Stuck;
        p.entity = destination;
        p.classname = d.classname();
        p.origin = first.destinationOrigin;
        p.pose = pose;
        p.box = {arrival + box.mins, arrival + box.maxs};
        for (const Teleport* t : teleporters) p.entities.push_back(t->entity);
        const MapEntity& sender = map.entities[size_t(first.entity)];
        std::string m = describeSpawnEntity(p.classname, destination, d.line) + ": " +
                        describeSpawnEntity(sender.classname(), first.entity, sender.line);
        if (teleporters.size() > 1) m += " and " + std::to_string(teleporters.size() - 1) + " more";
        std::ostringstream lift;
        lift << first.arrivalLift;
        m += (teleporters.size() > 1 ? " set the " : " sets the ") + box.name + " down in solid here: its box at (" +
             formatEntityVector(arrival) + "), the destination raised " + lift.str() + " as the game raises it";
        p.message = std::move(m);
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace shallot

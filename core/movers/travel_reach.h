#pragma once
// Where an agent gets with typed travel (movers/travel.h), and the path there with its
// travel list.
#include "movers/travel.h"
#include "nav/nav_path.h"

#include <functional>

namespace shallot {

// Moves the agent has besides the travel graph (the player's swims, walking_reach.h):
// called per polygon reached with a function to call on each polygon it moves on to.
using TravelMoves = std::function<void(int32_t polygon, const std::function<void(int32_t)>& reach)>;

// What the agent reaches from polygon `start`: it walks the mesh's links (a closed door's
// only once the door is fired), rides the travel links whose `needs` is fired, and at each
// opener it reaches fires what the opener fires (a key door only with its key, picked up
// where the key lies); until nothing new is fired. Doors stay open once opened. Free door
// groups (DoorGate::free) and shot openers (TravelOpener::shot) fire from the start.
struct TravelReach {
    std::vector<char> reached; // per polygon
    std::vector<char> fired;   // per entity
    std::vector<int> firedBy;  // per entity: the opener that fired it first, -1 none (or free)
    // Per entity, the round of the flood after which it was fired (-1: from the start; the
    // flood of round n used what was fired before it); per KeyKind, the round it was taken.
    std::vector<int> firedRound;
    int keyRound[3] = {-1, -1, -1};
    bool holds[3] = {false, false, false}; // per KeyKind
    std::vector<int> keyTaken; // per KeyKind: the graph.keys entry picked up, -1 none
};
// With `openersAnywhere`, every opener of the level counts as fired from the start (and
// every key it gives as held): only doors and rides that nothing fires stay shut. The
// walking spawn check asks this by default (movers/travel.h gaps, such as a button reached
// only by a jump, must not make a shipped level's monsters unreachable).
TravelReach travelReach(const TravelGraph& graph, int32_t start, const TravelMoves& moves = {}, bool openersAnywhere = false);

// Whether a mesh link / travel link may be used once the entities `fired` are fired.
bool meshLinkUsable(const TravelGraph& graph, uint32_t link, const std::vector<char>& fired);
bool travelLinkUsable(const TravelGraph& graph, const TravelLink& link, const std::vector<char>& fired);

// One part of a path, from `from` to `to`, taking `seconds`; `entity`: the mover,
// teleporter or trigger it goes through (-1 for walking, stepping, dropping, jumping).
struct TravelStep {
    TravelKind kind = TravelKind::Walk;
    Vec3 from = Vec3::Zero(), to = Vec3::Zero();
    double seconds = 0.0;
    int entity = -1;
    std::vector<Vec3> via = {}; // TravelLink::via: the points between from and to
};

struct TravelPath {
    bool found = false;
    NavPathMiss miss = NavPathMiss::None;
    double length = 0.0;  // along the points
    double seconds = 0.0; // the steps' sum
    std::vector<Vec3> points;
    std::vector<TravelStep> travel; // consecutive walks joined
};

// The path for the mesh's pose from `from` to `to` (each dropped onto the floor below, as
// findPath does) with typed travel: when the goal is reached (travelReach), the quickest
// way with every door the reach opened open, and before a door or ride that waits to be
// fired, a detour to what fires it (a trigger, a button, a key) first.
TravelPath findTravelPath(const BspTree& tree, const TravelGraph& graph, const Vec3& from, const Vec3& to);

} // namespace shallot

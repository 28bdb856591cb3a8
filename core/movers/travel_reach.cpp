#include "movers/travel_reach.h"

namespace shallot {

namespace {

bool gateOpen(const TravelGraph& graph, int32_t g, const std::vector<char>& fired) {
    if (g < 0) return true;
    const DoorGate& gate = graph.gates[size_t(g)];
    if (gate.shut) return false;
    if (gate.free) return true;
    for (const int e : gate.entities)
        if (e >= 0 && size_t(e) < fired.size() && fired[size_t(e)]) return true;
    return false;
}

} // namespace

bool meshLinkUsable(const TravelGraph& graph, uint32_t link, const std::vector<char>& fired) {
    return gateOpen(graph, graph.gateOfLink[link], fired);
}

bool travelLinkUsable(const TravelGraph& graph, const TravelLink& link, const std::vector<char>& fired) {
    return (link.needs < 0 || (size_t(link.needs) < fired.size() && fired[size_t(link.needs)])) &&
           gateOpen(graph, link.gate, fired);
}

TravelReach travelReach(const TravelGraph& graph, int32_t start, const TravelMoves& moves, bool openersAnywhere) {
    const NavMesh& mesh = *graph.mesh;
    TravelReach out;
    out.fired.assign(graph.entityCount, 0);
    out.firedBy.assign(graph.entityCount, -1);
    out.firedRound.assign(graph.entityCount, -1);
    int round = -1; // -1 while firing from the start
    out.keyTaken.assign(3, -1);
    out.reached.assign(mesh.polygons.size(), 0);
    if (start < 0) return out;
    auto fire = [&](int e, int by) {
        if (e < 0 || size_t(e) >= out.fired.size() || out.fired[size_t(e)]) return false;
        out.fired[size_t(e)] = 1;
        out.firedBy[size_t(e)] = by;
        out.firedRound[size_t(e)] = round;
        return true;
    };
    for (const DoorGate& gate : graph.gates)
        if (gate.free)
            for (const int e : gate.entities) fire(e, -1);
    std::vector<char> used(graph.openers.size(), 0);
    for (size_t i = 0; i < graph.openers.size(); ++i)
        if (graph.openers[i].shot || (openersAnywhere && graph.openers[i].key == KeyKind::None)) {
            used[i] = 1;
            for (const int e : graph.openers[i].fires) fire(e, -1);
        }
    if (openersAnywhere)
        for (const TravelKey& key : graph.keys) out.holds[size_t(key.kind)] = true;
    for (size_t i = 0; i < graph.openers.size() && openersAnywhere; ++i)
        if (graph.openers[i].key != KeyKind::None && out.holds[size_t(graph.openers[i].key)]) {
            used[i] = 1;
            for (const int e : graph.openers[i].fires) fire(e, -1);
        }
    for (;;) {
        ++round;
        // Flood with what is fired now (each round starts again: a round fires at least one
        // more entity or takes one more key, so there are at most that many rounds).
        std::fill(out.reached.begin(), out.reached.end(), 0);
        std::vector<int32_t> stack{start};
        out.reached[size_t(start)] = 1;
        const std::function<void(int32_t)> reach = [&](int32_t to) {
            if (to >= 0 && !out.reached[size_t(to)]) {
                out.reached[size_t(to)] = 1;
                stack.push_back(to);
            }
        };
        while (!stack.empty()) {
            const int32_t at = stack.back();
            stack.pop_back();
            const NavPolygon& p = mesh.polygons[size_t(at)];
            for (uint32_t k = p.firstLink; k < p.firstLink + p.linkCount; ++k)
                if (meshLinkUsable(graph, k, out.fired)) reach(mesh.links[k].to);
            for (const uint32_t t : graph.linksFrom[size_t(at)])
                if (travelLinkUsable(graph, graph.links[t], out.fired)) reach(graph.links[t].to);
            if (moves) moves(at, reach);
        }
        bool changed = false;
        for (size_t k = 0; k < graph.keys.size(); ++k) {
            const TravelKey& key = graph.keys[k];
            if (key.polygon >= 0 && out.reached[size_t(key.polygon)] && !out.holds[size_t(key.kind)]) {
                out.holds[size_t(key.kind)] = true;
                out.keyTaken[size_t(key.kind)] = int(k);
                out.keyRound[size_t(key.kind)] = round;
                changed = true;
            }
        }
        for (size_t i = 0; i < graph.openers.size(); ++i) {
            const TravelOpener& o = graph.openers[i];
            if (used[i] || (o.key != KeyKind::None && !out.holds[size_t(o.key)])) continue;
            bool touched = false;
            for (const int32_t p : o.polygons) touched = touched || out.reached[size_t(p)];
            if (!touched) continue;
            used[i] = 1;
            for (const int e : o.fires) changed = fire(e, int(i)) || changed;
        }
        if (!changed) return out;
    }
}

} // namespace shallot

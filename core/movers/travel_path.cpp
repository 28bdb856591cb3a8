// Paths with typed travel (movers/travel_reach.h): the quickest chain of mesh and travel
// links under what the reach fires, detours to what fires the doors and rides it waits
// on, and each stretch of walking made a string-pulled path (nav/nav_path.h).
#include "movers/travel_reach.h"

#include "check/trigger_push.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <queue>

namespace shallot {

namespace {

// Quake's jump sets the upward speed to 270 units a second (client.qc, PlayerJump).
constexpr double kJumpSpeed = 270.0;
// A stretch passes through a door when it enters the door's box shrunk by this much: a path
// along the box's face (a cut's edge, walked beside the door) does not.
constexpr double kDoorGraze = 1.0;
// Stretches shorter than this are no step of the travel list (rounding of the legs' ends).
constexpr double kShortestStep = 1e-6;

// One move of the quickest chain: a mesh link or a travel link (by index).
struct Move {
    bool travel = false;
    uint32_t index = 0;
};

// The quickest chain of usable links from `start` (entered at `at`) to polygon `goal`, by
// time: a mesh link from the point the polygon was entered at to its edge's nearest point
// (a walk) or its takeoff and on to its landing, at kWalkSpeed, plus a gated door's time to
// open; a travel link from the entry to its boarding point at kWalkSpeed, plus its seconds.
std::optional<std::vector<Move>> quickest(const TravelGraph& graph, const std::vector<char>& fired, int32_t start, const Vec3& at,
                                          int32_t goal) {
    const NavMesh& mesh = *graph.mesh;
    struct Node {
        double cost = std::numeric_limits<double>::infinity();
        Vec3 entry = Vec3::Zero();
        Move via;
        bool closed = false;
    };
    std::vector<Node> nodes(mesh.polygons.size());
    using Item = std::pair<double, int32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    nodes[size_t(start)].cost = 0.0;
    nodes[size_t(start)].entry = at;
    open.push({0.0, start});
    auto relax = [&](int32_t to, double cost, const Vec3& entry, Move via) {
        Node& n = nodes[size_t(to)];
        if (n.closed || cost >= n.cost) return;
        n = {cost, entry, via, false};
        open.push({cost, to});
    };
    while (!open.empty()) {
        const auto [cost, p] = open.top();
        open.pop();
        Node& node = nodes[size_t(p)];
        if (node.closed || cost > node.cost) continue;
        node.closed = true;
        if (p == goal) break;
        const NavPolygon& poly = mesh.polygons[size_t(p)];
        for (uint32_t k = poly.firstLink; k < poly.firstLink + poly.linkCount; ++k) {
            if (!meshLinkUsable(graph, k, fired)) continue;
            const NavLink& l = mesh.links[k];
            Vec3 entry;
            double length;
            if (l.kind == NavLinkKind::Walk) {
                const Vec3 d = l.end - l.start;
                const double t = d.squaredNorm() > 0.0 ? std::clamp((node.entry - l.start).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
                entry = l.start + d * t;
                length = (entry - node.entry).norm();
            } else {
                entry = l.end;
                length = (l.start - node.entry).norm() + (l.end - l.start).norm();
            }
            const int32_t g = graph.gateOfLink[k];
            relax(l.to, cost + length / kWalkSpeed + (g >= 0 ? graph.gates[size_t(g)].seconds : 0.0), entry, {false, k});
        }
        for (const uint32_t t : graph.linksFrom[size_t(p)]) {
            const TravelLink& l = graph.links[t];
            if (!travelLinkUsable(graph, l, fired)) continue;
            relax(l.to, cost + (l.start - node.entry).norm() / kWalkSpeed + l.seconds, l.end, {true, t});
        }
    }
    if (!nodes[size_t(goal)].closed) return std::nullopt;
    std::vector<Move> moves;
    for (int32_t p = goal; p != start;) {
        const Move m = nodes[size_t(p)].via;
        moves.push_back(m);
        p = m.travel ? graph.links[m.index].from : mesh.links[m.index].from;
    }
    std::reverse(moves.begin(), moves.end());
    return moves;
}

// A stretch of the plan: walked over the mesh from `from` to `to`, or a travel link.
struct Leg {
    bool travel = false;
    uint32_t link = 0;
    Vec3 from = Vec3::Zero(), to = Vec3::Zero();
    int32_t fromPolygon = -1, toPolygon = -1;
    int limit = 0; // walked with what was fired before this round of the reach
};

// Unbounded: every round of the reach.
constexpr int kEveryRound = std::numeric_limits<int>::max();

struct Planner {
    const TravelGraph& graph;
    const TravelReach& reach;
    std::vector<char> detoured; // per entity: its opener already visited on the way
    std::vector<Leg> legs;

    // What was fired before round `limit` of the reach.
    std::vector<char> firedBefore(int limit) const {
        std::vector<char> out(reach.fired.size(), 0);
        for (size_t e = 0; e < out.size(); ++e) out[e] = reach.fired[e] && reach.firedRound[e] < limit;
        return out;
    }

    // Where to go before using something that waits on entity `e`: a reached floor point
    // of the opener that fired it, or of the key that opener wants, and the round it was
    // reached in (the way there uses only what was fired before). False when nothing
    // needs visiting (fired from the start, or already visited).
    bool detourFor(int e, Vec3& point, int32_t& polygon, int& round) {
        if (e < 0 || size_t(e) >= reach.firedBy.size() || reach.firedBy[size_t(e)] < 0 || detoured[size_t(e)]) return false;
        const TravelOpener& o = graph.openers[size_t(reach.firedBy[size_t(e)])];
        for (const int f : o.fires)
            if (f >= 0 && size_t(f) < detoured.size()) detoured[size_t(f)] = 1;
        if (o.key != KeyKind::None) {
            const int k = reach.keyTaken[size_t(o.key)];
            if (k < 0) return false;
            point = graph.keys[size_t(k)].point;
            polygon = graph.keys[size_t(k)].polygon;
            round = reach.keyRound[size_t(o.key)];
            return true;
        }
        round = reach.firedRound[size_t(e)];
        // A floor of the opener reached before it fired: reached with what the rounds
        // before it fired (reach.reached is the last round's; any of its polygons that the
        // earlier fired set reaches will do, found by the plan itself).
        for (size_t i = 0; i < o.polygons.size(); ++i)
            if (reach.reached[size_t(o.polygons[i])] && quickest(graph, firedBefore(round), origin, originPoint, o.polygons[i])) {
                point = o.points[i];
                polygon = o.polygons[i];
                return true;
            }
        return false;
    }

    int32_t origin = -1; // the path's start polygon and point
    Vec3 originPoint = Vec3::Zero();

    bool plan(const Vec3& a, int32_t aPolygon, const Vec3& b, int32_t bPolygon, int limit) {
        const auto moves = quickest(graph, firedBefore(limit), aPolygon, a, bPolygon);
        if (!moves) return false;
        for (const Move& m : *moves) {
            std::vector<int> waits; // the entities this move waits on
            const int32_t g = m.travel ? graph.links[m.index].gate : graph.gateOfLink[m.index];
            if (m.travel) waits.push_back(graph.links[m.index].needs);
            if (g >= 0) {
                const DoorGate& gate = graph.gates[size_t(g)];
                if (!gate.free && !gate.touched)
                    for (const int e : gate.entities) waits.push_back(e);
            }
            for (const int e : waits) {
                Vec3 w;
                int32_t wPolygon = -1;
                int round = 0;
                if (!detourFor(e, w, wPolygon, round)) continue;
                const size_t kept = legs.size();
                const std::vector<char> visited = detoured;
                if (plan(a, aPolygon, w, wPolygon, std::min(round, limit))) return plan(w, wPolygon, b, bPolygon, limit);
                // Not reached from here with what was fired then (the way back is behind a
                // door fired later): go on without this detour.
                legs.resize(kept);
                detoured = visited;
            }
        }
        Vec3 at = a;
        int32_t on = aPolygon;
        for (const Move& m : *moves) {
            if (!m.travel) continue;
            const TravelLink& l = graph.links[m.index];
            legs.push_back({false, 0, at, l.start, on, l.from, limit});
            legs.push_back({true, m.index, l.start, l.end, l.from, l.to, limit});
            at = l.end;
            on = l.to;
        }
        legs.push_back({false, 0, at, b, on, bPolygon, limit});
        return true;
    }
};

// Seconds a stretch of walking takes: at kWalkSpeed, a drop no less than its fall, a jump
// no less than its flight (up at kJumpSpeed, down under gravity).
double stretchSeconds(NavLinkKind kind, const Vec3& a, const Vec3& b) {
    const double across = std::hypot(b.x() - a.x(), b.y() - a.y()), rise = b.z() - a.z();
    const double walk = (b - a).norm() / kWalkSpeed;
    if (kind == NavLinkKind::Drop) return std::max(across / kWalkSpeed, std::sqrt(2.0 * std::max(0.0, -rise) / kPushGravity));
    if (kind == NavLinkKind::Jump) {
        const double flight = (kJumpSpeed + std::sqrt(std::max(0.0, kJumpSpeed * kJumpSpeed - 2.0 * kPushGravity * rise))) / kPushGravity;
        return std::max(across / kWalkSpeed, flight);
    }
    return walk;
}

TravelKind travelKindOf(NavLinkKind kind) {
    switch (kind) {
    case NavLinkKind::Walk: return TravelKind::Walk;
    case NavLinkKind::StepUp:
    case NavLinkKind::StepDown: return TravelKind::Step;
    case NavLinkKind::Drop: return TravelKind::Drop;
    case NavLinkKind::Jump: return TravelKind::Jump;
    }
    return TravelKind::Walk;
}

// Appends a stretch walked, stepped, dropped or jumped, split where it passes through a
// door's closed place (a door step, which waits for the door to open the first time).
void appendStretch(const TravelGraph& graph, NavLinkKind kind, const Vec3& a, const Vec3& b, std::vector<char>& doorWaited,
                   std::vector<TravelStep>& out) {
    struct Crossing {
        double t0, t1;
        size_t gate;
    };
    std::vector<Crossing> crossings;
    for (size_t g = 0; g < graph.gates.size(); ++g)
        for (const Aabb& box : graph.gates[g].boxes)
            if (const auto c = clipSegmentToBox(a, b, {box.mins + Vec3::Constant(kDoorGraze), box.maxs - Vec3::Constant(kDoorGraze)});
                c && c->second > c->first)
                crossings.push_back({c->first, c->second, g});
    std::sort(crossings.begin(), crossings.end(), [](const Crossing& x, const Crossing& y) { return x.t0 < y.t0; });
    const TravelKind own = travelKindOf(kind);
    auto push = [&](TravelKind k, const Vec3& p, const Vec3& q, double seconds, int entity) {
        if ((q - p).norm() < kShortestStep && k != TravelKind::Door) return;
        // Walks joined, and one door step for a door's boxes passed one after another.
        const bool sameDoor = k == TravelKind::Door && !out.empty() && out.back().kind == TravelKind::Door && out.back().entity == entity &&
                              (out.back().to - p).norm() < kShortestStep;
        if ((k == TravelKind::Walk && !out.empty() && out.back().kind == TravelKind::Walk) || sameDoor) {
            out.back().to = q;
            out.back().seconds += seconds;
            return;
        }
        out.push_back({k, p, q, seconds, entity});
    };
    double t = 0.0;
    for (const Crossing& c : crossings) {
        if (c.t0 < t) continue; // overlapping doors (a linked pair): the first stands for both
        const Vec3 p = a + (b - a) * t, q = a + (b - a) * c.t0, r = a + (b - a) * c.t1;
        push(own, p, q, stretchSeconds(kind, p, q), -1);
        const DoorGate& gate = graph.gates[c.gate];
        const double wait = doorWaited[c.gate] ? 0.0 : gate.seconds;
        doorWaited[c.gate] = 1;
        push(TravelKind::Door, q, r, wait + stretchSeconds(kind, q, r), gate.entities.empty() ? -1 : gate.entities.front());
        t = c.t1;
    }
    const Vec3 p = a + (b - a) * t;
    push(own, p, b, stretchSeconds(kind, p, b), -1);
}

} // namespace

TravelPath findTravelPath(const BspTree& tree, const TravelGraph& graph, const Vec3& from, const Vec3& to) {
    const NavMesh& mesh = *graph.mesh;
    TravelPath out;
    auto missed = [&](NavPathMiss why) {
        out.miss = why;
        return out;
    };
    const PathEnds ends = landPathEnds(tree, mesh, from, to);
    if (ends.miss != NavPathMiss::None) return missed(ends.miss);
    const Landing& start = ends.start;
    const Landing& goal = ends.goal;
    const TravelReach reach = travelReach(graph, start.polygon);
    if (!reach.reached[size_t(goal.polygon)]) return missed(NavPathMiss::NotReached);
    Planner planner{graph, reach, std::vector<char>(graph.entityCount, 0), {}, start.polygon, start.point};
    if (!planner.plan(start.point, start.polygon, goal.point, goal.polygon, kEveryRound)) return missed(NavPathMiss::NotReached);
    std::vector<char> doorWaited(graph.gates.size(), 0);
    auto addPoint = [&](const Vec3& p) {
        if (out.points.empty() || (out.points.back() - p).norm() >= kShortestStep) out.points.push_back(p);
    };
    for (const Leg& leg : planner.legs) {
        if (leg.travel) {
            const TravelLink& l = graph.links[leg.link];
            Vec3 last = l.start;
            addPoint(l.start);
            for (const Vec3& v : l.via) {
                addPoint(v);
                out.length += (v - last).norm();
                last = v;
            }
            addPoint(l.end);
            if (l.kind != TravelKind::Teleport) out.length += (l.end - last).norm();
            out.travel.push_back({l.kind, l.start, l.end, l.seconds, l.entity, l.via});
            continue;
        }
        if ((leg.to - leg.from).norm() < kShortestStep) continue;
        const std::vector<char> fired = planner.firedBefore(leg.limit);
        // The path's own ends as given (findPath drops them as it dropped them here), so that
        // a path without movers is findPath's to the last bit.
        const Vec3 a = leg.from == start.point ? from : leg.from, b = leg.to == goal.point ? to : leg.to;
        const NavPath walked = findPath(tree, mesh, a, b, [&](uint32_t k) { return meshLinkUsable(graph, k, fired); });
        if (!walked.found) return missed(NavPathMiss::NotReached);
        for (size_t i = 0; i < walked.points.size(); ++i) {
            addPoint(walked.points[i]);
            if (i > 0) appendStretch(graph, walked.stretches[i - 1], walked.points[i - 1], walked.points[i], doorWaited, out.travel);
        }
        out.length += walked.length;
    }
    out.found = true;
    for (const TravelStep& s : out.travel) out.seconds += s.seconds;
    return out;
}

} // namespace shallot

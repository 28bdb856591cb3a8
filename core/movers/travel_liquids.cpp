// Swimming, water jumps and ladders as travel links (movers/travel.h): the walking check's
// swim rule (check/walking_reach.h: a body of water joins every floor the box is in its
// water from, or climbs out onto) made links a path can report, where the way is clear
// (and through a closed door only once it opens); and Quake 2's and Half-Life's ladders
// climbed between the floors beside them.
#include "movers/travel.h"

#include "check/walking_reach.h"
#include "compile/brush_expansion.h"
#include "movers/swim_network.h"
#include "query/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

namespace shallot {

namespace {

// A floor whose box stands higher than this above another's on the same ladder is a climb
// away from it; lower ones are walked (a step).
constexpr double kLadderClimb = 18.0;

// Pairs of points this much longer than the shortest still count as the shortest: the
// tie (two floors' parallel sides) is broken towards the middle of both floors.
constexpr double kNearPairSlack = 8.0;
// At most this many points of a floor are tried for a link (every k-th of more).
constexpr size_t kMaxLinkPoints = 48;

Vec3 meanOf(const std::vector<Vec3>& points) {
    Vec3 sum = Vec3::Zero();
    for (const Vec3& p : points) sum += p;
    return sum / double(points.size());
}

// Where a swim from floor a to floor b boards and lands: the nearest pair of their points,
// of nearly nearest pairs the one whose middle is nearest the middle of both floors (a
// pool's two sides join across its middle, not at whichever end was sampled first).
std::pair<Vec3, Vec3> nearSides(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    const size_t stepA = a.size() / kMaxLinkPoints + 1, stepB = b.size() / kMaxLinkPoints + 1;
    // Compared squared (no root in the loops: a large pool's floors take 48 x 48 pairs).
    double shortestSquared = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < a.size(); i += stepA)
        for (size_t j = 0; j < b.size(); j += stepB) shortestSquared = std::min(shortestSquared, (a[i] - b[j]).squaredNorm());
    const double near = std::sqrt(shortestSquared) + kNearPairSlack;
    const double nearSquared = near * near;
    const Vec3 middle = 0.5 * (meanOf(a) + meanOf(b));
    std::pair<Vec3, Vec3> best{a.front(), b.front()};
    double bestOff = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < a.size(); i += stepA)
        for (size_t j = 0; j < b.size(); j += stepB) {
            if ((a[i] - b[j]).squaredNorm() > nearSquared) continue;
            const double off = (0.5 * (a[i] + b[j]) - middle).squaredNorm();
            if (off < bestOff) {
                bestOff = off;
                best = {a[i], b[j]};
            }
        }
    return best;
}

// `count` of the body's floors spread out: each next one the farthest from those picked.
std::vector<size_t> spreadHubs(const std::vector<WaterFloor>& body, size_t count) {
    std::vector<size_t> hubs{0};
    std::vector<double> nearest(body.size(), std::numeric_limits<double>::infinity());
    while (hubs.size() < count) {
        const Vec3& last = body[hubs.back()].points.front();
        size_t far = 0;
        for (size_t i = 0; i < body.size(); ++i) {
            nearest[i] = std::min(nearest[i], (body[i].points.front() - last).squaredNorm());
            if (nearest[i] > nearest[far]) far = i;
        }
        if (!(nearest[far] > 0.0)) break;
        hubs.push_back(far);
    }
    return hubs;
}

// Whether the segment a-b passes through the inside of `box` (the slab test).
bool crossesInside(const Vec3& a, const Vec3& b, const Aabb& box) {
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 3; ++k) {
        const double d = b[k] - a[k];
        if (d == 0.0) {
            if (!(a[k] > box.mins[k] && a[k] < box.maxs[k])) return false;
            continue;
        }
        double ta = (box.mins[k] - a[k]) / d, tb = (box.maxs[k] - a[k]) / d;
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (!(t0 < t1)) return false;
    }
    return true;
}

constexpr int32_t kNoGate = -1, kNotTaken = -2;

// The door gate (graph.gates) a link from a to b passes through the closed volume of, as
// the compiled world leaves doors out: kNoGate, or kNotTaken when it passes a door that
// never opens (shut) or more than one door.
int32_t gateCrossed(const TravelGraph& graph, const Vec3& a, const Vec3& b) {
    int32_t crossed = kNoGate;
    for (size_t g = 0; g < graph.gates.size(); ++g) {
        const DoorGate& gate = graph.gates[g];
        if (gate.free) continue;
        if (!std::any_of(gate.boxes.begin(), gate.boxes.end(), [&](const Aabb& box) { return crossesInside(a, b, box); })) continue;
        if (gate.shut || crossed != kNoGate) return kNotTaken;
        crossed = int32_t(g);
    }
    return crossed;
}

// The first point pose of the tree (the sight pose), -1 when it has none.
int pointPoseOf(const BspTree& tree) {
    for (size_t i = 0; i < tree.poses.size(); ++i)
        if (tree.poses[i].isPoint() && !tree.poses[i].shape.isRound()) return int(i);
    return -1;
}

struct Swimmer {
    const BspTree& tree;
    int pointPose;
    double stepHeight;
    TravelGraph& graph;

    // Swims between floors a and b of one body, both ways, when the straight way between
    // their points is clear of solid (a body's bounds may join pools a wall parts); out onto
    // a floor the box is not in the water from (but for a wade out of shallow water): a
    // water jump. False when that way is blocked (a swim round corners may join them).
    bool linkBothWays(const WaterFloor& a, const WaterFloor& b) const {
        if (a.polygon == b.polygon) return true;
        const auto [from, to] = nearSides(a.points, b.points);
        if (pointPose >= 0) {
            const TraceResult t = traceSegment(tree, pointPose, from, to);
            if (t.hit || t.startSolid) return false;
        }
        const int32_t gate = gateCrossed(graph, from, to);
        if (gate == kNotTaken) return true;
        add(a, b, from, to, gate);
        add(b, a, to, from, gate);
        return true;
    }

    void add(const WaterFloor& a, const WaterFloor& b, const Vec3& from, const Vec3& to, int32_t gate) const {
        // From a floor in shallow water to one beside it at about its height: waded.
        const bool climbs = !b.inWater && (!a.inWater || to.z() > from.z() + stepHeight);
        graph.links.push_back({climbs ? TravelKind::WaterJump : TravelKind::Swim, a.polygon, b.polygon, from, to,
                               (to - from).norm() / kSwimSpeed, -1, -1, gate});
    }

    // Swims between floors a and b along `route` (a SwimNetwork's, from a's points to b's),
    // both ways, through at most one closed door (as linkBothWays).
    void routedBothWays(const WaterFloor& a, const WaterFloor& b, const SwimRoute& route) const {
        if (a.polygon == b.polygon || route.points.size() < 2) return;
        int32_t gate = kNoGate;
        for (size_t i = 0; i + 1 < route.points.size(); ++i) {
            const int32_t crossed = gateCrossed(graph, route.points[i], route.points[i + 1]);
            if (crossed == kNotTaken || (crossed != kNoGate && gate != kNoGate && crossed != gate)) return;
            if (crossed != kNoGate) gate = crossed;
        }
        std::vector<Vec3> via(route.points.begin() + 1, route.points.end() - 1);
        graph.links.push_back({TravelKind::Swim, a.polygon, b.polygon, route.points.front(), route.points.back(),
                               route.length / kSwimSpeed, -1, -1, gate, via});
        std::reverse(via.begin(), via.end());
        graph.links.push_back({TravelKind::Swim, b.polygon, a.polygon, route.points.back(), route.points.front(),
                               route.length / kSwimSpeed, -1, -1, gate, std::move(via)});
    }
};

// At most kMaxLinkPoints of a floor's points, spread over them.
std::vector<Vec3> linkPoints(const WaterFloor& floor) {
    const size_t step = floor.points.size() / kMaxLinkPoints + 1;
    std::vector<Vec3> out;
    for (size_t i = 0; i < floor.points.size(); i += step) out.push_back(floor.points[i]);
    return out;
}

// A body's floors joined: straight swims where the way is clear; between floors in the
// water where it is not, swims round corners through the body's network (whose places are
// the body's floors: the points of those in the water). A small body joins every pair; a
// large one every floor to hubs spread over it, and a floor no hub's route reaches (a
// channel of its own) becomes a hub too, joined by its routes only.
void joinBody(const Swimmer& swimmer, const SwimNetwork& network, const std::vector<WaterFloor>& body) {
    if (body.size() <= kMaxSwimClique) {
        for (size_t a = 0; a < body.size(); ++a) {
            std::optional<std::vector<std::optional<SwimRoute>>> routes; // made when first needed
            for (size_t b = a + 1; b < body.size(); ++b) {
                if (swimmer.linkBothWays(body[a], body[b]) || !body[a].inWater || !body[b].inWater) continue;
                if (!routes) routes = network.routesFrom(a);
                if ((*routes)[b]) swimmer.routedBothWays(body[a], body[b], *(*routes)[b]);
            }
        }
        return;
    }
    std::vector<size_t> hubs = spreadHubs(body, kSwimHubs);
    const size_t spread = hubs.size();
    std::vector<char> reached(body.size(), 0);
    for (size_t k = 0; k < hubs.size(); ++k) {
        const size_t h = hubs[k];
        reached[h] = 1;
        const std::vector<std::optional<SwimRoute>> routes = body[h].inWater ? network.routesFrom(h) : std::vector<std::optional<SwimRoute>>(body.size());
        for (size_t f = 0; f < body.size(); ++f) {
            reached[f] |= routes[f].has_value();
            const bool straight = k < spread && swimmer.linkBothWays(body[h], body[f]);
            if (!straight && routes[f]) swimmer.routedBothWays(body[h], body[f], *routes[f]);
        }
        if (k + 1 == hubs.size())
            for (size_t f = 0; f < body.size(); ++f)
                if (body[f].inWater && !reached[f]) {
                    hubs.push_back(f);
                    break;
                }
    }
}

std::vector<GrownWater> grownWater(const std::vector<BrushGeometry>& water, const Pose& pose) {
    std::vector<GrownWater> grown;
    for (const BrushGeometry& w : water) grown.push_back({expandedPlanes(w, pose), {w.bounds.mins - pose.maxs, w.bounds.maxs - pose.mins}});
    return grown;
}

bool inside(const GrownWater& water, const Vec3& p) {
    return water.bounds.contains(p) &&
           std::all_of(water.planes.begin(), water.planes.end(), [&](const Plane& plane) { return plane.signedDistance(p) < 0.0; });
}

void addSwims(const Swimmer& swimmer, WaterBodies& water) {
    for (size_t b = 0; b < water.count(); ++b)
        if (water.floors(b).size() >= 2) joinBody(swimmer, water.network(b), water.floors(b));
}

void addLadders(TravelGraph& graph, const Pose& pose, const std::vector<BrushGeometry>& ladders) {
    const Vec3 reach = Vec3::Constant(kLadderReach);
    for (const BrushGeometry& ladder : ladders) {
        // Where the reference point puts the box within reach of the ladder.
        std::vector<int32_t> polygons;
        std::vector<Vec3> points;
        polygonsTouching(*graph.mesh, {ladder.bounds.mins - pose.maxs - reach, ladder.bounds.maxs - pose.mins + reach}, polygons,
                         points);
        for (size_t i = 0; i < polygons.size(); ++i)
            for (size_t j = 0; j < polygons.size(); ++j) {
                const double rise = points[j].z() - points[i].z();
                if (std::abs(rise) <= kLadderClimb) continue;
                const int32_t gate = gateCrossed(graph, points[i], points[j]);
                if (gate == kNotTaken) continue;
                const double across = (points[j] - points[i]).head<2>().norm();
                graph.links.push_back({TravelKind::Ladder, polygons[i], polygons[j], points[i], points[j],
                                       std::abs(rise) / kLadderSpeed + across / kWalkSpeed, -1, -1, gate});
            }
    }
}

} // namespace

struct WaterBodies::State {
    const BspTree& tree;
    const NavMesh& mesh;
    const Pose& pose;
    const TravelLevel& level;
    std::vector<GrownWater> grown;
    std::vector<int32_t> bodyOf;
    size_t count = 0;
    std::optional<std::vector<std::vector<WaterFloor>>> floors;
    std::optional<SwimPortals> portals;
    std::map<size_t, std::unique_ptr<SwimNetwork>> networks;
};

WaterBodies::WaterBodies(const BspTree& tree, const NavMesh& mesh, const Pose& pose, const TravelLevel& level)
    : state_(std::make_unique<State>(State{tree, mesh, pose, level, grownWater(level.water, pose), waterBodyOf(level.water), 0, {}, {}, {}})) {
    for (const int32_t body : state_->bodyOf) state_->count = std::max(state_->count, size_t(body) + 1);
}

WaterBodies::~WaterBodies() = default;

size_t WaterBodies::count() const { return state_->count; }

const std::vector<WaterFloor>& WaterBodies::floors(size_t body) {
    State& s = *state_;
    if (!s.floors) s.floors = waterFloors(s.mesh, s.pose, s.level.water);
    return (*s.floors)[body];
}

const SwimNetwork& WaterBodies::network(size_t body) {
    State& s = *state_;
    std::unique_ptr<SwimNetwork>& network = s.networks[body];
    if (!network) {
        if (!s.portals) s.portals = swimPortals(s.tree, s.mesh.pose, s.grown);
        std::vector<GrownWater> wet;
        for (size_t w = 0; w < s.grown.size(); ++w)
            if (size_t(s.bodyOf[w]) == body) wet.push_back(s.grown[w]);
        std::vector<std::vector<Vec3>> places; // the floors in the water
        for (const WaterFloor& f : floors(body)) places.push_back(f.inWater ? linkPoints(f) : std::vector<Vec3>{});
        network = std::make_unique<SwimNetwork>(s.tree, s.mesh.pose, *s.portals, wet, places);
    }
    return *network;
}

std::vector<SwimmingFloor> WaterBodies::floorsSwimmingTo(const Vec3& at) {
    const State& s = *state_;
    const auto in = std::find_if(s.grown.begin(), s.grown.end(), [&](const GrownWater& w) { return inside(w, at); });
    if (in == s.grown.end()) return {};
    const size_t body = size_t(s.bodyOf[size_t(in - s.grown.begin())]);
    const std::vector<std::optional<SwimRoute>> routes = network(body).routesFromPoint(at);
    const std::vector<WaterFloor>& wet = floors(body);
    std::vector<SwimmingFloor> out;
    for (size_t f = 0; f < wet.size(); ++f)
        if (const std::optional<SwimRoute>& r = routes[f]) out.push_back({wet[f].polygon, r->points.back(), r->length});
    std::sort(out.begin(), out.end(), [](const SwimmingFloor& x, const SwimmingFloor& y) { return x.length < y.length; });
    return out;
}

void addSwimAndLadderLinks(TravelGraph& graph, const BspTree& tree, const Pose& pose, const TravelLevel& level, WaterBodies& water) {
    if (!level.water.empty()) addSwims({tree, pointPoseOf(tree), pose.nav.stepHeight, graph}, water);
    if (!level.ladders.empty()) addLadders(graph, pose, level.ladders);
}

} // namespace shallot
